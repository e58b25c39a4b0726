// How a page of the owner's discount codes costs as the codes grow (docs/decisions/046: paged by key on
// coupons_created, so the cost should not grow with the count).
// Run: npx tsx bench/coupons-paging.ts [codes]   (SQLite; TEST_DB=postgres TEST_DATABASE_URL=… for PostgreSQL)
import { sql } from "kysely";
import { createShopper } from "../tests/support/shoppers.ts";
import { createTestApp } from "../tests/support/test-app.ts";

const total = Number(process.argv[2] ?? 100_000);
const app = await createTestApp();
try {
  const db = app.database.db;
  const owner = await createShopper(db, app.database.dialect, { isAdmin: true });
  const flag = app.database.dialect === "postgres" ? false : 0;
  const rows = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const n = from + i;
      return { id: `bench-${String(n).padStart(7, "0")}`, code: `BENCH${n}`, kind: "percent" as const, amount: 10, once_per_customer: flag, paused: flag, created_at: new Date(Date.UTC(2020, 0, 1) + n * 60_000).toISOString() };
    });
  // The cursor as the service writes it (the last row's created_at and id): to start a read in the middle.
  const cursorAt = (row: { created_at: string | Date; id: string }) => Buffer.from(JSON.stringify([new Date(row.created_at).toISOString(), row.id])).toString("base64url");

  async function timePages(where: "first" | "middle, next" | "middle, previous") {
    let input: Record<string, string> = {};
    if (where !== "first") {
      const count = Number((await db.selectFrom("coupons").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
      const middle = await db.selectFrom("coupons").select(["created_at", "id"]).orderBy("created_at", "desc").orderBy("id", "desc").offset(Math.floor(count / 2)).limit(1).executeTakeFirstOrThrow();
      input = where === "middle, next" ? { after: cursorAt(middle) } : { before: cursorAt(middle) };
    }
    await app.services.coupons.listCoupons(owner, input);
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await app.services.coupons.listCoupons(owner, input);
    return Number(process.hrtime.bigint() - started) / 1e6 / 200;
  }

  await db.insertInto("coupons").values(rows(0, 20)).execute();
  const results: Record<string, number> = { "20 codes, first page": await timePages("first") };
  for (let i = 20; i < total; i += 2000) await db.insertInto("coupons").values(rows(i, Math.min(2000, total - i))).execute();
  // As autovacuum would after a bulk load: the planner's statistics, so PostgreSQL plans for the table's real size.
  if (app.database.dialect === "postgres") await sql`analyze coupons`.execute(db);
  results[`${total} codes, first page`] = await timePages("first");
  results[`${total} codes, Next from the middle`] = await timePages("middle, next");
  results[`${total} codes, Previous from the middle`] = await timePages("middle, previous");
  for (const [name, ms] of Object.entries(results)) console.log(`${name.padEnd(44)} ${ms.toFixed(3)} ms per page (${app.database.dialect})`);
} finally {
  await app.cleanup();
}
