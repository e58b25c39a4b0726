import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { createProductSearch, type ProductSearch } from "./search/product-search.ts";

/**
 * What the shop's catalogue reads with, made once per service and handed to every operation: each operation
 * names the part it uses (a `Pick` of this), so a reader sees what it touches.
 */
export interface CatalogContext {
  db: Kysely<DB>;
  rateLimiter: RateLimiter;
  search: ProductSearch;
}

export function catalogContext(db: Kysely<DB>, { rateLimiter }: { rateLimiter: RateLimiter }): CatalogContext {
  return { db, rateLimiter, search: createProductSearch(db) };
}
