import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { createCatalogService, type CatalogService } from "./catalog.ts";

// Migration 0009: an image made from an upload carries the key of its variants; older images keep one url.

const KEY = "0123456789abcdef0123456789abcdef";

let database: TestDatabase;
let catalog: CatalogService;

beforeEach(async () => {
  database = await createTestDatabase();
  catalog = createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db) });
});
afterEach(async () => {
  await database.cleanup();
});

describe("images with variants", () => {
  it("carry their media key on cards, the product page and the category, and plain images carry none", async () => {
    const category = await createCategory(database.db, { image_url: `/media/${KEY}-640.webp`, image_width: 640, image_height: 480, image_media_key: KEY });
    const uploaded = await createProduct(database.db, { category_id: category.id, images: [] });
    await database.db
      .insertInto("product_images")
      .values({ id: randomUUID(), product_id: uploaded.id, position: 0, url: `/media/${KEY}-1280.webp`, width: 1280, height: 960, media_key: KEY })
      .execute();
    const plain = await createProduct(database.db, { category_id: category.id });

    const cards = await catalog.listNewestProducts();
    expect(cards.find((p) => p.id === uploaded.id)?.image).toMatchObject({ url: `/media/${KEY}-1280.webp`, width: 1280, mediaKey: KEY });
    expect(cards.find((p) => p.id === plain.id)?.image?.mediaKey).toBeNull();
    expect((await catalog.getProduct({ productId: uploaded.id })).images[0]).toMatchObject({ mediaKey: KEY, width: 1280, height: 960 });
    expect((await catalog.getCategory({ categoryId: category.id })).image).toMatchObject({ mediaKey: KEY, width: 640 });
  });
});
