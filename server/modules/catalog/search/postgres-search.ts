import { sql, type Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { SEARCH_RESULT_CAP, type ProductSearch, type SearchPage } from "./product-search.ts";
import { allowedEdits, MIN_INDEXED_WORD, nearestVariants, queryWords, VARIANT_CANDIDATES } from "./query-words.ts";

const DOCUMENT = sql`lower(p.name || ' ' || p.description)`;

/**
 * PostgreSQL: pg_trgm. Each word of a search is a `LIKE '%word%'` on the product's name + description, answered
 * by the GIN trigram index of migration 0012 (the words' conditions are ANDed in one bitmap), or on its category's
 * name. As on SQLite, a search whose words find nothing as typed is tried again with each word widened to the
 * vocabulary words one or two edits away, found through the vocabulary's own trigram index (`term % word`).
 * At most CAP + 1 matches from each place are ranked: words in the name count most, then the category, then the
 * description, and among equals the name most like the search (pg_trgm's similarity) comes first.
 */
export function createPostgresProductSearch(db: Kysely<DB>): ProductSearch {
  async function ranked(groups: string[][], text: string, page: { limit: number; offset: number }): Promise<SearchPage> {
    const cap = SEARCH_RESULT_CAP + 1;
    const patterns = groups.map((group) => sql`${group.map((word) => `%${escapeLike(word)}%`)}::text[]`);
    const allPatterns = sql`${groups.flat().map((word) => `%${escapeLike(word)}%`)}::text[]`;
    const inDocument = sql.join(patterns.map((any) => sql`${DOCUMENT} like any(${any})`), sql` and `);
    const everyWord = sql.join(
      patterns.map((any) => sql`(${DOCUMENT} like any(${any}) or lower(c.name) like any(${any}))`),
      sql` and `,
    );
    const score = sql.join(
      patterns.map(
        (any) => sql`(case when lower(p.name) like any(${any}) then 4 when lower(c.name) like any(${any}) then 2 else 1 end)`,
      ),
      sql` + `,
    );
    const rows = await sql<{ id: string; total: number }>`
      with hits as (
        (select p.id from products p where ${inDocument} limit ${cap})
        union
        (select p.id from products p
          where p.category_id in (select id from categories where lower(name) like any(${allPatterns})) limit ${cap})
      )
      select p.id, count(*) over () as total
      from hits join products p on p.id = hits.id join categories c on c.id = p.category_id
      where ${everyWord}
      order by ${score} + similarity(lower(p.name), ${text}) desc, p.created_at, p.id
      limit ${page.limit} offset ${page.offset}`.execute(db);
    if (rows.rows.length === 0 && page.offset > 0) {
      // Past the last match the window count has no row to ride on: count from the first page.
      const { total, totalCapped } = await ranked(groups, text, { limit: 1, offset: 0 });
      return { ids: [], total, totalCapped };
    }
    return toPage(rows.rows);
  }

  async function variantsOf(word: string): Promise<string[]> {
    if (allowedEdits(word) === 0) return [];
    const candidates = await sql<{ term: string }>`
      select term from search_terms where term % ${word} order by similarity(term, ${word}) desc limit ${VARIANT_CANDIDATES}`.execute(db);
    return nearestVariants(
      word,
      candidates.rows.map(({ term }) => term),
    );
  }

  return {
    async search(q, page) {
      const words = queryWords(q);
      if (words.length === 0) return { ids: [], total: 0, totalCapped: false };
      const text = words.join(" ");
      const indexed = words.filter((word) => word.length >= MIN_INDEXED_WORD);
      if (indexed.length === 0) {
        const rows = await sql<{ id: string; total: number }>`
          select id, count(*) over () as total
          from (select id, lower(name) as key from products where lower(name) like ${`${escapeLike(text)}%`} limit ${SEARCH_RESULT_CAP + 1}) hits
          order by key limit ${page.limit} offset ${page.offset}`.execute(db);
        return toPage(rows.rows);
      }
      const exact = await ranked(
        indexed.map((word) => [word]),
        text,
        page,
      );
      if (exact.total > 0) return exact;
      const widened = await Promise.all(indexed.map(async (word) => [word, ...(await variantsOf(word))]));
      if (widened.every((group) => group.length === 1)) return exact;
      return ranked(widened, text, page);
    },
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function toPage(rows: { id: string; total: number }[]): SearchPage {
  const matched = Number(rows[0]?.total ?? 0);
  return { ids: rows.map((row) => row.id), total: Math.min(matched, SEARCH_RESULT_CAP), totalCapped: matched > SEARCH_RESULT_CAP };
}

