import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import type { Change } from "../../platform/change-feed/change-feed.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const shopper = (name = "Asha Kulkarni", isAdmin = false) => createShopper(app.database.db, app.database.dialect, { name, isAdmin });
const figures = async (productId: string) =>
  app.database.db.selectFrom("products").select(["review_count", "rating_total"]).where("id", "=", productId).executeTakeFirstOrThrow();
const reviews = () => app.services.reviews;

describe("writing reviews", () => {
  it("keeps one review per shopper per product: writing again replaces it, and the product's figures follow every write", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper("Asha Kulkarni");
    const ravi = await shopper("Ravi Menon");

    const first = await reviews().saveMyReview(asha, plant.id, { text: "  Lovely fern  ", rating: "4" });
    expect(first.created).toBe(true);
    expect(first.review).toMatchObject({ text: "Lovely fern", rating: 4, authorName: "Asha Kulkarni", authorId: asha.id });
    await reviews().saveMyReview(ravi, plant.id, { text: "Fine", rating: 3 });
    expect(await figures(plant.id)).toEqual({ review_count: 2, rating_total: 7 });

    const again = await reviews().saveMyReview(asha, plant.id, { text: "Even better now", rating: 5 });
    expect(again.created).toBe(false);
    expect(again.review).toMatchObject({ id: first.review.id, text: "Even better now", rating: 5, createdAt: first.review.createdAt });
    expect(await figures(plant.id)).toEqual({ review_count: 2, rating_total: 8 });
    const product = await app.services.catalog.getProduct({ productId: plant.id });
    expect(product).toMatchObject({ reviewCount: 2, averageRating: 4 });

    await reviews().deleteMyReview(asha, plant.id);
    expect(await figures(plant.id)).toEqual({ review_count: 1, rating_total: 3 });
    expect((await reviews().listReviews(plant.id, {})).items.map((review) => review.text)).toEqual(["Fine"]);
  });

  it("refuses missing, empty, zero, out-of-range and non-number input with 'Failed to add review: Please provide a review and a rating.', and a visitor with 401", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper();
    for (const input of [{}, { text: "   ", rating: 3 }, { text: "Nice", rating: 0 }, { text: "Nice" }, { text: "Nice", rating: 6 }, { text: "Nice", rating: 2.5 }, { text: "Nice", rating: true }, { text: "Nice", rating: [5] }, { text: "Nice", rating: "" }]) {
      await expect(reviews().saveMyReview(asha, plant.id, input)).rejects.toMatchObject({
        status: 400,
        message: `${messages.reviews.addPrefix} ${messages.reviews.incomplete}`,
      });
    }
    await expect(reviews().saveMyReview(asha, plant.id, { text: "x".repeat(2001), rating: 3 })).rejects.toMatchObject({
      status: 400,
      message: `${messages.reviews.addPrefix} ${messages.reviews.textTooLong(2000)}`,
    });
    await expect(reviews().saveMyReview(null, plant.id, { text: "Nice", rating: 3 })).rejects.toMatchObject({ status: 401 });
    await expect(reviews().saveMyReview(asha, "no-such-product", { text: "Nice", rating: 3 })).rejects.toMatchObject({
      status: 404,
      message: `${messages.reviews.addPrefix} ${messages.product.notFound}`,
    });
    expect(await figures(plant.id)).toEqual({ review_count: 0, rating_total: 0 });
    const longest = await reviews().saveMyReview(asha, plant.id, { text: "y".repeat(2000), rating: 1 });
    expect(longest.review.text).toHaveLength(2000);
  });

  it("lets authors delete their own and admins any, and refuses everyone else", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper("Asha");
    const ravi = await shopper("Ravi");
    const admin = await shopper("Admin", true);
    const { review } = await reviews().saveMyReview(asha, plant.id, { text: "Mine", rating: 5 });

    await expect(reviews().deleteReview(ravi, plant.id, review.id)).rejects.toMatchObject({
      status: 403,
      message: `${messages.reviews.deletePrefix} ${messages.reviews.notYours}`,
    });
    await expect(reviews().deleteMyReview(ravi, plant.id)).rejects.toMatchObject({ status: 404 });
    await expect(reviews().deleteReview(null, plant.id, review.id)).rejects.toMatchObject({ status: 401 });
    expect(await figures(plant.id)).toEqual({ review_count: 1, rating_total: 5 });

    await reviews().deleteReview(admin, plant.id, review.id);
    expect(await figures(plant.id)).toEqual({ review_count: 0, rating_total: 0 });
    const { review: again } = await reviews().saveMyReview(asha, plant.id, { text: "Again", rating: 2 });
    await reviews().deleteReview(asha, plant.id, again.id);
    expect((await reviews().listReviews(plant.id, {})).items).toEqual([]);
  });

  it("announces each write on the change feed once it is committed, and nothing for a refused one", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper();
    const heard: Change[] = [];
    const stop = app.infrastructure.changes.subscribe((change) => heard.push(change));
    await reviews().saveMyReview(asha, plant.id, { text: "Nice", rating: 4 });
    await expect(reviews().deleteReview(await shopper("Ravi"), plant.id, "no-such-review")).rejects.toMatchObject({ status: 404 });
    await reviews().deleteMyReview(asha, plant.id);
    stop();
    const change: Change = { type: "product", productId: plant.id, aspects: ["reviews"] };
    expect(heard).toEqual([change, change]);
  });

  it("keeps the count right when one shopper writes many times at once", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => reviews().saveMyReview(asha, plant.id, { text: `Take ${i}`, rating: (i % 5) + 1 })));
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const [only] = (await reviews().listReviews(plant.id, {})).items;
    expect(await figures(plant.id)).toEqual({ review_count: 1, rating_total: only!.rating });
  });
});

describe("reading reviews", () => {
  it("knows whether a shopper has reviewed a product: only their own review of that product counts, and not after its deletion", async () => {
    const [fern, palm] = [await createProduct(app.database.db), await createProduct(app.database.db)];
    const asha = await shopper("Asha Kulkarni");
    const ravi = await shopper("Ravi Menon");
    await reviews().saveMyReview(asha, fern.id, { text: "Lovely fern", rating: 4 });
    expect(await reviews().hasReviewed(asha, fern.id)).toBe(true);
    expect(await reviews().hasReviewed(asha, palm.id)).toBe(false);
    expect(await reviews().hasReviewed(ravi, fern.id)).toBe(false);
    expect(await reviews().hasReviewed(null, fern.id)).toBe(false);
    expect(await reviews().hasReviewed(asha, "not-a-product-id")).toBe(false);
    await reviews().deleteMyReview(asha, fern.id);
    expect(await reviews().hasReviewed(asha, fern.id)).toBe(false);
  });

  it("shows a review as by 'Anonymous' once its author's account is deleted, and keeps it in the figures", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper("Asha Kulkarni");
    await reviews().saveMyReview(asha, plant.id, { text: "Still here", rating: 4 });
    await app.database.db.deleteFrom("users").where("id", "=", asha.id).execute();

    const [review] = (await reviews().listReviews(plant.id, {})).items;
    expect(review).toMatchObject({ text: "Still here", authorName: "Anonymous", authorId: null });
    expect(await figures(plant.id)).toEqual({ review_count: 1, rating_total: 4 });
  });

  it("pages newest first by key, each page after the last one shown, until there are no more", async () => {
    const plant = await createProduct(app.database.db);
    const authors = await Promise.all(Array.from({ length: 5 }, (_, i) => shopper(`Shopper ${i}`)));
    for (const [i, author] of authors.entries()) await reviews().saveMyReview(author, plant.id, { text: `Review ${i}`, rating: 3 });
    // Each review a minute after the one before (written in one millisecond they would tie), then two of them
    // on the same instant: those still come in a fixed order, by id.
    for (let i = 0; i < 5; i++) {
      await app.database.db.updateTable("reviews").set({ created_at: new Date(Date.UTC(2030, 0, 1, 0, i)).toISOString() }).where("text", "=", `Review ${i}`).execute();
    }
    await app.database.db.updateTable("reviews").set({ created_at: "2031-01-01T00:00:00.000Z" }).where("text", "in", ["Review 1", "Review 2"]).execute();

    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await reviews().listReviews(plant.id, { limit: "2", ...(after ? { after } : {}) });
      seen.push(...page.items.map((review) => review.text));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen.slice(0, 2).sort()).toEqual(["Review 1", "Review 2"]);
    expect(seen.slice(2)).toEqual(["Review 4", "Review 3", "Review 0"]);
  });

  it("answers a malformed page key or an unknown product with the fetch prefix", async () => {
    const plant = await createProduct(app.database.db);
    for (const after of ["2030-02-30T00:00:00.000Z_abc", "2030-01-01T00:00:00Z_abc"]) {
      await expect(reviews().listReviews(plant.id, { after })).rejects.toMatchObject({ status: 400 });
    }
    await expect(reviews().listReviews(plant.id, { after: "garbage" })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^Failed to fetch reviews: /) });
    await expect(reviews().listReviews("missing", {})).rejects.toMatchObject({
      status: 404,
      message: `${messages.reviews.fetchPrefix} ${messages.product.notFound}`,
    });
  });
});

describe("the database", () => {
  it("refuses a rating of 6, 0 or 4.5 even when a write goes around the service", async () => {
    const plant = await createProduct(app.database.db);
    const asha = await shopper();
    const now = new Date().toISOString();
    for (const rating of [6, 0, 4.5]) {
      await expect(
        app.database.db
          .insertInto("reviews")
          .values({ id: `r-${String(rating).replace(".", "-")}`, product_id: plant.id, user_id: asha.id, rating, text: "x", created_at: now, updated_at: now })
          .execute(),
      ).rejects.toThrow(/check constraint|CHECK constraint|invalid input syntax/i);
    }
    expect(await app.database.db.selectFrom("reviews").select("id").execute()).toEqual([]);
  });
});
