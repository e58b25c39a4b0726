import { sql, type Kysely } from "kysely";

/**
 * Each product keeps its review count and the sum of its ratings (decision 020), kept in step with every review
 * write, so a product card shows the average without aggregating per request.
 */
export function reviewTotalsMigration() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable("products")
        .addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0).check(sql`review_count >= 0`))
        .execute();
      await db.schema
        .alterTable("products")
        .addColumn("rating_total", "integer", (c) => c.notNull().defaultTo(0).check(sql`rating_total >= 0`))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable("products").dropColumn("rating_total").execute();
      await db.schema.alterTable("products").dropColumn("review_count").execute();
    },
  };
}
