import type { Timestamp } from "../../platform/db/values.ts";

// The reviews' table as Kysely sees it, created by ./migrations and added to the database's type (DB) here, so that
// the platform names no feature.

/** Migration 0008-reviews. user_id is NULL once the author's account is gone ('Anonymous'). */
export interface ReviewTable {
  id: string;
  product_id: string;
  user_id: string | null;
  rating: number;
  text: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    reviews: ReviewTable;
  }
}
