import { sql, type Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { ftsPhrase } from "./query-words.ts";
import { candidateOf, listKeyColumns, listKeysOf, type ListKeys, type SearchIndex } from "./ranked-search.ts";

/**
 * SQLite: FTS5 with the trigram tokenizer finds any word or part of a word ('alo' in 'Aloe', 'succulent' in
 * 'Succulents'). Trigrams alone forgive no typo ('plnt' shares no trigram with 'plant'): the vocabulary's own trigram
 * index (`search_term_trigrams`, words padded with spaces) gives the words a mistyped one may have meant.
 *
 * No query asks FTS5 for `rank` or `bm25`: bm25 counts, for each phrase, every row of the index that has it, which
 * costs what the catalogue holds (7–15 ms for 'plant' at 100,000 products). Without an order FTS5 walks its doclists
 * by rowid and stops at the LIMIT; the candidates are ranked in ranked-search.ts. Ties go to the smaller search row
 * key: rows are numbered in the order products were added (by created_at for the catalogue migration 0012 found).
 */
export function createSqliteSearchIndex(db: Kysely<DB>): SearchIndex {
  return {
    async byName(groups, cap, withKeys) {
      // The index of names alone (migration 0013): every group is in the name, so ranking needs no category.
      const rows = await sql<{ id: string; name: string; order: number } & KeyColumns>`
        select r.product_id as id, m.name, m.rowid as "order"${keyColumns(withKeys)}
        from (select rowid, name from product_name_search where product_name_search match ${expression(groups)} limit ${cap}) m
        join product_search_rows r on r.id = m.rowid${productsJoin(withKeys)}`.execute(db);
      return rows.rows.map((row) => candidateOf(row, "", row.order, withKeys));
    },
    async beyondNames(groups, _named, cap, withKeys) {
      // Both indexes number a product's row alike (migration 0013), so the name index's rowids are the name matches
      // to leave out: the set of at most a cap's rowids, tested before any other column of a row is read.
      const match = expression(groups);
      const rows = await sql<{ id: string; name: string; categoryName: string; order: number } & KeyColumns>`
        select r.product_id as id, m.name, m.category_name as "categoryName", m.rowid as "order"${keyColumns(withKeys)}
        from (select rowid, name, category_name from product_search where product_search match ${match}
          and rowid not in (select rowid from product_name_search where product_name_search match ${match}) limit ${cap}) m
        join product_search_rows r on r.id = m.rowid${productsJoin(withKeys)}`.execute(db);
      return rows.rows.map((row) => candidateOf(row, row.categoryName, row.order, withKeys));
    },

    async termsLike(word, limit) {
      const padded = ` ${word} `;
      const trigrams = new Set<string>();
      for (let i = 0; i + 3 <= padded.length; i++) trigrams.add(padded.slice(i, i + 3));
      const match = [...trigrams].map(ftsPhrase).join(" OR ");
      const rows = await sql<{ term: string }>`
        select t.term from search_term_trigrams s join search_terms t on t.id = s.rowid
        where search_term_trigrams match ${match} order by s.rank limit ${limit}`.execute(db);
      return rows.rows.map(({ term }) => term);
    },

    async byNamePrefix(prefix, cap, withKeys) {
      // The unique index on lower(name): an ordered range, no scan.
      const rows = await sql<{ id: string } & KeyColumns>`
        select p.id${keyColumns(withKeys)} from products p where lower(p.name) >= ${prefix} and lower(p.name) < ${`${prefix}\u{10FFFF}`}
        order by lower(p.name) limit ${cap}`.execute(db);
      return rows.rows.map((row) => (withKeys ? { id: row.id, keys: listKeysOf(row) } : { id: row.id }));
    },
  };
}

type KeyColumns = Partial<ListKeys>;

/** The list keys, from the products joined as `p`, when asked for. */
const keyColumns = (withKeys: boolean) => (withKeys ? sql`, p.created_at${listKeyColumns(true, "p.")}` : sql``);

/** The product behind each search row, for its list keys: one lookup by key per match read. */
function productsJoin(withKeys: boolean) {
  return withKeys ? sql` join products p on p.id = r.product_id` : sql``;
}

/** Every group ANDed, the words of a group ORed, each word a quoted phrase (no FTS5 syntax reaches the index). */
function expression(groups: string[][]): string {
  return groups.map((group) => `(${group.map(ftsPhrase).join(" OR ")})`).join(" AND ");
}
