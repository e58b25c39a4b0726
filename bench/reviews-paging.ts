// How a page of reviews costs as a product's reviews grow (docs/decisions/020: paged by key, so the cost should not grow with the count).
// Run: npx tsx bench/reviews-paging.ts [reviews]   (SQLite; TEST_DB=postgres TEST_DATABASE_URL=… for PostgreSQL)
import { createProduct } from "../tests/support/factories.ts";
import { createTestApp } from "../tests/support/test-app.ts";

const total = Number(process.argv[2] ?? 100_000);
const app = await createTestApp();
try {
  const db = app.database.db;
  const small = await createProduct(db);
  const large = await createProduct(db);
  const rows = (productId: string, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const at = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      // Authorless reviews: the unique (product, author) lets many remain, so no users are needed.
      return { id: `${productId.slice(0, 8)}-${String(i).padStart(7, "0")}`, product_id: productId, user_id: null, rating: (i % 5) + 1, text: `Review ${i}`, created_at: at, updated_at: at };
    });
  await db.insertInto("reviews").values(rows(small.id, 20)).execute();
  const big = rows(large.id, total);
  for (let i = 0; i < big.length; i += 2000) await db.insertInto("reviews").values(big.slice(i, i + 2000)).execute();

  async function timePages(productId: string, deep: boolean) {
    // Walk to the middle first when asked, then time 200 page reads from there.
    let after: string | undefined;
    if (deep) {
      const middle = (await db.selectFrom("reviews").select(["created_at", "id"]).where("product_id", "=", productId).orderBy("created_at", "desc").offset(Math.floor(total / 2)).limit(1).executeTakeFirstOrThrow());
      after = `${new Date(middle.created_at).toISOString()}_${middle.id}`;
    }
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await app.services.reviews.listReviews(productId, after ? { after } : {});
    return Number(process.hrtime.bigint() - started) / 1e6 / 200;
  }
  const results = {
    "20 reviews, first page": await timePages(small.id, false),
    [`${total} reviews, first page`]: await timePages(large.id, false),
    [`${total} reviews, a page from the middle`]: await timePages(large.id, true),
  };
  for (const [name, ms] of Object.entries(results)) console.log(`${name.padEnd(40)} ${ms.toFixed(3)} ms per page (${app.database.dialect})`);
} finally {
  await app.cleanup();
}
