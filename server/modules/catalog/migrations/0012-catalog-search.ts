import { sql, type Kysely } from "kysely";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

/**
 * Each database's own text index for catalogue search (docs/decisions/026-catalog-search.md), built here for the
 * products a shop already has and kept in step with every later change inside the same transaction.
 *
 * SQLite: an FTS5 trigram index over name, description and category name (rows keyed by `product_search_rows`,
 * whose integer key VACUUM never renumbers), and a vocabulary of the words of names and category names with its own
 * trigram index, from which a mistyped word is rewritten to the words it was meant to be. Triggers keep both current.
 *
 * PostgreSQL: pg_trgm GIN indexes on the lower-cased name and on name + description, which the database keeps
 * current itself, and the same vocabulary of words (a trigram-indexed table kept by a trigger).
 */
export function catalogSearchMigration({ dialect }: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") await upPostgres(db);
      else await upSqlite(db);
    },
    async down(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        await sql`drop trigger if exists products_search_terms on products`.execute(db);
        await sql`drop trigger if exists categories_search_terms on categories`.execute(db);
        await sql`drop function if exists search_terms_from_name()`.execute(db);
        await sql`drop function if exists search_terms_add(text)`.execute(db);
        await sql`drop table if exists search_terms`.execute(db);
        await sql`drop index if exists products_name_trgm`.execute(db);
        await sql`drop index if exists products_document_trgm`.execute(db);
        return;
      }
      for (const trigger of [
        "products_search_insert",
        "products_search_update",
        "products_search_delete",
        "categories_search_insert",
        "categories_search_update",
        "search_terms_index",
      ]) {
        await sql`drop trigger if exists ${sql.ref(trigger)}`.execute(db);
      }
      for (const table of ["product_search", "product_search_rows", "search_term_trigrams", "search_terms"]) {
        await sql`drop table if exists ${sql.ref(table)}`.execute(db);
      }
    },
  };
}

async function upPostgres(db: Kysely<unknown>) {
  const installed = await sql<{ n: number }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (installed.rows[0]?.n === 0) {
    // In pg_catalog its functions and operators are found whatever the search_path (every test file has its own
    // schema; an operator's schema may change). Only a superuser may write there; pg_trgm is a trusted extension,
    // so a database owner installs it into the current schema instead.
    const superuser = await sql<{ on: string }>`select current_setting('is_superuser') as on`.execute(db);
    if (superuser.rows[0]?.on === "on") await sql`create extension pg_trgm schema pg_catalog`.execute(db);
    else await sql`create extension pg_trgm`.execute(db);
  }
  await sql`create index products_name_trgm on products using gin (lower(name) gin_trgm_ops)`.execute(db);
  // One document per product, so that every word of a search is one indexed condition (ANDed in one bitmap).
  await sql`create index products_document_trgm on products using gin (lower(name || ' ' || description) gin_trgm_ops)`.execute(db);
  // The vocabulary a mistyped word is rewritten from (see the SQLite side), with its own trigram index.
  await sql`create table search_terms (term text primary key)`.execute(db);
  await sql`create index search_terms_trgm on search_terms using gin (term gin_trgm_ops)`.execute(db);
  await sql`create function search_terms_add(text) returns void language sql as $$
    insert into search_terms (term)
    select distinct w from regexp_split_to_table(lower($1), '[^[:alnum:]'']+') as w where length(w) >= 3
    on conflict do nothing
  $$`.execute(db);
  await sql`create function search_terms_from_name() returns trigger language plpgsql as $$
    begin
      perform search_terms_add(new.name);
      return new;
    end
  $$`.execute(db);
  await sql`create trigger products_search_terms after insert or update of name on products
    for each row execute function search_terms_from_name()`.execute(db);
  await sql`create trigger categories_search_terms after insert or update of name on categories
    for each row execute function search_terms_from_name()`.execute(db);
  await sql`select search_terms_add(name) from (select name from products union all select name from categories) t`.execute(db);
}

/**
 * The words of a text for the vocabulary, as SQL over `text` (trigger bodies allow no WITH, so the split is done by
 * turning the text into a JSON array). Words shorter than 3 letters have no trigram and are left out.
 */
export function wordsOf(text: string, from = "") {
  const lowered = `replace(replace(replace(replace(lower(${text}), '\\', ' '), '"', ' '), '-', ' '), ',', ' ')`;
  return `select trim(value, '.:;!?()''') from ${from}json_each('["' || replace(${lowered}, ' ', '","') || '"]') where length(trim(value, '.:;!?()''')) >= 3`;
}

const CATEGORY_NAME = "(select name from categories where id = new.category_id)";
const SEARCH_ROW = (alias: "new" | "old") => `(select id from product_search_rows where product_id = ${alias}.id)`;

async function upSqlite(db: Kysely<unknown>) {
  const run = (statement: string) => sql.raw(statement).execute(db);
  await run(`create table product_search_rows (id integer primary key, product_id text not null unique)`);
  await run(
    `create virtual table product_search using fts5(name, description, category_name, tokenize = 'trigram remove_diacritics 1')`,
  );
  await run(`create table search_terms (id integer primary key, term text not null unique)`);
  // Padded with a space each side, so a word's first and last letters make trigrams of their own: ' plnt ' and
  // ' plant ' share ' pl' and 'nt ', where the bare words share none.
  await run(`create virtual table search_term_trigrams using fts5(padded, content = '', tokenize = 'trigram')`);

  await run(`create trigger search_terms_index after insert on search_terms begin
    insert into search_term_trigrams (rowid, padded) values (new.id, ' ' || new.term || ' ');
  end`);
  await run(`create trigger products_search_insert after insert on products begin
    insert into product_search_rows (product_id) values (new.id);
    insert into product_search (rowid, name, description, category_name)
      values (${SEARCH_ROW("new")}, new.name, new.description, ${CATEGORY_NAME});
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);
  await run(`create trigger products_search_update after update of name, description, category_id on products begin
    update product_search set name = new.name, description = new.description, category_name = ${CATEGORY_NAME}
      where rowid = ${SEARCH_ROW("old")};
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);
  await run(`create trigger products_search_delete after delete on products begin
    delete from product_search where rowid = ${SEARCH_ROW("old")};
    delete from product_search_rows where product_id = old.id;
  end`);
  await run(`create trigger categories_search_insert after insert on categories begin
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);
  await run(`create trigger categories_search_update after update of name on categories begin
    update product_search set category_name = new.name
      where rowid in (select r.id from product_search_rows r join products p on p.id = r.product_id where p.category_id = new.id);
    insert or ignore into search_terms (term) ${wordsOf("new.name")};
  end`);

  // The catalogue the shop already has.
  await run(`insert into product_search_rows (product_id) select id from products order by created_at, id`);
  await run(`insert into product_search (rowid, name, description, category_name)
    select r.id, p.name, p.description, c.name
    from product_search_rows r join products p on p.id = r.product_id join categories c on c.id = p.category_id`);
  await run(
    `insert or ignore into search_terms (term) ${wordsOf("t.name", "(select name from products union all select name from categories) t, ")}`,
  );
}
