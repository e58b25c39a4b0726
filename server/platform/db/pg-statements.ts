import { sql } from "kysely";
import type Pg from "pg";

/** How many SQL texts each PostgreSQL connection keeps prepared; the rest run as before, parsed every time. */
export const PREPARED_PER_CONNECTION = 256;

/** The mark of a statement planned for each run's values: a comment anywhere in its text (see plannedPerRun). */
const PLANNED_PER_RUN_MARK = "/* planned per run */";

/**
 * Put into a statement whose best plan depends on its values, such as a text search: at 100,000 products the
 * typo search 'bougainvilla' went from 8.6 to 23.5 ms (p50) once PostgreSQL had switched its prepared form to one
 * generic plan after five runs. A marked text is never prepared: it goes unnamed, which PostgreSQL plans for the
 * values it is bound with, every run (docs/decisions/030). Every other statement looks rows up by key and is
 * prepared, and after five runs may keep one generic plan.
 */
export const plannedPerRun = sql.raw(PLANNED_PER_RUN_MARK);

/** PostgreSQL's 'cached plan must not change result type': a table a prepared `select *` reads has changed. */
const CACHED_PLAN_CHANGED = "0A000";

type Query = (...args: unknown[]) => unknown;

/**
 * Every parameterised query becomes a named prepared statement on its connection, so PostgreSQL parses each SQL
 * text once per connection instead of on every run, and a shopper's transaction reuses its plans: about a fifth
 * less PostgreSQL CPU per checkout (docs/decisions/030). Kysely's driver sends every query unnamed, and
 * node-postgres prepares a query once per connection only when it has a name.
 *
 * Bounded: each connection names its first PREPARED_PER_CONNECTION texts and runs any later one unnamed (the pool
 * closes idle connections, so a busy server's connections soon hold its busiest texts); this process keeps those
 * texts, a few MB at most for a pool of ten. A name is never reused for another text, so node-postgres's record of
 * what it has prepared stays true. A text marked with plannedPerRun is never named.
 */
export function withPreparedStatements(pool: Pg.Pool, capacity = PREPARED_PER_CONNECTION): Pg.Pool {
  pool.on("connect", (client) => prepareOnConnection(client, capacity));
  return pool;
}

function prepareOnConnection(client: Pg.PoolClient, capacity: number) {
  const query = client.query.bind(client) as Query;
  const names = new Map<string, string>();
  let named = 0;
  const run: Query = (text, values, ...rest) => {
    // Only Kysely's form, query(text, values): node-postgres runs a query without values as a simple query anyway.
    if (typeof text !== "string" || !Array.isArray(values) || values.length === 0 || rest.length > 0) return query(text, values, ...rest);
    let name = names.get(text);
    if (name === undefined) {
      // Unnamed: a text planned per run, or any text past the bound.
      if (named >= capacity || text.includes(PLANNED_PER_RUN_MARK)) return query(text, values);
      name = `shop_${named++}`;
      names.set(text, name);
    }
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      // After a schema change (a rolling upgrade's migration, from another server copy) PostgreSQL refuses the
      // prepared form of a `select *` whose columns changed. This run fails as an unprepared one could have
      // mid-migration; the next run of the text is prepared afresh under a new name.
      if ((error as { code?: unknown }).code === CACHED_PLAN_CHANGED) names.delete(text);
      throw error;
    });
  };
  (client as unknown as { query: Query }).query = run;
}
