import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestDatabase, type TestDatabase } from "../tests/support/test-database.ts";
import { createProduct, createCategory } from "../tests/support/factories.ts";
import { migrateToLatest } from "./migrations.ts";

// The sizes migration rebuilds both carts' line tables on SQLite (it cannot drop a unique constraint) and swaps the
// constraint in place on PostgreSQL: the lines survive, each holding its product's one size, and a cart may then hold
// two sizes of one plant, but not one size twice.

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase({ upTo: "0022-sale-prices" });
});
afterEach(async () => {
  await database.cleanup();
});

const at = "2030-01-01T00:00:00.000Z";

describe("carts carried into sizes", () => {
  it("keeps every account's and visitor's cart line, holding its product's size, and allows one line per size afterwards", async () => {
    const db = database.db;
    const category = await createCategory(db);
    const productId = randomUUID();
    // As the release before sizes wrote a product: no variant row.
    await sql`insert into products (id, name, description, price_paise, stock, category_id, created_at, updated_at)
      values (${productId}, 'Old fern', 'A fern', 50000, 7, ${category.id}, ${at}, ${at})`.execute(db);
    const userId = randomUUID();
    await sql`insert into users (id, name, email, "emailVerified", "createdAt", "updatedAt", role) values (${userId}, 'Asha', ${`asha-${userId}@example.com`}, ${database.dialect === "postgres" ? sql`true` : sql`1`}, ${at}, ${at}, 'user')`.execute(db);
    await sql`insert into cart_items (id, user_id, product_id, quantity, created_at) values ('line-1', ${userId}, ${productId}, 2, ${at})`.execute(db);
    await sql`insert into visitor_carts (id, token_hash, created_at, used_at) values ('cart-1', 'hash-1', ${at}, ${at})`.execute(db);
    await sql`insert into visitor_cart_items (id, cart_id, product_id, quantity, created_at) values ('vline-1', 'cart-1', ${productId}, 3, ${at})`.execute(db);

    await migrateToLatest(database);

    expect(await db.selectFrom("cart_items").select(["id", "product_id", "variant_id", "quantity"]).execute()).toEqual([{ id: "line-1", product_id: productId, variant_id: productId, quantity: 2 }]);
    expect(await db.selectFrom("visitor_cart_items").select(["id", "product_id", "variant_id", "quantity"]).execute()).toEqual([{ id: "vline-1", product_id: productId, variant_id: productId, quantity: 3 }]);

    const other = await createProduct(db);
    await db.insertInto("product_variants").values({ id: "size-2", product_id: productId, position: 1, label: "Large", sku: "OLD-FERN-L", price_paise: 90_000, stock: 2, created_at: at, updated_at: at }).execute();
    await db.insertInto("cart_items").values({ id: "line-2", user_id: userId, product_id: productId, variant_id: "size-2", quantity: 1, created_at: at }).execute();
    await db.insertInto("visitor_cart_items").values({ id: "vline-2", cart_id: "cart-1", product_id: productId, variant_id: "size-2", quantity: 1, created_at: at }).execute();
    await expect(db.insertInto("cart_items").values({ id: "line-3", user_id: userId, product_id: productId, variant_id: "size-2", quantity: 1, created_at: at }).execute()).rejects.toThrow(/unique/i);
    await expect(db.insertInto("visitor_cart_items").values({ id: "vline-3", cart_id: "cart-1", product_id: productId, variant_id: "size-2", quantity: 1, created_at: at }).execute()).rejects.toThrow(/unique/i);
    // The foreign keys hold after the rebuild: a line of a size that does not exist is refused.
    await expect(db.insertInto("cart_items").values({ id: "line-4", user_id: userId, product_id: other.id, variant_id: "no-such-size", quantity: 1, created_at: at }).execute()).rejects.toThrow(/foreign/i);
  });
});
