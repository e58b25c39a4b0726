import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, migrateToLatest, type TestDatabase } from "../../../../tests/support/test-database.ts";

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.cleanup();
});

describe("migration 0011-admin-overview", () => {
  it("counts the orders placed before it on their day in Kolkata, cancelled ones outside the revenue", async () => {
    database = await createTestDatabase({ upTo: "0007-seeding-record" });
    const { db } = database;
    const at = "2030-01-01T00:00:00.000Z";
    await db.insertInto("users").values({ id: "u1", name: "Asha", email: "asha@example.com", emailVerified: 1, createdAt: at, updatedAt: at }).execute();
    const order = (id: string, createdAt: string, status: "pending" | "cancelled", totalPaise: number) => ({
      id,
      user_id: "u1",
      status,
      subtotal_paise: totalPaise - 2000,
      shipping_paise: 2000,
      total_paise: totalPaise,
      ship_name: "Asha",
      ship_phone: "+91 98765 43210",
      ship_address: "Pune",
      payment_method: "Cash on Delivery",
      idempotency_key: id,
      created_at: createdAt,
      updated_at: createdAt,
    });
    await db
      .insertInto("orders")
      .values([
        order("morning", "2030-01-01T10:00:00.000Z", "pending", 10_000), // 15:30 in Kolkata: 1 January
        order("evening", "2030-01-01T19:00:00.000Z", "pending", 20_000), // 00:30 in Kolkata: 2 January
        order("cancelled", "2030-01-01T19:30:00.000Z", "cancelled", 40_000),
      ])
      .execute();

    await migrateToLatest(database!);

    const totals = await db.selectFrom("order_daily_totals").selectAll().orderBy("day").execute();
    expect(totals.map((t) => ({ ...t, orders_placed: Number(t.orders_placed), orders_cancelled: Number(t.orders_cancelled), revenue_paise: Number(t.revenue_paise) }))).toEqual([
      { day: "2030-01-01", orders_placed: 1, orders_cancelled: 0, revenue_paise: 10_000 },
      { day: "2030-01-02", orders_placed: 2, orders_cancelled: 1, revenue_paise: 20_000 },
    ]);
    const countedOn = await db.selectFrom("orders").select(["id", "counted_on"]).orderBy("id").execute();
    expect(countedOn).toEqual([
      { id: "cancelled", counted_on: "2030-01-02" },
      { id: "evening", counted_on: "2030-01-02" },
      { id: "morning", counted_on: "2030-01-01" },
    ]);
  });
});
