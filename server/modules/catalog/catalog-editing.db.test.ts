import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed, type Change } from "../../platform/change-feed/change-feed.ts";
import { ConflictError, ForbiddenError, InvalidInputError, UnauthorizedError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { ADMIN_PAGE_SIZE, capitaliseFirst, createCatalogEditingService, type CatalogEditingService, type CatalogImages } from "./index.ts";

/**
 * The upload pipeline is another module's (h/uploads); here it is a stand-in that "stores" an upload as a url
 * and records what is removed, so these tests see exactly which pictures are kept and which are cleaned up.
 */
function fakeImages() {
  const stored = new Set<string>();
  const removed: string[] = [];
  const removedUploads: string[] = [];
  const images: CatalogImages = {
    async fromUpload(uploadId) {
      if (uploadId.startsWith("bad")) throw new InvalidInputError("Choose an image file: PNG, JPG, JPEG, SVG, GIF, WEBP, BMP, TIFF or ICO.");
      const url = `/media/${uploadId}.webp`;
      stored.add(url);
      return { url, width: 1280, height: 960, mediaKey: `key-${uploadId}` };
    },
    async removeUpload(uploadId) {
      removedUploads.push(uploadId);
    },
    async remove(url) {
      removed.push(url);
      stored.delete(url);
    },
  };
  return { images, stored, removed, removedUploads };
}

const form = (overrides: Record<string, unknown> = {}) => ({
  name: "peace lily",
  description: "Glossy leaves and white flowers.",
  price: "1499.50",
  stock: "7",
  category: "Indoor",
  images: ["upload:one", "upload:two"],
  ...overrides,
});

let database: TestDatabase;
let admin: SessionUser;
let shopper: SessionUser;
let service: CatalogEditingService;
let pictures: ReturnType<typeof fakeImages>;
let published: Change[];

beforeEach(async () => {
  database = await createTestDatabase();
  admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
  shopper = await createShopper(database.db, dialectUnderTest);
  pictures = fakeImages();
  const changes = createLocalChangeFeed();
  published = [];
  changes.subscribe((change) => published.push(change));
  service = createCatalogEditingService({ database, changes, images: pictures.images });
});
afterEach(async () => {
  await database.cleanup();
});

const productRow = (id: string) => database.db.selectFrom("products").selectAll().where("id", "=", id).executeTakeFirst();
const imageUrls = async (id: string) =>
  (await database.db.selectFrom("product_images").select("url").where("product_id", "=", id).orderBy("position").execute()).map((r) => r.url);

describe("capitaliseFirst", () => {
  it("upper-cases only the first letter and keeps the rest as typed", () => {
    expect(capitaliseFirst("snake plant")).toBe("Snake plant");
    expect(capitaliseFirst("éclair fern")).toBe("Éclair fern");
    expect(capitaliseFirst("ZZ plant")).toBe("ZZ plant");
  });
});

describe("createProduct", () => {
  it("saves the name with its first letter upper-cased, the price in paise, the stock, and the pictures in order", async () => {
    const category = await createCategory(database.db, { name: "Indoor" });
    const { productId, categoryId } = await service.createProduct(admin, form({ category: "indoor" }));
    expect(categoryId).toBe(category.id);
    expect(await productRow(productId)).toMatchObject({ name: "Peace lily", price_paise: 149_950, stock: 7, category_id: category.id });
    expect(await imageUrls(productId)).toEqual(["/media/one.webp", "/media/two.webp"]);
    const keys = await database.db.selectFrom("product_images").select("media_key").where("product_id", "=", productId).orderBy("position").execute();
    expect(keys).toEqual([{ media_key: "key-one" }, { media_key: "key-two" }]);
    expect(pictures.removed).toEqual([]);
    expect(published).toEqual([{ type: "product", productId, aspects: ["details", "stock", "images"] }]);
  });

  it("refuses a stock below 0, a fractional stock, one over 1,000,000, a price that is not a number or is 0, with the field's message", async () => {
    await createCategory(database.db, { name: "Indoor" });
    for (const [input, field, message] of [
      [{ stock: "-1" }, "stock", adminMessages.productForm.stockInvalid],
      [{ stock: "2.5" }, "stock", adminMessages.productForm.stockInvalid],
      [{ stock: "1000001" }, "stock", adminMessages.productForm.stockTooLarge(1_000_000)],
      [{ stock: "" }, "stock", adminMessages.productForm.stockRequired],
      [{ price: "abc" }, "price", adminMessages.productForm.priceInvalid],
      [{ price: " " }, "price", adminMessages.productForm.priceRequired],
      [{ price: "0" }, "price", adminMessages.productForm.priceZero],
      [{ price: "10,00" }, "price", adminMessages.productForm.priceInvalid],
      [{ name: "  " }, "name", adminMessages.productForm.nameRequired],
      [{ description: "" }, "description", adminMessages.productForm.descriptionRequired],
      [{ category: "" }, "category", adminMessages.productForm.categoryRequired],
      [{ images: [] }, "images", adminMessages.productForm.imagesRequired],
    ] as const) {
      const failure = await service.createProduct(admin, form(input)).catch((error: unknown) => error);
      expect(failure, JSON.stringify(input)).toBeInstanceOf(InvalidInputError);
      expect((failure as InvalidInputError).fieldErrors?.[field]).toBe(message);
    }
    expect(await database.db.selectFrom("products").select("id").execute()).toEqual([]);
  });

  it("takes the price as a JSON number from an API client", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const { productId } = await service.createProduct(admin, form({ price: 1499.5 }));
    expect((await productRow(productId))?.price_paise).toBe(149_950);
  });

  it("creates a new category with the product, with 'Default description' when none is given", async () => {
    const { productId, categoryId } = await service.createProduct(admin, form({ category: "Bonsai", categoryImage: "upload:cat" }));
    const category = await database.db.selectFrom("categories").selectAll().where("id", "=", categoryId).executeTakeFirstOrThrow();
    expect(category).toMatchObject({ name: "Bonsai", description: "Default description", image_url: "/media/cat.webp", image_media_key: "key-cat" });
    expect((await productRow(productId))?.category_id).toBe(categoryId);
    expect(published).toContainEqual({ type: "category", categoryId });
  });

  it("refuses a new category without a Category Image and saves nothing", async () => {
    const failure = await service.createProduct(admin, form({ category: "Bonsai" })).catch((error: unknown) => error);
    expect((failure as InvalidInputError).fieldErrors?.categoryImage).toBe(adminMessages.productForm.newCategoryNeedsImage);
    expect(await database.db.selectFrom("products").select("id").execute()).toEqual([]);
    expect(await database.db.selectFrom("categories").select("id").execute()).toEqual([]);
    expect(pictures.stored.size).toBe(0);
    expect(published).toEqual([]);
  });

  it("saves nothing and removes the pictures it made when the name is taken (ignoring case)", async () => {
    const category = await createCategory(database.db, { name: "Indoor" });
    await createProduct(database.db, { name: "Peace Lily", category_id: category.id });
    const failure = await service.createProduct(admin, form({ name: "PEACE LILY", category: "Cacti", categoryImage: "upload:cat" })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConflictError);
    expect((failure as ConflictError).fieldErrors?.name).toBe(adminMessages.productForm.nameTaken);
    expect(await database.db.selectFrom("categories").select("name").where("name", "=", "Cacti").execute()).toEqual([]);
    expect(pictures.stored.size).toBe(0);
    expect(pictures.removed.sort()).toEqual(["/media/cat.webp", "/media/one.webp", "/media/two.webp"]);
    expect(published).toEqual([]);
  });

  it("removes the pictures already made when a later upload is refused", async () => {
    await createCategory(database.db, { name: "Indoor" });
    await expect(service.createProduct(admin, form({ images: ["upload:one", "upload:bad-text"] }))).rejects.toThrow(/Choose an image file/);
    expect(pictures.stored.size).toBe(0);
    expect(pictures.removed).toEqual(["/media/one.webp"]);
  });

  it("refuses one upload chosen twice, as two product pictures or as a picture and the new Category Image, before decoding it", async () => {
    for (const twice of [form({ images: ["upload:one", "upload:one"] }), form({ category: "Bonsai", categoryImage: "upload:one" })]) {
      await expect(service.createProduct(admin, twice)).rejects.toMatchObject({
        status: 400,
        message: adminMessages.productForm.pictureTwice,
        fieldErrors: { images: adminMessages.productForm.pictureTwice },
      });
    }
    expect(pictures.stored.size).toBe(0);
    expect(await database.db.selectFrom("products").select("id").execute()).toEqual([]);
  });

  it("keeps the raw uploads when a save is refused, by a check or by the database's unique name, and removes them all after a commit", async () => {
    const category = await createCategory(database.db, { name: "Indoor" });
    await createProduct(database.db, { name: "Taken", category_id: category.id });
    await expect(service.createProduct(admin, form({ category: "Bonsai" }))).rejects.toBeInstanceOf(InvalidInputError);
    await expect(service.createProduct(admin, form({ name: "taken", category: "Bonsai", categoryImage: "upload:cat" }))).rejects.toBeInstanceOf(ConflictError);
    await expect(service.createProduct(admin, form({ images: ["upload:one", "upload:bad-text"] }))).rejects.toThrow(/Choose an image file/);
    expect(pictures.removedUploads).toEqual([]);
    await service.createProduct(admin, form({ categoryImage: "upload:cat" }));
    expect(pictures.removedUploads.sort()).toEqual(["cat", "one", "two"]);
  });

  it("removes an uploaded Category Image that is not needed because the category exists", async () => {
    await createCategory(database.db, { name: "Indoor" });
    await service.createProduct(admin, form({ categoryImage: "upload:cat" }));
    expect(pictures.removed).toEqual(["/media/cat.webp"]);
  });

  it("refuses a visitor and a shopper", async () => {
    await expect(service.createProduct(null, form())).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(service.createProduct(shopper, form())).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("updateProduct", () => {
  it("reorders, keeps and removes pictures, adds new ones, and removes the dropped files after commit", async () => {
    const { productId } = await service.createProduct(admin, form({ category: "Bonsai", categoryImage: "upload:cat", images: ["upload:a", "upload:b", "upload:c"] }));
    const before = await service.getProductForEdit(admin, { productId });
    const [a, , c] = before.images;
    await service.updateProduct(admin, { productId }, form({ name: "peace lily xl", category: "BONSAI", stock: "0", images: [`image:${c!.id}`, "upload:d", `image:${a!.id}`] }));
    expect(await imageUrls(productId)).toEqual(["/media/c.webp", "/media/d.webp", "/media/a.webp"]);
    expect(pictures.removed).toEqual(["/media/b.webp"]);
    expect(await productRow(productId)).toMatchObject({ name: "Peace lily xl", stock: 0 });
  });

  it("may leave a product without pictures when editing", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const { productId } = await service.createProduct(admin, form());
    await service.updateProduct(admin, { productId }, form({ images: [] }));
    expect(await imageUrls(productId)).toEqual([]);
  });

  it("refuses a picture of another product and changes nothing", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const other = await createProduct(database.db);
    const otherImage = await database.db.selectFrom("product_images").select("id").where("product_id", "=", other.id).executeTakeFirstOrThrow();
    const { productId } = await service.createProduct(admin, form());
    await expect(service.updateProduct(admin, { productId }, form({ name: "changed", images: [`image:${otherImage.id}`, "upload:z"] }))).rejects.toThrow(
      adminMessages.productForm.unknownImage,
    );
    expect((await productRow(productId))?.name).toBe("Peace lily");
    expect(await imageUrls(productId)).toEqual(["/media/one.webp", "/media/two.webp"]);
    expect(pictures.stored.has("/media/z.webp")).toBe(false);
  });
});

describe("editing while plants sell", () => {
  /** A sale made while the admin's form is open: what checkout does to the plant's only size and to its product's total. */
  const sell = async (productId: string, units: number) => {
    await database.db.updateTable("product_variants").set((eb) => ({ stock: eb("stock", "-", units) })).where("product_id", "=", productId).execute();
    await database.db.updateTable("products").set((eb) => ({ stock: eb("stock", "-", units) })).where("id", "=", productId).execute();
  };

  it("an edit that leaves the stock as the form showed it keeps the sales made meanwhile, and announces no stock change", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const { productId } = await service.createProduct(admin, form({ stock: "10" }));
    const shown = await service.getProductForEdit(admin, { productId });
    await sell(productId, 4);
    published.length = 0;
    await service.updateProduct(admin, { productId }, form({ description: "New words.", stock: String(shown.stock), stockBefore: String(shown.stock) }));
    expect(await productRow(productId)).toMatchObject({ stock: 6, description: "New words." });
    expect(published).toEqual([{ type: "product", productId, aspects: ["details", "images"] }]);
  });

  it("a changed stock is refused with the stock now when plants sold meanwhile, saving nothing; saved again from the reloaded form, it is set", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const { productId } = await service.createProduct(admin, form({ stock: "10" }));
    await sell(productId, 4);
    const refused = service.updateProduct(admin, { productId }, form({ description: "New words.", stock: "15", stockBefore: "10" }));
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toMatchObject({ fieldErrors: { stock: adminMessages.productForm.stockChanged(6) } });
    expect(await productRow(productId)).toMatchObject({ stock: 6, description: "Glossy leaves and white flowers." });

    await service.updateProduct(admin, { productId }, form({ description: "New words.", stock: "15", stockBefore: "6" }));
    expect(await productRow(productId)).toMatchObject({ stock: 15, description: "New words." });
  });

  it("the stock field of the product list is refused the same way, while a raw API call without stockBefore still sets the stock", async () => {
    const plant = await createProduct(database.db, { stock: 10 });
    await sell(plant.id, 3);
    await expect(service.setStock(admin, { productId: plant.id }, { stock: "20", stockBefore: "10" })).rejects.toThrow(adminMessages.productForm.stockChanged(7));
    expect((await productRow(plant.id))?.stock).toBe(7);
    await service.setStock(admin, { productId: plant.id }, { stock: "20", stockBefore: "7" });
    expect((await productRow(plant.id))?.stock).toBe(20);
    await service.setStock(admin, { productId: plant.id }, { stock: "5" });
    expect((await productRow(plant.id))?.stock).toBe(5);
  });
  it("a product whose stock cancelled orders took past 1,000,000 can still be edited, keeping that stock", async () => {
    await createCategory(database.db, { name: "Indoor" });
    const { productId } = await service.createProduct(admin, form({ stock: "1000000" }));
    await sell(productId, -3);
    const shown = await service.getProductForEdit(admin, { productId });
    await service.updateProduct(admin, { productId }, form({ description: "New words.", stock: String(shown.stock), stockBefore: String(shown.stock) }));
    expect(await productRow(productId)).toMatchObject({ stock: 1_000_003, description: "New words." });
    const raised = service.updateProduct(admin, { productId }, form({ stock: "1000004", stockBefore: "1000003" }));
    await expect(raised).rejects.toMatchObject({ fieldErrors: { stock: adminMessages.productForm.stockTooLarge(1_000_000) } });
  });
});

describe("setStock", () => {
  it("sets a whole number ≥ 0, refuses anything else, and announces the stock change (without the stock it replaced, as a possible change of availability)", async () => {
    const plant = await createProduct(database.db, { stock: 3 });
    await service.setStock(admin, { productId: plant.id }, { stock: "12" });
    expect((await productRow(plant.id))?.stock).toBe(12);
    await expect(service.setStock(admin, { productId: plant.id }, { stock: "-4" })).rejects.toThrow(adminMessages.productForm.stockInvalid);
    await expect(service.setStock(shopper, { productId: plant.id }, { stock: "1" })).rejects.toBeInstanceOf(ForbiddenError);
    expect(published).toEqual([{ type: "product", productId: plant.id, aspects: ["stock", "availability"] }]);
  });

  it("announces a change of availability exactly when the stock it replaced (stockBefore) and the new one differ in being zero", async () => {
    const plant = await createProduct(database.db, { stock: 3 });
    await service.setStock(admin, { productId: plant.id }, { stock: "5", stockBefore: "3" });
    await service.setStock(admin, { productId: plant.id }, { stock: "0", stockBefore: "5" });
    await service.setStock(admin, { productId: plant.id }, { stock: "0", stockBefore: "0" });
    await service.setStock(admin, { productId: plant.id }, { stock: "2", stockBefore: "0" });
    expect(published.map((change) => (change.type === "product" ? change.aspects : []))).toEqual([
      ["stock"],
      ["stock", "availability"],
      ["stock"],
      ["stock", "availability"],
    ]);
  });
});

describe("deleteProduct", () => {
  it("removes the product and its pictures, empties its cart lines' product and keeps orders' copies", async () => {
    const plant = await createProduct(database.db, { name: "Doomed Fern", images: ["/media/x.webp"] });
    const now = new Date().toISOString();
    await database.db.insertInto("cart_items").values({ id: randomUUID(), user_id: shopper.id, product_id: plant.id, quantity: 2, created_at: now }).execute();
    const orderId = randomUUID();
    await database.db
      .insertInto("orders")
      .values({ id: orderId, user_id: shopper.id, status: "pending", subtotal_paise: 99_900, shipping_paise: 2000, total_paise: 101_900, ship_name: "A", ship_phone: "+91 98765 43210", ship_address: "Pune", payment_method: "cod", idempotency_key: randomUUID(), created_at: now, updated_at: now })
      .execute();
    await database.db.insertInto("order_lines").values({ id: randomUUID(), order_id: orderId, position: 0, product_id: plant.id, name: "Doomed Fern", unit_price_paise: 99_900, quantity: 1 }).execute();

    await service.deleteProduct(admin, { productId: plant.id });

    expect(await productRow(plant.id)).toBeUndefined();
    expect(await database.db.selectFrom("product_images").select("id").where("product_id", "=", plant.id).execute()).toEqual([]);
    expect(await database.db.selectFrom("cart_items").select("product_id").where("user_id", "=", shopper.id).execute()).toEqual([{ product_id: null }]);
    expect(await database.db.selectFrom("order_lines").select(["name", "product_id"]).execute()).toEqual([{ name: "Doomed Fern", product_id: null }]);
    expect(pictures.removed).toEqual(["/media/x.webp"]);
    expect(published).toEqual([{ type: "product", productId: plant.id, aspects: ["deleted"] }]);
  });
});

describe("categories", () => {
  it("keeps names unique ignoring case, in the service and in the database", async () => {
    await createCategory(database.db, { name: "Succulents" });
    const ferns = await createCategory(database.db, { name: "Ferns" });
    const failure = await service.renameCategory(admin, { categoryId: ferns.id }, { name: "SUCCULENTS" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConflictError);
    expect((failure as ConflictError).message).toBe(adminMessages.category.nameTaken);
    await expect(createCategory(database.db, { name: "succulents" })).rejects.toThrow();
    await service.renameCategory(admin, { categoryId: ferns.id }, { name: "True Ferns" });
    expect(published).toEqual([{ type: "category", categoryId: ferns.id }]);
  });

  it("refuses to delete a category while a product uses it, then deletes it once empty", async () => {
    const herbs = await createCategory(database.db, { name: "Herbs", image_url: "/media/herbs.webp" });
    const basil = await createProduct(database.db, { category_id: herbs.id });
    await expect(service.deleteCategory(admin, { categoryId: herbs.id })).rejects.toThrow(adminMessages.category.inUse);
    await service.deleteProduct(admin, { productId: basil.id });
    await service.deleteCategory(admin, { categoryId: herbs.id });
    expect(await database.db.selectFrom("categories").select("id").where("id", "=", herbs.id).execute()).toEqual([]);
    expect(pictures.removed).toContain("/media/herbs.webp");
  });

  it("changes a category's image and removes the old file", async () => {
    const herbs = await createCategory(database.db, { name: "Herbs", image_url: "/media/old.webp" });
    await service.setCategoryImage(admin, { categoryId: herbs.id }, { image: "upload:new" });
    const row = await database.db.selectFrom("categories").select(["image_url", "image_width"]).where("id", "=", herbs.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ image_url: "/media/new.webp", image_width: 1280 });
    expect(pictures.removed).toEqual(["/media/old.webp"]);
  });
});

describe("listProducts", () => {
  it("lists lowest stock first a page at a time by key, and searches names", async () => {
    const category = await createCategory(database.db);
    for (let i = 0; i < ADMIN_PAGE_SIZE + 3; i++) await createProduct(database.db, { category_id: category.id, stock: 100 - i, name: `Plant ${i}` });
    const first = await service.listProducts(admin, {});
    expect(first.items).toHaveLength(ADMIN_PAGE_SIZE);
    expect(first.items[0]).toMatchObject({ stock: 100 - (ADMIN_PAGE_SIZE + 2), categoryName: category.name });
    const stocks = first.items.map((row) => row.stock);
    expect(stocks).toEqual([...stocks].sort((x, y) => x - y));
    const second = await service.listProducts(admin, { afterStock: String(first.next!.afterStock), afterId: first.next!.afterId });
    expect(second.items.map((row) => row.stock)).toEqual([98, 99, 100]);
    expect(second.next).toBeNull();
    expect((await service.listProducts(admin, { q: "plant 1" })).items.map((row) => row.name).sort()).toEqual(
      ["Plant 1", "Plant 10", "Plant 11", "Plant 12", "Plant 13", "Plant 14", "Plant 15", "Plant 16", "Plant 17", "Plant 18", "Plant 19"].sort(),
    );
    await expect(service.listProducts(shopper, {})).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("pages on past a stock over 1,000,000 (cancelled orders give plants back beyond what the form takes) instead of starting again", async () => {
    const category = await createCategory(database.db);
    for (let i = 0; i < ADMIN_PAGE_SIZE + 2; i++) await createProduct(database.db, { category_id: category.id, stock: 1_000_005 + i, name: `Big ${i}` });
    const first = await service.listProducts(admin, {});
    expect(first.next!.afterStock).toBeGreaterThan(1_000_000);
    const second = await service.listProducts(admin, { afterStock: String(first.next!.afterStock), afterId: first.next!.afterId });
    expect(second.items.map((row) => row.stock)).toEqual([1_000_005 + ADMIN_PAGE_SIZE, 1_000_005 + ADMIN_PAGE_SIZE + 1]);
  });
});
