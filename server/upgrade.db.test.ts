import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../tests/support/test-database.ts";
import { TEST_ORIGIN } from "../tests/support/test-app.ts";
import { hashPassword } from "./modules/accounts/index.ts";
import { composeShop } from "./compose.ts";
import { loadConfig } from "./config.ts";
import { migrateToLatest, migrationNames } from "./migrations.ts";
import { sampleCategories, sampleProducts, seedSampleData } from "./modules/catalog/index.ts";
import { toFlag } from "./platform/db/values.ts";

// A shop's database as the previous release (migrations 0001–0003) left it, with its data, upgraded to the
// latest schema: every row it had is still there, unchanged, and today's code works with it.

const PREVIOUS_RELEASE = "0003-orders";

/** The previous release's tables and the columns it wrote (migrations 0001–0003), as that release saw them. */
const PREVIOUS_COLUMNS = {
  categories: ["id", "name", "description", "image_url", "image_width", "image_height", "created_at"],
  products: ["id", "name", "description", "price_paise", "stock", "category_id", "created_at", "updated_at"],
  product_images: ["id", "product_id", "position", "url", "width", "height"],
  contact_messages: ["id", "name", "email", "subject", "message", "client_ip", "created_at"],
  users: ["id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt", "username", "displayUsername", "role", "phone", "address", "location"],
  accounts: ["id", "accountId", "providerId", "userId", "password", "createdAt", "updatedAt"],
  cart_items: ["id", "user_id", "product_id", "quantity", "created_at"],
  orders: ["id", "user_id", "status", "subtotal_paise", "shipping_paise", "total_paise", "ship_name", "ship_phone", "ship_address", "payment_method", "idempotency_key", "created_at", "updated_at"],
  order_lines: ["id", "order_id", "position", "product_id", "name", "unit_price_paise", "quantity"],
} as const;
type PreviousTable = keyof typeof PREVIOUS_COLUMNS;
type PreviousRelease = { [T in PreviousTable]: Record<(typeof PREVIOUS_COLUMNS)[T][number], unknown> };

let database: TestDatabase;
let dataDir: string;
beforeEach(async () => {
  database = await createTestDatabase({ upTo: PREVIOUS_RELEASE });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-upgrade-"));
});
afterEach(async () => {
  await database.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

const PASSWORD = "fern-by-the-window-42";

/** What a shop running the previous release holds: its seeded catalogue (as the owner left it), a shopper, a cart, an order, a message. */
async function fillAsThePreviousRelease(db: Kysely<PreviousRelease>) {
  const at = (ms: number) => new Date(Date.parse("2026-03-01T09:00:00Z") + ms).toISOString();
  const categoryIds = new Map<string, string>();
  for (const category of sampleCategories) {
    const id = randomUUID();
    categoryIds.set(category.name, id);
    await db
      .insertInto("categories")
      .values({ id, name: category.name, description: category.description, image_url: `/illustrations/categories/${category.image}.svg`, image_width: 600, image_height: 600, created_at: at(0) })
      .execute();
  }
  const productIds = new Map<string, string>();
  for (const [index, product] of sampleProducts.entries()) {
    const id = randomUUID();
    productIds.set(product.name, id);
    await db
      .insertInto("products")
      .values({ id, name: product.name, description: product.description, price_paise: product.rupees * 100, stock: product.stock, category_id: categoryIds.get(product.category), created_at: at(index), updated_at: at(index) })
      .execute();
    await db
      .insertInto("product_images")
      .values([1, 2].map((view, position) => ({ id: randomUUID(), product_id: id, position, url: `/illustrations/products/${product.slug}-${view}.svg`, width: 800, height: 800 })))
      .execute();
  }
  // The owner's changes: one sample deleted, one renamed.
  await db.deleteFrom("products").where("name", "=", "Aloe Vera").execute();
  await db.updateTable("products").set({ name: "Sansevieria" }).where("name", "=", "Snake Plant").execute();

  const userId = randomUUID();
  await db
    .insertInto("users")
    .values({ id: userId, name: "Meera Iyer", email: "meera@example.com", emailVerified: toFlag(database.dialect, true), image: null, createdAt: at(100), updatedAt: at(100), username: "meera_i", displayUsername: "meera_i", role: "user", phone: "+91 98450 12345", address: "14 Lalbagh Road, Bengaluru", location: "Bengaluru" })
    .execute();
  await db
    .insertInto("accounts")
    .values({ id: randomUUID(), accountId: userId, providerId: "credential", userId, password: await hashPassword(PASSWORD), createdAt: at(100), updatedAt: at(100) })
    .execute();
  const rose = productIds.get("Rose Plant")!;
  await db.insertInto("cart_items").values({ id: randomUUID(), user_id: userId, product_id: productIds.get("Jasmine Plant"), quantity: 2, created_at: at(200) }).execute();
  const orderId = randomUUID();
  await db
    .insertInto("orders")
    .values({ id: orderId, user_id: userId, status: "pending", subtotal_paise: 240_000, shipping_paise: 2000, total_paise: 242_000, ship_name: "Meera Iyer", ship_phone: "+91 98450 12345", ship_address: "14 Lalbagh Road, Bengaluru", payment_method: "Cash on Delivery", idempotency_key: randomUUID(), created_at: at(300), updated_at: at(300) })
    .execute();
  await db.insertInto("order_lines").values({ id: randomUUID(), order_id: orderId, position: 0, product_id: rose, name: "Rose Plant", unit_price_paise: 120_000, quantity: 2 }).execute();
  await db
    .insertInto("contact_messages")
    .values({ id: randomUUID(), name: "Ravi", email: "ravi@example.com", subject: "Delivery", message: "Do you deliver to Pune?", client_ip: "203.0.113.5", created_at: at(400) })
    .execute();
  return { userId, orderId };
}

/** Every row of the previous release's tables, in its columns, in a fixed order. */
async function snapshot(db: Kysely<PreviousRelease>) {
  const tables: Partial<Record<PreviousTable, unknown[]>> = {};
  for (const table of Object.keys(PREVIOUS_COLUMNS) as PreviousTable[]) {
    tables[table] = await db.selectFrom(table).select([...PREVIOUS_COLUMNS[table]] as never[]).orderBy("id" as never).execute();
  }
  return tables;
}

describe(`upgrading a database from the previous release (${PREVIOUS_RELEASE})`, () => {
  it("applies every later migration and keeps every row as it was", async () => {
    const previous = database.db as unknown as Kysely<PreviousRelease>;
    await fillAsThePreviousRelease(previous);
    const before = await snapshot(previous);
    expect(before.products).toHaveLength(9);

    const applied = await migrateToLatest(database);
    expect(applied).toEqual(migrationNames.filter((name) => name > PREVIOUS_RELEASE));
    expect(applied).toContain("0007-seeding-record");

    expect(await snapshot(previous)).toEqual(before);
  });

  it("leaves a shop that works: the catalogue as the owner left it, the shopper signs in, their cart and order are there", async () => {
    const { userId, orderId } = await fillAsThePreviousRelease(database.db as unknown as Kysely<PreviousRelease>);
    await migrateToLatest(database);

    // Seeded before seeding was recorded: counts as seeded, so the deleted and renamed samples stay that way.
    expect(await seedSampleData(database)).toMatchObject({ outcome: "kept-existing-catalogue", productsCreated: 0 });
    const names = (await database.db.selectFrom("products").select("name").execute()).map((p) => p.name).sort();
    expect(names).toHaveLength(9);
    expect(names).toContain("Sansevieria");
    expect(names).not.toContain("Aloe Vera");

    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: TEST_ORIGIN });
    const { services, closeMail, closeChanges } = await composeShop(config, database, pino({ level: "silent" }));
    try {
      const signedIn = await services.accounts.signIn({ email: "meera@example.com", password: PASSWORD }, { clientIp: "203.0.113.8", sessionCredential: null, userAgent: null });
      expect(signedIn.session.kind).toBe("issued");

      const meera = { id: userId, name: "Meera Iyer", email: "meera@example.com", username: "meera_i", image: null, emailVerified: true, isAdmin: false };
      const cart = await services.cart.getCart(meera);
      expect(cart).toMatchObject({ itemCount: 2, subtotalPaise: 200_000, canCheckOut: true });
      const order = await services.orders.getOrder(meera, orderId);
      expect(order).toMatchObject({ status: "pending", totalPaise: 242_000, canCancel: true });
      expect(order.lines).toMatchObject([{ name: "Rose Plant", quantity: 2, unitPricePaise: 120_000 }]);
      const placed = await services.orders.placeOrder(meera, { name: "Meera Iyer", phone: "+91 98450 12345", address: "14 Lalbagh Road, Bengaluru", pin: "560004", idempotencyKey: randomUUID() });
      expect(placed).toMatchObject({ totalPaise: 202_000 });
    } finally {
      await closeMail(5_000);
      // On PostgreSQL the change feed and the upload locks each hold a connection of their own.
      await closeChanges();
    }
  });

  it("carries the catalogue, the cart and the order into sizes: each plant its one unlabelled size at its price and stock, the cart line and the order line holding it, a cancellation giving the order's units back to it", async () => {
    const { userId, orderId } = await fillAsThePreviousRelease(database.db as unknown as Kysely<PreviousRelease>);
    const before = await database.db.selectFrom("products").select(["id", "price_paise", "stock"]).orderBy("id").execute();
    await migrateToLatest(database);

    const sizes = await database.db.selectFrom("product_variants").select(["id", "product_id", "position", "label", "price_paise", "stock"]).orderBy("id").execute();
    expect(sizes).toEqual(before.map((p) => ({ id: p.id, product_id: p.id, position: 0, label: "", price_paise: p.price_paise, stock: p.stock })));
    const products = await database.db.selectFrom("products").select(["id", "price_paise", "stock", "max_price_paise"]).orderBy("id").execute();
    expect(products).toEqual(before.map((p) => ({ ...p, max_price_paise: null })));

    const cartLine = await database.db.selectFrom("cart_items").select(["product_id", "variant_id"]).where("user_id", "=", userId).executeTakeFirstOrThrow();
    expect(cartLine.variant_id).toBe(cartLine.product_id);
    const orderLine = await database.db.selectFrom("order_lines").select(["product_id", "variant_id", "variant_label", "sku"]).where("order_id", "=", orderId).executeTakeFirstOrThrow();
    expect(orderLine).toEqual({ product_id: orderLine.product_id, variant_id: orderLine.product_id, variant_label: null, sku: null });

    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: TEST_ORIGIN });
    const { services, closeMail, closeChanges } = await composeShop(config, database, pino({ level: "silent" }));
    try {
      const meera = { id: userId, name: "Meera Iyer", email: "meera@example.com", username: "meera_i", image: null, emailVerified: true, isAdmin: false };
      const rose = orderLine.product_id!;
      const roseStock = (await database.db.selectFrom("product_variants").select("stock").where("id", "=", rose).executeTakeFirstOrThrow()).stock;
      await services.orders.cancelOrder(meera, orderId);
      expect((await database.db.selectFrom("product_variants").select("stock").where("id", "=", rose).executeTakeFirstOrThrow()).stock).toBe(roseStock + 2);
      expect((await database.db.selectFrom("products").select("stock").where("id", "=", rose).executeTakeFirstOrThrow()).stock).toBe(roseStock + 2);
      // The cart's line is one line of one size: adding the plant again adds to it.
      await services.cart.addToCart(meera, { productId: cartLine.product_id! });
      expect((await services.cart.getCart(meera)).lines).toMatchObject([{ productId: cartLine.product_id, variantId: cartLine.product_id, variantLabel: null, quantity: 3 }]);
    } finally {
      await closeMail(5_000);
      // On PostgreSQL the change feed and the upload locks each hold a connection of their own.
      await closeChanges();
    }
  });
});
