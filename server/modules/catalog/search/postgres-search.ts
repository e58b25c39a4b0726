import { sql, type Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { SEARCH_RESULT_CAP, type ProductSearch, type SearchPage } from "./product-search.ts";
import { MIN_INDEXED_WORD, queryWords } from "./query-words.ts";

/**
 * How alike a search and the best-matching stretch of a text must be (pg_trgm's word_similarity, 0–1). 0.45 lets
 * 'snak plnt' find 'snake plant' (0.5) and keeps 'xyz' from finding everything; pg_trgm's default 0.6 does not.
 */
const WORD_SIMILARITY_THRESHOLD = "0.45";

/** How alike each word of a search must be to some stretch of the product's text: 'plnt' ~ 'plant' is 0.4. */
const EVERY_WORD_THRESHOLD = 0.3;

/**
 * PostgreSQL: pg_trgm. The `<%` operator (word similarity above the threshold) is answered from the GIN trigram
 * indexes of migration 0012 and forgives typos and partial words by itself. Each of the three places a search may
 * match (name, description, category name) yields at most CAP + 1 products; those are ranked by how alike they are,
 * a name counting twice a description.
 */
export function createPostgresProductSearch(db: Kysely<DB>): ProductSearch {
  return {
    async search(q, page) {
      const words = queryWords(q);
      if (words.length === 0) return { ids: [], total: 0, totalCapped: false };
      const text = words.join(" ");
      const cap = SEARCH_RESULT_CAP + 1;
      if (words.every((word) => word.length < MIN_INDEXED_WORD)) {
        const rows = await sql<{ id: string; total: number }>`
          select id, count(*) over () as total
          from (select id, lower(name) as key from products where lower(name) like ${`${escapeLike(text)}%`} limit ${cap}) hits
          order by key limit ${page.limit} offset ${page.offset}`.execute(db);
        return toPage(rows.rows);
      }
      return db.transaction().execute(async (trx) => {
        // Only for this transaction: the threshold the `<%` operator and its index use.
        await sql`select set_config('pg_trgm.word_similarity_threshold', ${WORD_SIMILARITY_THRESHOLD}, true)`.execute(trx);
        const rows = await sql<{ id: string; total: number }>`
          with hits as (
            (select id from products where ${text} <% lower(name) limit ${cap})
            union
            (select id from products where ${text} <% lower(description) limit ${cap})
            union
            (select p.id from products p
              where p.category_id in (select id from categories where ${text} <% lower(name)) limit ${cap})
          ),
          scored as (
            select p.id, p.created_at,
              greatest(
                word_similarity(${text}, lower(p.name)) * 2 + case when strpos(lower(p.name), ${text}) > 0 then 1 else 0 end,
                word_similarity(${text}, lower(p.description)),
                word_similarity(${text}, lower(c.name)) * 1.5
              ) as score
            from hits join products p on p.id = hits.id join categories c on c.id = p.category_id
            -- Every word must be somewhere in the product (a typo of it counts): 'quill palm' is not 'Quill Cane'.
            where not exists (
              select 1 from unnest(${words}::text[]) as word
              where word_similarity(word, lower(p.name || ' ' || c.name || ' ' || p.description)) < ${EVERY_WORD_THRESHOLD}
            )
            order by score desc, p.created_at, p.id
            limit ${cap}
          )
          select id, count(*) over () as total from scored
          order by score desc, created_at, id
          limit ${page.limit} offset ${page.offset}`.execute(trx);
        if (rows.rows.length === 0 && page.offset > 0) return { ids: [], total: 0, totalCapped: false } satisfies SearchPage;
        return toPage(rows.rows);
      });
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
