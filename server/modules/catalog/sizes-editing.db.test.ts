import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed, type Change } from "../../platform/change-feed/change-feed.ts";
import { ConflictError, InvalidInputError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { createCatalogEditingService, listLowStockProducts, type CatalogEditingService, type CatalogImages } from "./index.ts";
import { getProduct } from "./product-detail.ts";

// The owner's form with sizes (docs/product.md, Product form): the list it posts is the product's list of sizes, and
// the product's row summarises them after every save.

const m = adminMessages.productForm;

const images: CatalogImages = {
  async fromUpload(uploadId) {
    return { url: `/media/${uploadId}.webp`, width: 1280, height: 960, mediaKey: `key-${uploadId}` };
  },
  async removeUpload() {},
  async remove() {},
};

interface Size {
  id?: string;
  label: string;
  sku: string;
  price: string;
  stock: string;
  compareAt?: string;
  stockBefore?: string;
  image?: string | undefined;
}

const form = (variants: Size[], overrides: Record<string, unknown> = {}) => ({
  name: "Fiddle leaf fig",
  description: "Big violin-shaped leaves.",
  category: "Indoor",
  categoryImage: "upload:cat",
  images: ["upload:one"],
  variants,
  ...overrides,
});

const medium: Size = { label: 'Medium · 8" pot', sku: "FIG-M", price: "2500", stock: "10" };
const large: Size = { label: 'Large · 10" pot', sku: "FIG-L", price: "3800", stock: "5" };
const extraLarge: Size = { label: 'Extra large · 12" pot', sku: "FIG-XL", price: "5200", stock: "2" };

let database: TestDatabase;
let admin: SessionUser;
let service: CatalogEditingService;
let published: Change[];

beforeEach(async () => {
  database = await createTestDatabase();
  admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
  const changes = createLocalChangeFeed();
  published = [];
  changes.subscribe((change) => published.push(change));
  service = createCatalogEditingService({ database, changes, images });
});
afterEach(async () => {
  await database.cleanup();
});

const sizesOf = (productId: string) =>
  database.db
    .selectFrom("product_variants")
    .select(["id", "position", "label", "sku", "price_paise", "compare_at_paise", "stock"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
const summaryOf = (productId: string) =>
  database.db.selectFrom("products").select(["price_paise", "compare_at_paise", "max_price_paise", "stock"]).where("id", "=", productId).executeTakeFirstOrThrow();

/** The edit form as loaded: every size with its id and the stock it showed. */
async function loaded(productId: string): Promise<Size[]> {
  const product = await service.getProductForEdit(admin, { productId });
  return product.variants.map((size) => ({
    id: size.id,
    label: size.label,
    sku: size.sku,
    price: String(size.pricePaise / 100),
    compareAt: size.compareAtPaise === null ? "" : String(size.compareAtPaise / 100),
    stock: String(size.stock),
    stockBefore: String(size.stock),
  }));
}

async function refusal(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as InvalidInputError | ConflictError;
}

describe("the product form with sizes", () => {
  it("creates a plant in two sizes in the given order; its row summarises them (lowest price, highest price, total stock)", async () => {
    const { productId } = await service.createProduct(admin, form([large, medium]));

    expect(await sizesOf(productId)).toMatchObject([
      { position: 0, label: large.label, sku: "FIG-L", price_paise: 380_000, stock: 5 },
      { position: 1, label: medium.label, sku: "FIG-M", price_paise: 250_000, stock: 10 },
    ]);
    expect(await summaryOf(productId)).toEqual({ price_paise: 250_000, compare_at_paise: null, max_price_paise: 380_000, stock: 15 });
    expect((await service.getProductForEdit(admin, { productId })).variants.map((size) => size.label)).toEqual([large.label, medium.label]);
    expect(published[0]).toEqual({ type: "product", productId, aspects: ["details", "stock", "availability", "images"] });
  });

  it("adds a size, reorders, and removes one, keeping the ids of the sizes it keeps; the summary follows each save", async () => {
    const { productId } = await service.createProduct(admin, form([medium, large]));
    const [m1, l1] = await loaded(productId);

    await service.updateProduct(admin, { productId }, form([m1!, l1!, extraLarge], { images: [] }));
    expect(await summaryOf(productId)).toEqual({ price_paise: 250_000, compare_at_paise: null, max_price_paise: 520_000, stock: 17 });
    const [m2, l2, xl2] = await loaded(productId);
    expect([m2!.id, l2!.id]).toEqual([m1!.id, l1!.id]);

    await service.updateProduct(admin, { productId }, form([xl2!, m2!, l2!], { images: [] }));
    expect((await sizesOf(productId)).map((size) => [size.position, size.id])).toEqual([
      [0, xl2!.id],
      [1, m2!.id],
      [2, l2!.id],
    ]);

    await service.updateProduct(admin, { productId }, form([xl2!, l2!], { images: [] }));
    expect((await sizesOf(productId)).map((size) => [size.position, size.sku])).toEqual([
      [0, "FIG-XL"],
      [1, "FIG-L"],
    ]);
    expect(await summaryOf(productId)).toEqual({ price_paise: 380_000, compare_at_paise: null, max_price_paise: 520_000, stock: 7 });

    // Down to one size: no highest price, the summary is that size.
    await service.updateProduct(admin, { productId }, form([{ ...l2!, label: "" }], { images: [] }));
    expect(await summaryOf(productId)).toEqual({ price_paise: 380_000, compare_at_paise: null, max_price_paise: null, stock: 5 });
  });

  it("gives a sale per size: the summary carries the cheapest size's compare-at price; at or below its price is refused with the one-size message", async () => {
    const { productId } = await service.createProduct(
      admin,
      form([{ ...medium, compareAt: "3000" }, large], { saleStartsAt: "2026-12-01T09:00", saleEndsAt: "2026-12-08T09:00" }),
    );
    expect(await summaryOf(productId)).toMatchObject({ price_paise: 250_000, compare_at_paise: 300_000 });
    expect((await sizesOf(productId)).map((size) => size.compare_at_paise)).toEqual([300_000, null]);

    const error = await refusal(service.updateProduct(admin, { productId }, form([...(await loaded(productId)).slice(0, 1), { ...large, compareAt: "3800" }])));
    expect(error.fieldErrors).toEqual({ "variants.1.compareAt": m.compareAtNotAbove });
  });

  it("checks each size's price and stock with the one-size form's messages, naming the row", async () => {
    const error = await refusal(service.createProduct(admin, form([medium, { ...large, price: "", stock: "-1" }, { ...extraLarge, price: "0" }])));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.fieldErrors).toEqual({
      "variants.1.price": m.priceRequired,
      "variants.1.stock": m.stockInvalid,
      "variants.2.price": m.priceZero,
    });
    // The stock's cap, like the one-size form's, is checked once every field reads.
    const tooMany = await refusal(service.createProduct(admin, form([medium, { ...large, stock: "2000000" }])));
    expect(tooMany.fieldErrors).toEqual({ "variants.1.stock": m.stockTooLarge(1_000_000) });
  });

  it("needs a label on every size once there are two, each label different ignoring case; one size may have none", async () => {
    const missing = await refusal(service.createProduct(admin, form([medium, { ...large, label: "  " }])));
    expect(missing.fieldErrors).toEqual({ "variants.1.label": m.sizeLabelRequired });
    const twice = await refusal(service.createProduct(admin, form([medium, { ...large, label: medium.label.toUpperCase() }])));
    expect(twice.fieldErrors).toEqual({ "variants.1.label": m.sizeLabelTwice });

    const { productId } = await service.createProduct(admin, form([{ ...medium, label: "" }]));
    expect(await sizesOf(productId)).toMatchObject([{ label: "", sku: "FIG-M" }]);
  });

  it("needs a SKU of letters, digits, '-', '_' or '.', different on each size ignoring case", async () => {
    const bad = await refusal(service.createProduct(admin, form([{ ...medium, sku: "" }, { ...large, sku: "FIG L" }])));
    expect(bad.fieldErrors).toEqual({ "variants.0.sku": m.skuRequired, "variants.1.sku": m.skuInvalid(40) });
    const twice = await refusal(service.createProduct(admin, form([medium, { ...large, sku: "fig-m" }])));
    expect(twice.fieldErrors).toEqual({ "variants.1.sku": m.skuTwice });
  });

  it("refuses a SKU another product has, ignoring case, naming the row, and saves nothing", async () => {
    const other = await createProduct(database.db, { name: "Snake Plant" });
    const error = await refusal(service.createProduct(admin, form([medium, { ...large, sku: `sku-${other.id}`.toUpperCase() }])));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.fieldErrors).toEqual({ "variants.1.sku": m.skuTaken });
    expect(await database.db.selectFrom("products").select("id").where("name", "=", "Fiddle leaf fig").execute()).toEqual([]);
  });

  it("lets two of a plant's sizes swap SKUs, and a removed size's SKU go to a new one in the same save", async () => {
    const { productId } = await service.createProduct(admin, form([medium, large]));
    const [m1, l1] = await loaded(productId);
    await service.updateProduct(admin, { productId }, form([{ ...m1!, sku: "FIG-L" }, { ...l1!, sku: "FIG-M" }], { images: [] }));
    expect((await sizesOf(productId)).map((size) => [size.id, size.sku])).toEqual([
      [m1!.id, "FIG-L"],
      [l1!.id, "FIG-M"],
    ]);

    const [m2] = await loaded(productId);
    await service.updateProduct(admin, { productId }, form([m2!, { ...extraLarge, sku: "fig-m" }], { images: [] }));
    expect((await sizesOf(productId)).map((size) => size.sku)).toEqual(["FIG-L", "fig-m"]);
  });

  it("refuses a size's new stock when a sale moved that size's stock meanwhile, naming its stock now; an unchanged stock is not written", async () => {
    const { productId } = await service.createProduct(admin, form([medium, large]));
    const [m1, l1] = await loaded(productId);
    // A sale of two large plants while the form was open.
    await database.db.updateTable("product_variants").set({ stock: 3 }).where("id", "=", l1!.id!).execute();
    await database.db.updateTable("products").set({ stock: 13 }).where("id", "=", productId).execute();

    const error = await refusal(service.updateProduct(admin, { productId }, form([m1!, { ...l1!, stock: "9" }], { images: [] })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.fieldErrors).toEqual({ "variants.1.stock": m.stockChanged(3) });
    expect((await sizesOf(productId)).map((size) => size.stock)).toEqual([10, 3]);

    // The same form with the large size's stock left as shown, and the medium's changed: the sale is kept.
    await service.updateProduct(admin, { productId }, form([{ ...m1!, stock: "12" }, l1!], { images: [] }));
    expect((await sizesOf(productId)).map((size) => size.stock)).toEqual([12, 3]);
    expect(await summaryOf(productId)).toMatchObject({ stock: 15 });
  });

  it("deleting a size an order and a cart hold keeps the order line's name, label and SKU and unlinks both", async () => {
    const { productId } = await service.createProduct(admin, form([medium, large]));
    const [m1, l1] = await loaded(productId);
    const shopper = await createShopper(database.db, dialectUnderTest);
    const now = new Date().toISOString();
    const orderId = randomUUID();
    await database.db
      .insertInto("orders")
      .values({ id: orderId, user_id: shopper.id, status: "pending", subtotal_paise: 380_000, shipping_paise: 0, total_paise: 380_000, ship_name: "A", ship_phone: "+91 98765 43210", ship_address: "Pune", payment_method: "cod", idempotency_key: randomUUID(), created_at: now, updated_at: now })
      .execute();
    await database.db
      .insertInto("order_lines")
      .values({ id: randomUUID(), order_id: orderId, position: 0, product_id: productId, variant_id: l1!.id, variant_label: l1!.label, sku: "FIG-L", name: "Fiddle leaf fig", unit_price_paise: 380_000, quantity: 1 })
      .execute();
    await database.db.insertInto("cart_items").values({ id: randomUUID(), user_id: shopper.id, product_id: productId, variant_id: l1!.id, quantity: 1, created_at: now }).execute();

    await service.updateProduct(admin, { productId }, form([m1!], { images: [] }));

    expect(await database.db.selectFrom("order_lines").select(["product_id", "variant_id", "variant_label", "sku", "name", "unit_price_paise"]).execute()).toEqual([
      { product_id: productId, variant_id: null, variant_label: l1!.label, sku: "FIG-L", name: "Fiddle leaf fig", unit_price_paise: 380_000 },
    ]);
    expect(await database.db.selectFrom("cart_items").select(["product_id", "variant_id"]).execute()).toEqual([{ product_id: productId, variant_id: null }]);
    expect(await summaryOf(productId)).toEqual({ price_paise: 250_000, compare_at_paise: null, max_price_paise: null, stock: 10 });
  });

  it("refuses a size id the product does not have (another plant's, or one deleted meanwhile)", async () => {
    const other = await createProduct(database.db, { name: "Snake Plant" });
    const { productId } = await service.createProduct(admin, form([medium, large]));
    const [m1] = await loaded(productId);
    const error = await refusal(service.updateProduct(admin, { productId }, form([m1!, { ...large, id: other.id }], { images: [] })));
    expect(error.fieldErrors).toEqual({ "variants.1.id": m.sizeGone });
    expect(await sizesOf(other.id)).toHaveLength(1);
  });

  it("keeps the one-size form as it was for a plant in one size, and refuses it for a plant in several", async () => {
    const single = await service.createProduct(admin, form([], { variants: undefined, price: "1500", stock: "4" }));
    expect(await summaryOf(single.productId)).toEqual({ price_paise: 150_000, compare_at_paise: null, max_price_paise: null, stock: 4 });
    expect((await service.getProductForEdit(admin, { productId: single.productId })).variants).toMatchObject([{ label: "", pricePaise: 150_000, stock: 4 }]);

    const sized = await service.createProduct(admin, form([medium, large], { name: "Areca palm" }));
    const error = await refusal(service.updateProduct(admin, { productId: sized.productId }, form([], { name: "Areca palm", variants: undefined, price: "1500", stock: "4", images: [] })));
    expect(error.fieldErrors).toEqual({ price: m.hasSizes });
  });
});

describe("the overview's low stock, by size", () => {
  it("lists each size at or under the threshold with its product's name and label, fewest first, capped", async () => {
    await database.db.updateTable("product_variants").set({ stock: 100 }).execute();
    const { productId } = await service.createProduct(admin, form([medium, large, extraLarge]));
    const sizes = await sizesOf(productId);

    const low = await listLowStockProducts(database.db, 5, 10);
    expect(low).toEqual([
      { id: productId, name: "Fiddle leaf fig", variantId: sizes[2]!.id, label: extraLarge.label, stock: 2 },
      { id: productId, name: "Fiddle leaf fig", variantId: sizes[1]!.id, label: large.label, stock: 5 },
    ]);
    expect(await listLowStockProducts(database.db, 5, 1)).toHaveLength(1);
  });
});

describe("a size's own picture", () => {
  /** The product page's figures: each size's picture as its place among the plant's pictures. */
  const pictureIndexes = async (productId: string) =>
    (await getProduct({ db: database.db }, { productId })).variants.map((size) => [size.label, size.pictureIndex]);
  const pictureIds = async (productId: string) =>
    (await database.db.selectFrom("product_images").select("id").where("product_id", "=", productId).orderBy("position").execute()).map((row) => row.id);

  it("takes one of the plant's saved pictures, keeps it when the pictures are reordered, and shows it on the product's data by its new place", async () => {
    const { productId } = await service.createProduct(admin, form([medium, large], { images: ["upload:one", "upload:two"] }));
    const [first, second] = await pictureIds(productId);
    const sizes = await loaded(productId);
    await service.updateProduct(admin, { productId }, form([sizes[0]!, { ...sizes[1]!, image: second }] as Size[], { images: [`image:${first}`, `image:${second}`] }));
    expect(await pictureIndexes(productId)).toEqual([
      ['Medium · 8" pot', null],
      ['Large · 10" pot', 1],
    ]);
    expect((await service.getProductForEdit(admin, { productId })).variants.map((size) => size.imageId)).toEqual([null, second]);

    // The owner moves the second picture first: the pictures' rows are written again, and the size keeps its own.
    await service.updateProduct(admin, { productId }, form([sizes[0]!, { ...sizes[1]!, image: second }] as Size[], { images: [`image:${second}`, `image:${first}`] }));
    expect(await pictureIndexes(productId)).toEqual([
      ['Medium · 8" pot', null],
      ['Large · 10" pot', 0],
    ]);
  });

  it("refuses, on that size's row, a picture that is not one of the plant's, and one removed in the same save", async () => {
    const other = await createProduct(database.db);
    const [otherPicture] = await pictureIds(other.id);
    const { productId } = await service.createProduct(admin, form([medium, large], { images: ["upload:one", "upload:two"] }));
    const [first, second] = await pictureIds(productId);
    const sizes = await loaded(productId);
    const foreign = await refusal(service.updateProduct(admin, { productId }, form([sizes[0]!, { ...sizes[1]!, image: otherPicture }] as Size[], { images: [`image:${first}`, `image:${second}`] })));
    expect(foreign.fieldErrors).toEqual({ "variants.1.image": m.sizePictureGone });
    const removed = await refusal(service.updateProduct(admin, { productId }, form([{ ...sizes[0]!, image: second }, sizes[1]!] as Size[], { images: [`image:${first}`] })));
    expect(removed.fieldErrors).toEqual({ "variants.0.image": m.sizePictureGone });
    // Nothing was saved: both pictures are still there, and no size took one.
    expect(await pictureIds(productId)).toEqual([first, second]);
    expect(await pictureIndexes(productId)).toEqual([
      ['Medium · 8" pot', null],
      ['Large · 10" pot', null],
    ]);
  });
});
