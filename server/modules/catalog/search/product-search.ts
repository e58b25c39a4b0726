import { PostgresAdapter, type Kysely } from "kysely";
import type { DB } from "../../../platform/db/schema.ts";
import { createPostgresSearchIndex } from "./postgres-search.ts";
import { createRankedSearch, type ListKeys } from "./ranked-search.ts";
import { createSqliteSearchIndex } from "./sqlite-search.ts";

/**
 * Search ranks at most this many products, the deepest page it answers: the work of one search stays bounded however
 * many plants match a common word (docs/decisions/026-catalog-search.md; a page reads only its windows, 042).
 */
export const SEARCH_RESULT_CAP = 1000;

export interface SearchPage {
  /** Product ids, best match first. */
  ids: string[];
  /** How many matches were read to rank this page (at most SEARCH_RESULT_CAP): all of them unless totalCapped. */
  total: number;
  /** True when more than `total` matched: nothing is counted past the windows a page reads ("64+"). */
  totalCapped: boolean;
}

/**
 * Text search over the catalogue: names, descriptions and category names, name matches first, forgiving typos and
 * partial words. Each database answers with its own index (SQLite FTS5, PostgreSQL pg_trgm); nothing outside this
 * folder knows which.
 */
export interface ProductSearch {
  search(q: string, page: { limit: number; offset: number }): Promise<SearchPage>;
  /**
   * Every match up to SEARCH_RESULT_CAP, each with its list keys read in the same rows: what a search filtered or
   * ordered filters, counts and orders, with no second read of the products by id. Best first when `ranked`; a list
   * in an order of its own skips the ranking (the same matches, in the index's order).
   */
  matchesWithKeys(q: string, ranked: boolean): Promise<{ matches: { id: string; keys: ListKeys }[]; totalCapped: boolean }>;
}

export function createProductSearch(db: Kysely<DB>): ProductSearch {
  return createRankedSearch(
    db.getExecutor().adapter instanceof PostgresAdapter ? createPostgresSearchIndex(db) : createSqliteSearchIndex(db),
  );
}
