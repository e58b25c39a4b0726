import { sql, type Kysely, type RawBuilder } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { plannedPerRun } from "../../../platform/db/pg-statements.ts";
import { candidateOf, listKeyColumns, listKeysOf, type Candidate, type ListKeys, type SearchIndex } from "./ranked-search.ts";

/**
 * PostgreSQL: pg_trgm. Each group of words is one `LIKE any(array['%word%', '%variant%'])`, answered by a GIN trigram
 * index of migration 0012: on `lower(name)` for the name pass, on `lower(name || ' ' || description)` otherwise (the
 * groups' conditions ANDed in one bitmap), or through the category's name. Each read stops at the cap; nothing is
 * ranked or joined here beyond the categories of the rows read (ranking is ranked-search.ts's, in the process), so
 * the planner has no row estimate to get wrong: the earlier single query, ranked and joined in SQL, was planned
 * with a hash join over every product (0.3–0.6 s at 100,000 products). Each is planned for its own words
 * (plannedPerRun): how many rows a pattern matches is what the plan turns on.
 */
export function createPostgresSearchIndex(db: Kysely<DB>): SearchIndex {
  async function read(from: RawBuilder<unknown>, withKeys: boolean): Promise<Candidate[]> {
    const rows = await sql<MatchRow & { categoryName: string }>`
      ${plannedPerRun} select p.id, p.name, c.name as "categoryName", ${createdAtText("p.")} as created_at${listKeyColumns(withKeys, "p.")}
      from (${from}) p join categories c on c.id = p.category_id`.execute(db);
    return rows.rows.map((row) => candidateOf(row, row.categoryName, row.created_at, withKeys));
  }

  /**
   * The conditions of a match in any field: in the name and description together, or (for the few categories whose
   * name has a word of the search) in the category's products, each checked for the other words.
   */
  async function anyField(groups: string[][]): Promise<{ inDocument: RawBuilder<unknown>; inCategory?: RawBuilder<unknown> }> {
    const document = sql`lower(name || ' ' || description)`;
    const inDocument = everyGroup(groups, document);
    const categories = await sql<{ id: string; name: string }>`
      ${plannedPerRun} select id, lower(name) as name from categories where lower(name) like any(${patterns(groups.flat())})`.execute(db);
    if (categories.rows.length === 0) return { inDocument };
    const ids = categories.rows.map((c) => c.id);
    const perGroup = sql.join(
      groups.map((group) => {
        const named = ids.filter((_, i) => group.some((word) => categories.rows[i]!.name.includes(word)));
        const inCategory = named.length > 0 ? sql`category_id in (${sql.join(named)})` : sql`false`;
        return sql`(${inCategory} or ${document} like any(${patterns(group)}))`;
      }),
      sql` and `,
    );
    return { inDocument, inCategory: sql`category_id in (${sql.join(ids)}) and ${perGroup}` };
  }
  return {
    async byName(groups, cap, withKeys) {
      // Every group is in the name, so ranking needs no category: no join for the planner to misjudge.
      const rows = await sql<MatchRow>`
        ${plannedPerRun} select id, name, ${createdAtText("")} as created_at${listKeyColumns(withKeys, "")} from products where ${everyGroup(groups, sql`lower(name)`)} limit ${cap}`.execute(db);
      return rows.rows.map((row) => candidateOf(row, "", row.created_at, withKeys));
    },

    async beyondNames(groups, named, limit, withKeys) {
      const { inDocument, inCategory } = await anyField(groups);
      const columns = sql`id, name, created_at, category_id${listKeyColumns(withKeys, "")}`;
      // The rows a read of every field finds first, names among them, then the name matches tested out in the
      // database, not sent. In the read's own condition, "not in the name" made the planner expect matches everywhere
      // and scan the whole table for them (27 ms at 10,000 products, where a word's matches were all names).
      const notNamed = sql`not (${everyGroup(groups, sql`lower(name)`)})`;
      const beyond = (found: RawBuilder<unknown>) => sql`select * from (select ${columns} from products where ${found} limit ${named + limit}) found where ${notNamed}`;
      const fromDocument = read(beyond(inDocument), withKeys);
      if (!inCategory) return fromDocument;
      const fromCategory = read(beyond(inCategory), withKeys);
      return [...(await fromDocument), ...(await fromCategory)];
    },
    async termsLike(word, limit) {
      const rows = await sql<{ term: string }>`
        ${plannedPerRun} select term from search_terms where term % ${word} order by similarity(term, ${word}) desc limit ${limit}`.execute(db);
      return rows.rows.map(({ term }) => term);
    },

    async byNamePrefix(prefix, cap, withKeys) {
      const rows = await sql<{ id: string } & Partial<ListKeys>>`
        ${plannedPerRun} select * from (select id, lower(name) as key${withKeys ? sql`, ${createdAtText("")} as created_at${listKeyColumns(true, "")}` : sql``} from products where lower(name) like ${`${escapeLike(prefix)}%`} limit ${cap}) hits
        order by key`.execute(db);
      return rows.rows.map((row) => (withKeys ? { id: row.id, keys: listKeysOf(row) } : { id: row.id }));
    },
  };
}

/** A match as the reads return it: the creation time as text, the list keys when asked for. */
type MatchRow = { id: string; name: string; created_at: string } & Omit<Partial<ListKeys>, "created_at">;

/**
 * A product's creation time as JavaScript writes it (`toISOString`, UTC, milliseconds), formatted by the database:
 * it is the order key of every match and one of its list keys, and the driver's parsing of 1,000 timestamps into
 * dates (twice, as order and as key), turned back into strings here, was about a seventh of a search's read of its
 * 1,000 matches with their keys (docs/performance.md).
 */
function createdAtText(qualifier: string) {
  return sql`to_char(${sql.ref(`${qualifier}created_at`)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

function everyGroup(groups: string[][], text: RawBuilder<unknown>) {
  return sql.join(
    groups.map((group) => sql`${text} like any(${patterns(group)})`),
    sql` and `,
  );
}

function patterns(words: string[]) {
  return sql`${words.map((word) => `%${escapeLike(word)}%`)}::text[]`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}
