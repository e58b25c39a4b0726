import { createRequire } from "node:module";
import type Pg from "pg";

const require = createRequire(import.meta.url);
let pg: typeof Pg | undefined;

/**
 * The PostgreSQL driver, loaded when a PostgreSQL database is first opened: a shop on SQLite never loads it,
 * a few MB less resident memory (docs/decisions/029-bounded-memory.md). Synchronous, as openDatabase is.
 */
export function loadPg(): typeof Pg {
  if (!pg) {
    pg = require("pg") as typeof Pg;
    // PostgreSQL returns bigint counts as strings; make them numbers as on SQLite. Timestamps stay Date objects
    // there (Better Auth relies on it); our services read them through toIsoString (../db/values.ts).
    pg.types.setTypeParser(pg.types.builtins.INT8, Number);
  }
  return pg;
}
