import type Pg from "pg";

/** How many SQL texts each PostgreSQL connection keeps prepared; the rest run as before, parsed every time. */
export const PREPARED_PER_CONNECTION = 256;

/**
 * Every statement planned for its own values, prepared or not (the connection's setting): PostgreSQL would
 * otherwise switch a prepared statement to one generic plan after five runs, and a generic plan can be far worse
 * for values unlike the first five — at 100,000 products a typo search went from 8.6 to 23.5 ms (p50) after other
 * searches had run. Transactions made only of lookups by key allow generic plans for themselves (ALLOW_GENERIC_PLANS).
 */
export const CUSTOM_PLANS_OPTION = "-c plan_cache_mode=force_custom_plan";

/** Said at the start of a transaction whose statements are lookups by key, which one generic plan serves well. */
export const ALLOW_GENERIC_PLANS = "set local plan_cache_mode = auto";

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
 * what it has prepared stays true.
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
      if (named >= capacity) return query(text, values);
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
