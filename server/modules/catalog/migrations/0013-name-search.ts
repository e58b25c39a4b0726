import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";
import { wordsOf } from "./0012-catalog-search.ts";

/**
 * SQLite: a trigram index over product names alone (docs/decisions/026-catalog-search.md, "Names first"). A search
 * reads names first and stops at the cap; in `product_search` a `{name}:` filter walks every column's positions of
 * each matching row, here only the name's (about half the work at 100,000 products), and the name read for ranking
 * is a short row. Kept by the products triggers of 0012, rewritten here to write both indexes in one transaction.
 *
 * PostgreSQL needs no new search index: the name pass reads `products_name_trgm` of 0012.
 *
 * Both: `categories_list` (created_at, name), the order GET /api/categories pages by key.
 */
export function nameSearchMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await sql`create index categories_list on categories (created_at, name)`.execute(db);
      if (dialect === "postgres") return;
      const run = (statement: string) => sql.raw(statement).execute(db);
      await run(`create virtual table product_name_search using fts5(name, tokenize = 'trigram remove_diacritics 1')`);
      await createTriggers(db, true);
      await run(`insert into product_name_search (rowid, name)
        select r.id, p.name from product_search_rows r join products p on p.id = r.product_id`);
    },
    async down(db: Kysely<unknown>) {
      await sql`drop index if exists categories_list`.execute(db);
      if (dialect === "postgres") return;
      await createTriggers(db, false);
      await sql`drop table if exists product_name_search`.execute(db);
    },
  };
}

const CATEGORY_NAME = "(select name from categories where id = new.category_id)";
const SEARCH_ROW = (alias: "new" | "old") => `(select id from product_search_rows where product_id = ${alias}.id)`;
/** The products triggers of 0012, with (`withNames`) or without the name index's statements. */
async function createTriggers(db: Kysely<unknown>, withNames: boolean) {
  const run = (statement: string) => sql.raw(statement).execute(db);
  const names = (statement: string) => (withNames ? statement : "");
  for (const trigger of ["products_search_insert", "products_search_update", "products_search_delete"]) {
    await run(`drop trigger if exists ${trigger}`);
  }
  await run(`create trigger products_search_insert after insert on products begin
    insert into product_search_rows (product_id) values (new.id);
    insert into product_search (rowid, name, description, category_name)
      values (${SEARCH_ROW("new")}, new.name, new.description, ${CATEGORY_NAME});
    ${names(`insert into product_name_search (rowid, name) values (${SEARCH_ROW("new")}, new.name);`)}
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);
  await run(`create trigger products_search_update after update of name, description, category_id on products begin
    update product_search set name = new.name, description = new.description, category_name = ${CATEGORY_NAME}
      where rowid = ${SEARCH_ROW("old")};
    ${names(`update product_name_search set name = new.name where rowid = ${SEARCH_ROW("old")};`)}
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);
  await run(`create trigger products_search_delete after delete on products begin
    delete from product_search where rowid = ${SEARCH_ROW("old")};
    ${names(`delete from product_name_search where rowid = ${SEARCH_ROW("old")};`)}
    delete from product_search_rows where product_id = old.id;
  end`);
}
