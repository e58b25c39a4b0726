// How the overview and the inbox behave at scale (docs/decisions/024): 100,000 products, 100,000 messages
// (half unhandled) and 1,000 days of order totals, on a fresh SQLite database. Prints the median time of each
// call and SQLite's query plans, which show the indexes that keep the work independent of those numbers.
// Run: npx tsx bench/admin-overview-scale.ts
import { sql } from "kysely";
import { createTestDatabase } from "../tests/support/test-database.ts";
import { createContactService, countUnhandledMessages } from "../server/modules/contact/index.ts";
import { createOverviewService } from "../server/modules/overview/index.ts";
import { createRateLimiter } from "../server/platform/rate-limit/rate-limit.ts";
import { createMailOutbox } from "../server/platform/mail/mail-outbox.ts";
import { createSealer } from "../server/platform/sealed-values.ts";
import { addDays } from "../server/platform/shop-day.ts";
import { median } from "./statistics.ts";

const database = await createTestDatabase();
const { db } = database;
const admin = { id: "admin", name: "A", email: "a@example.com", username: "a", image: null, emailVerified: true, isAdmin: true };
const at = (i: number) => new Date(Date.parse("2024-01-01T00:00:00Z") + i * 60_000).toISOString();

await db.insertInto("categories").values({ id: "c", name: "C", description: "d", image_url: "/x.svg", image_width: 1, image_height: 1, created_at: at(0) }).execute();
for (let start = 0; start < 100_000; start += 1_000) {
  const stockOf = (i: number) => 6 + (i % 500);
  await db
    .insertInto("products")
    .values(Array.from({ length: 1_000 }, (_, k) => ({ id: `p${start + k}`, name: `P${start + k}`, description: "d", price_paise: 100, stock: stockOf(start + k), category_id: "c", created_at: at(start + k), updated_at: at(start + k) })))
    .execute();
  // Each product's only size, under its id as a migrated product's: the size holds the stock, the product its total.
  await db
    .insertInto("product_variants")
    .values(Array.from({ length: 1_000 }, (_, k) => ({ id: `p${start + k}`, product_id: `p${start + k}`, position: 0, label: "", sku: `SKU-p${start + k}`, price_paise: 100, compare_at_paise: null, stock: stockOf(start + k), created_at: at(start + k), updated_at: at(start + k) })))
    .execute();
  await db
    .insertInto("contact_messages")
    .values(Array.from({ length: 1_000 }, (_, k) => ({ id: `m${start + k}`, name: "N", email: "n@example.com", subject: "S", message: "M", client_ip: null, created_at: at(start + k), handled_at: (start + k) % 2 ? at(start + k) : null })))
    .execute();
}
for (const table of ["products", "product_variants"] as const) await db.updateTable(table).set({ stock: 2 }).where("id", "in", ["p1", "p2", "p3"]).execute();
const today = new Date().toISOString().slice(0, 10);
await db.insertInto("order_daily_totals").values(Array.from({ length: 1_000 }, (_, i) => ({ day: addDays(today, -i), orders_placed: 50, orders_cancelled: 1, revenue_paise: 5_000_000 }))).execute();
await sql`analyze`.execute(db);

const contact = createContactService(database, createRateLimiter(db), { outbox: createMailOutbox(createSealer("x".repeat(40))), shopName: "S", contactEmail: undefined });
const overview = createOverviewService({ database, timeZone: "Asia/Kolkata" });

async function timeMedian(label: string, run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  console.log(`${label}: median ${median(times).toFixed(2)} ms`);
}
await timeMedian("getOverview", () => overview.getOverview(admin));
const firstUnhandled = await contact.listMessages(admin, { filter: "unhandled" });
await timeMedian("listMessages unhandled, page 2", () => contact.listMessages(admin, { filter: "unhandled", cursor: firstUnhandled.nextCursor }));
await timeMedian("listMessages all, page 1", () => contact.listMessages(admin, {}));
await timeMedian("countUnhandledMessages (cap 100)", () => countUnhandledMessages(db, 100));

const plan = async (query: string) => (await sql.raw(`explain query plan ${query}`).execute(db)).rows.map((r) => (r as { detail: string }).detail).join(" | ");
console.log("low stock:", await plan("select id, name, stock from products where stock <= 5 order by stock, id limit 11"));
console.log("unhandled page:", await plan("select * from contact_messages where handled_at is null and (created_at < '2024-02-01' or (created_at = '2024-02-01' and id < 'm5')) order by created_at desc, id desc limit 21"));
console.log("unhandled count:", await plan("select count(*) from (select id from contact_messages where handled_at is null limit 100)"));
console.log("daily totals:", await plan(`select * from order_daily_totals where day >= '2026-10-01' and day <= '2026-10-30' order by day`));
await database.cleanup();
