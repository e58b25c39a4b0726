import { randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { messages } from "../../common/shared/messages.ts";
import { MORPHOLOGY_SVG } from "../support/costly-drawings.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { dialectUnderTest } from "../support/test-database.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeEach(async () => {
  // A known secret, so that the test can sign in people it wrote into the database.
  app = await createTestApp({ AUTH_SECRET: SHOP_AUTH_SECRET });
});
afterEach(async () => {
  await app.cleanup();
});

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });

async function signedIn(isAdmin: boolean): Promise<string> {
  const person = await createShopper(app.database.db, dialectUnderTest, { isAdmin });
  return (await insertSessions(app.database.db, [person.id]))[0]!;
}

/** A finished tus upload (POST, then one PATCH) of a small PNG, for the product form; returns its id. */
async function uploadPicture(cookie: string, colour: string): Promise<string> {
  return uploadFile(cookie, await sharp({ create: { width: 48, height: 32, channels: 3, background: colour } }).png().toBuffer());
}

async function uploadFile(cookie: string, png: Buffer): Promise<string> {
  const tus = { "Tus-Resumable": "1.0.0", Origin: TEST_ORIGIN, Cookie: cookie };
  const created = await app.request("/api/uploads", {
    method: "POST",
    headers: { ...tus, "Upload-Length": String(png.byteLength), "Upload-Metadata": `purpose ${btoa("product")}` },
  });
  expect(created.status).toBe(201);
  const location = created.headers.get("Location")!;
  const patched = await app.request(location, {
    method: "PATCH",
    headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" },
    body: new Uint8Array(png),
  });
  expect(patched.status).toBe(204);
  return location.split("/").pop()!;
}

const filesIn = async (folder: string) => (await readdir(path.join(app.dataDir, folder)).catch(() => [] as string[])).sort();

/** Every call of the admin catalogue API, with a body where it takes one. */
function everyCall(productId: string, categoryId: string): [string, string, unknown?][] {
  const form = { name: "fern", description: "d", price: "10", stock: "1", category: "Ferns", images: ["upload:x"] };
  return [
    ["GET", "/api/admin/products"],
    ["POST", "/api/admin/products", form],
    ["GET", `/api/admin/products/${productId}`],
    ["PUT", `/api/admin/products/${productId}`, form],
    ["PATCH", `/api/admin/products/${productId}/stock`, { stock: 0 }],
    // The factory's product has one size, under the product's id.
    ["PATCH", `/api/admin/products/${productId}/variants/${productId}/stock`, { stock: 0 }],
    ["DELETE", `/api/admin/products/${productId}`],
    ["GET", "/api/admin/categories"],
    ["PATCH", `/api/admin/categories/${categoryId}`, { name: "Renamed" }],
    ["PUT", `/api/admin/categories/${categoryId}/image`, { image: "upload:x" }],
    ["DELETE", `/api/admin/categories/${categoryId}`],
  ];
}

describe("the admin catalogue API", () => {
  it("answers a visitor 401 and a signed-in shopper 403 on every call, and changes nothing", async () => {
    const category = await createCategory(app.database.db, { name: "Ferns" });
    const plant = await createProduct(app.database.db, { category_id: category.id, stock: 4, name: "Boston Fern" });
    const shopper = await signedIn(false);
    for (const [method, path, body] of everyCall(plant.id, category.id)) {
      const visitor = await send(method, path, null, body);
      expect(visitor.status, `${method} ${path} as a visitor`).toBe(401);
      const user = await send(method, path, shopper, body);
      expect(user.status, `${method} ${path} as a shopper`).toBe(403);
      expect((await user.json()).message).toBe("You are not allowed to do that.");
    }
    expect(await app.database.db.selectFrom("products").select(["name", "stock"]).execute()).toEqual([{ name: "Boston Fern", stock: 4 }]);
    expect(await app.database.db.selectFrom("categories").select("name").execute()).toEqual([{ name: "Ferns" }]);
    // Twenty requests, each looking up a session: more than the default bound on a loaded machine.
  }, 60_000);

  it("refuses a shopper before reading the body: a broken body is still 403, not 400", async () => {
    const shopper = await signedIn(false);
    expect((await send("POST", "/api/admin/products", shopper, "{not json")).status).toBe(403);
    expect((await send("POST", "/api/admin/products", null, "{not json")).status).toBe(401);
  });

  it("lets an admin set the stock, rename and delete, with 400 for bad input and 409 for a category in use", async () => {
    const category = await createCategory(app.database.db, { name: "Ferns" });
    const plant = await createProduct(app.database.db, { category_id: category.id, stock: 4 });
    const admin = await signedIn(true);

    const stock = await send("PATCH", `/api/admin/products/${plant.id}/stock`, admin, { stock: "-1" });
    expect(stock.status).toBe(400);
    expect((await stock.json()).fieldErrors.stock).toBe(adminMessages.productForm.stockInvalid);
    expect(await (await send("PATCH", `/api/admin/products/${plant.id}/stock`, admin, { stock: 9 })).json()).toEqual({ productId: plant.id, stock: 9 });

    const inUse = await send("DELETE", `/api/admin/categories/${category.id}`, admin);
    expect(inUse.status).toBe(409);
    expect((await inUse.json()).message).toBe(adminMessages.category.inUse);

    const created = await send("POST", "/api/admin/products", admin, { name: "", description: "", price: "", stock: "", category: "", images: [] });
    expect(created.status).toBe(400);
    expect((await created.json()).fieldErrors).toEqual({
      name: adminMessages.productForm.nameRequired,
      description: adminMessages.productForm.descriptionRequired,
      price: adminMessages.productForm.priceRequired,
      stock: adminMessages.productForm.stockRequired,
      category: adminMessages.productForm.categoryRequired,
      images: adminMessages.productForm.imagesRequired,
    });

    expect((await send("DELETE", `/api/admin/products/${plant.id}`, admin)).status).toBe(200);
    expect((await send("DELETE", `/api/admin/products/${plant.id}`, admin)).status).toBe(404);
    expect((await send("PATCH", `/api/admin/categories/${category.id}`, admin, { name: "True Ferns" })).status).toBe(200);
    expect((await send("DELETE", `/api/admin/categories/${category.id}`, admin)).status).toBe(200);
    expect((await send("GET", "/api/admin/products/not%20an%20id", admin)).status).toBe(400);
  });

  it("refuses a category image drawn with feMorphology filters with 400 and a message naming filters, keeping the old image and storing nothing", async () => {
    const admin = await signedIn(true);
    const category = await createCategory(app.database.db, { name: "Ferns" });
    const upload = await uploadFile(admin, Buffer.from(MORPHOLOGY_SVG));

    const refused = await send("PUT", `/api/admin/categories/${category.id}/image`, admin, { image: `upload:${upload}` });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toContain(messages.images.svgFilters);
    const row = await app.database.db.selectFrom("categories").select(["image_url", "image_media_key"]).where("id", "=", category.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ image_url: category.image_url, image_media_key: null });
    expect(await filesIn("media")).toEqual([]);
    // A refused upload is deleted (tus keeps a .json of its metadata beside it).
    expect(await filesIn("uploads")).toEqual([]);
  });

  it("keeps a product form's uploads usable after a refused save (new category without image, name taken, unknown picture), and removes them once the save commits", async () => {
    const admin = await signedIn(true);
    const indoor = await createCategory(app.database.db, { name: "Indoor" });
    await createProduct(app.database.db, { category_id: indoor.id, name: "Taken fern" });
    const picture = await uploadPicture(admin, "#52796f");
    const form = { name: "boston fern", description: "Arching fronds.", price: "499", stock: "3", category: "Ferns", images: [`upload:${picture}`] };

    const noCategoryImage = await send("POST", "/api/admin/products", admin, form);
    expect(noCategoryImage.status).toBe(400);
    expect((await noCategoryImage.json()).fieldErrors.categoryImage).toBe(adminMessages.productForm.newCategoryNeedsImage);

    const categoryPicture = await uploadPicture(admin, "#84a98c");
    const withCategoryImage = { ...form, categoryImage: `upload:${categoryPicture}` };
    const nameTaken = await send("POST", "/api/admin/products", admin, { ...withCategoryImage, name: "taken fern" });
    expect(nameTaken.status).toBe(409);
    expect((await nameTaken.json()).fieldErrors.name).toBe(adminMessages.productForm.nameTaken);

    const unknownPicture = await send("POST", "/api/admin/products", admin, { ...withCategoryImage, images: [`upload:${picture}`, `image:${randomUUID()}`] });
    expect(unknownPicture.status).toBe(400);
    expect((await unknownPicture.json()).message).toBe(adminMessages.productForm.unknownImage);
    // Each refusal removed the pictures it had made, so nothing is left over in the media folder.
    expect(await filesIn("media")).toEqual([]);

    // The same tokens, as the form still holds them, now save.
    const saved = await send("POST", "/api/admin/products", admin, withCategoryImage);
    expect(saved.status, JSON.stringify(await saved.clone().json())).toBe(201);
    const { productId, categoryId } = await saved.json();
    const productImage = await app.database.db.selectFrom("product_images").select("media_key").where("product_id", "=", productId).executeTakeFirstOrThrow();
    const category = await app.database.db.selectFrom("categories").select("image_media_key").where("id", "=", categoryId).executeTakeFirstOrThrow();
    // The raw uploads are gone once used, and the stored files are exactly the two pictures' sets.
    expect(await filesIn("uploads")).toEqual([]);
    const keys = new Set((await filesIn("media")).map((name) => name.split("-")[0]));
    expect(keys).toEqual(new Set([productImage.media_key, category.image_media_key]));
  }, 60_000);
});
