import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { DB } from "./schema.ts";

/** Where a run's value goes: the builder takes it as a value, and the compiled parameters keep it in its place. */
class Slot {
  constructor(readonly name: string) {}
}

/** A query of fixed shape built once per dialect, run with each call's values. */
export interface CompiledOnce<P, O> {
  execute(db: Kysely<DB>, values: P): Promise<O[]>;
  executeTakeFirst(db: Kysely<DB>, values: P): Promise<O | undefined>;
  executeTakeFirstOrThrow(db: Kysely<DB>, values: P): Promise<O>;
}

/**
 * A query that Kysely builds and compiles only once per dialect (its first run there): on every later run only the
 * values change. Kysely otherwise builds a tree of frozen nodes for every execution and walks it into SQL again, which
 * for the statements that every signed-in request or order runs was 15 % of the server's profile samples and a third or
 * more of what it allocated (docs/decisions/031).
 *
 * `build` receives stand-ins for the values, typed as the values, to put wherever the query takes a value. The query's
 * shape must not depend on them: no `$if` on a value, no list spread into `in (…)`, and no `null` the builder would
 * turn into `is null` (a stand-in is never null). The texts are the same for every run, so PostgreSQL's prepared
 * statements (pg-statements.ts) and SQLite's statement cache find them without hashing a new string each time.
 */
export function compiledOnce<P extends object, O>(build: (db: Kysely<DB>, values: P) => Compilable<O>): CompiledOnce<P, O> {
  /** By dialect (the adapter's class): the compiled query, and which value each parameter is, or null for a constant. */
  const compiled = new Map<unknown, { query: CompiledQuery<O>; slots: (keyof P | null)[] }>();
  const slots = new Proxy({}, { get: (_, name) => new Slot(String(name)) }) as P;

  function compile(db: Kysely<DB>) {
    const dialect = db.getExecutor().adapter.constructor;
    let found = compiled.get(dialect);
    if (!found) {
      const query = build(db, slots).compile();
      found = { query, slots: query.parameters.map((parameter) => (parameter instanceof Slot ? (parameter.name as keyof P) : null)) };
      compiled.set(dialect, found);
    }
    return found;
  }

  async function run(db: Kysely<DB>, values: P) {
    const { query, slots: names } = compile(db);
    const parameters = query.parameters.map((constant, i) => {
      const name = names[i];
      return name === null || name === undefined ? constant : values[name];
    });
    return { rows: (await db.executeQuery<O>({ ...query, parameters })).rows, query };
  }

  return {
    async execute(db, values) {
      return (await run(db, values)).rows;
    },
    async executeTakeFirst(db, values) {
      return (await run(db, values)).rows[0];
    },
    async executeTakeFirstOrThrow(db, values) {
      const { rows, query } = await run(db, values);
      if (rows[0] === undefined) throw new Error(`no row: ${query.sql}`);
      return rows[0];
    },
  };
}
