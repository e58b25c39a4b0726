import { sql, type Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { SEARCH_RESULT_CAP, type ProductSearch, type SearchPage } from "./product-search.ts";
import { allowedEdits, ftsPhrase, MIN_INDEXED_WORD, nearestVariants, queryWords, VARIANT_CANDIDATES } from "./query-words.ts";

// bm25 weights of the columns name, description, category_name: a word in the name outweighs the same word in a
// long description, and a category's name says more than a passing mention.
const RANK = sql`bm25(product_search, 10.0, 1.0, 4.0)`;

/**
 * SQLite: FTS5 with the trigram tokenizer finds any word or part of a word ('alo' in 'Aloe', 'succulent' in
 * 'Succulents'). Trigrams alone forgive no typo ('plnt' shares no trigram with 'plant'), so a search whose words
 * find nothing as typed is tried again with each word widened to the vocabulary words at most one or two edits away.
 */
export function createSqliteProductSearch(db: Kysely<DB>): ProductSearch {
  async function ranked(match: string, page: { limit: number; offset: number }): Promise<SearchPage> {
    // The inner LIMIT bounds the work: at most CAP + 1 matches are scored, however common the word.
    const rows = await sql<{ product_id: string; total: number }>`
      select r.product_id, count(*) over () as total
      from (select rowid, ${RANK} as score from product_search where product_search match ${match} limit ${SEARCH_RESULT_CAP + 1}) m
      join product_search_rows r on r.id = m.rowid
      order by m.score, r.id
      limit ${page.limit} offset ${page.offset}`.execute(db);
    return toPage(rows.rows, page.offset === 0 || rows.rows.length > 0 ? undefined : await countMatches(match));
  }

  async function countMatches(match: string): Promise<number> {
    const row = await sql<{ n: number }>`
      select count(*) as n from (select 1 from product_search where product_search match ${match} limit ${SEARCH_RESULT_CAP + 1})`.execute(db);
    return Number(row.rows[0]?.n ?? 0);
  }

  /** Words of the vocabulary (names and category names) a mistyped word may have meant, nearest first. */
  async function variantsOf(word: string): Promise<string[]> {
    if (allowedEdits(word) === 0) return [];
    const padded = ` ${word} `;
    const trigrams = new Set<string>();
    for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
    const match = [...trigrams].map(ftsPhrase).join(" OR ");
    const candidates = await sql<{ term: string }>`
      select t.term from search_term_trigrams s join search_terms t on t.id = s.rowid
      where search_term_trigrams match ${match} order by s.rank limit ${VARIANT_CANDIDATES}`.execute(db);
    return nearestVariants(
      word,
      candidates.rows.map(({ term }) => term),
    );
  }

  async function byNamePrefix(prefix: string, page: { limit: number; offset: number }): Promise<SearchPage> {
    // Uses the unique index on lower(name): an ordered range, no scan.
    const rows = await sql<{ product_id: string; total: number }>`
      select id as product_id, count(*) over () as total
      from (select id, lower(name) as key from products where lower(name) >= ${prefix} and lower(name) < ${`${prefix}\u{10FFFF}`}
            order by lower(name) limit ${SEARCH_RESULT_CAP + 1})
      order by key limit ${page.limit} offset ${page.offset}`.execute(db);
    return toPage(rows.rows, undefined);
  }

  return {
    async search(q, page) {
      const words = queryWords(q);
      const indexed = words.filter((word) => word.length >= MIN_INDEXED_WORD);
      if (indexed.length === 0) return words.length === 0 ? emptyPage() : byNamePrefix(words.join(" "), page);

      const asTyped = indexed.map(ftsPhrase).join(" AND ");
      const exact = await ranked(asTyped, page);
      if (exact.total > 0) return exact;

      const widened = await Promise.all(
        indexed.map(async (word) => `(${[word, ...(await variantsOf(word))].map(ftsPhrase).join(" OR ")})`),
      );
      const fuzzy = widened.join(" AND ");
      return fuzzy === asTyped ? exact : ranked(fuzzy, page);
    },
  };
}

function toPage(rows: { product_id: string; total: number }[], totalPastTheEnd: number | undefined): SearchPage {
  const matched = totalPastTheEnd ?? Number(rows[0]?.total ?? 0);
  return {
    ids: rows.map((row) => row.product_id),
    total: Math.min(matched, SEARCH_RESULT_CAP),
    totalCapped: matched > SEARCH_RESULT_CAP,
  };
}

function emptyPage(): SearchPage {
  return { ids: [], total: 0, totalCapped: false };
}
