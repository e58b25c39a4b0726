import { randomBytes, randomUUID } from "node:crypto";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { adminMessages } from "../../common/admin/admin-messages.ts";
import { messages } from "../../common/shared/messages.ts";
import { createCategory, createProduct } from "../support/factories.ts";
import { setStockAsAdmin } from "./support/api.ts";
import { allowStatusLogs, expect as baseExpect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { ADMIN, adminWithoutJavaScript, hydrated, logIn, urlIs } from "./support/pages.ts";
import { signedInUnverified } from "./support/shopper.ts";

// The owner's catalogue (docs/decisions/023): the product form, the products and categories lists, and who may see them.

const f = adminMessages.productForm;

// Pictures are decoded to WebP and AVIF while the form is saved, and the machine running the suite may be
// shared: what a page should show gets a longer while to appear. This bounds waiting; it asserts no timing.
const expect = baseExpect.configure({ timeout: 30_000 });

/**
 * The product form's fields as a person finds them: each by its label, with the message it should carry. The
 * pictures are a file input whose values travel as hidden inputs, so its message is tied to the file input.
 */
const productFields = (page: Page) => [
  { field: page.getByLabel("Product Name"), message: f.nameRequired },
  { field: page.getByLabel("Product Description"), message: f.descriptionRequired },
  { field: page.getByLabel("Product Price"), message: f.priceRequired },
  { field: page.getByLabel("Product Images", { exact: true }), message: f.imagesRequired },
  { field: page.getByLabel("Product Category"), message: f.categoryRequired },
  { field: page.getByLabel("Stock Quantity"), message: f.stockRequired },
];

/** Every message shows at once, each marking its own field invalid and read out with it. */
async function expectMessagesOnFields(page: Page, expected: { field: Locator; message: string }[]) {
  for (const { field, message } of expected) {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(message);
    // The description is the message shown beside the field, not a hidden copy.
    const describedBy = await field.getAttribute("aria-describedby");
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(message);
    await expect(page.locator(`[id="${describedBy}"]`)).toBeVisible();
  }
}

const unique = (kind: string) => `${kind} ${randomUUID().slice(0, 8)}`;

/** A PNG of random pixels: it does not compress, so its size is about width × height × 3 bytes. */
function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

/**
 * A smooth gradient stored without compression: as large as noise of the same size (width × height × 3 bytes), but
 * cheap to encode. Random pixels of 1400 × 1400 cost the encoders some twenty times the CPU, enough on a loaded
 * machine to pass the decoders' wall-time limit and have the picture refused as too slow.
 */
function largeSmoothPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = Math.floor((x * 255) / width);
      pixels[at + 1] = Math.floor((y * 255) / height);
      pixels[at + 2] = 120;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

test.describe("the owner's catalogue", () => {
  // Several pages and form posts each, on a machine shared with other builds: a generous bound, not a timing claim.
  test.describe.configure({ timeout: 120_000 });

  test("an empty Add Product form shows all six of its messages at once, each tied to its field, and the focus goes to Product Name", async ({ page }) => {
    await logIn(page, ADMIN);
    await page.goto("/add-product");
    await expect(page.getByRole("heading", { name: f.addHeading, level: 1 })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
    const save = page.getByRole("button", { name: f.addHeading });
    await hydrated(save, 30_000);
    await save.click();
    await expectMessagesOnFields(page, productFields(page));
    await expect(page.locator(".field-error")).toHaveCount(6);
    await expect(page.getByLabel("Product Name")).toBeFocused();
    // Checked in the browser: nothing was sent, so no failure line.
    await expect(page.getByRole("alert")).toHaveCount(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await expect(page).toHaveURL(urlIs("/add-product"));
  });

  test("the product form's messages change as fields are fixed; a form typed right but with no picture keeps only the picture's message, with the focus on the picture field", async ({ page }) => {
    await logIn(page, ADMIN);
    await page.goto("/add-product");
    const save = page.getByRole("button", { name: f.addHeading });
    await hydrated(save, 30_000);
    await page.getByLabel("Product Name").fill("tiny fern");
    await page.getByLabel("Product Description").fill("Small and green.");
    await page.getByLabel("Product Price").fill("twelve");
    await page.getByLabel("Product Category").fill("Indoor Plants");
    await page.getByLabel("Stock Quantity").fill("-3");
    await save.click();
    await expectMessagesOnFields(page, [
      { field: page.getByLabel("Product Price"), message: f.priceInvalid },
      { field: page.getByLabel("Product Images", { exact: true }), message: f.imagesRequired },
      { field: page.getByLabel("Stock Quantity"), message: f.stockInvalid },
    ]);
    await expect(page.getByLabel("Product Price")).toBeFocused();

    await page.getByLabel("Product Price").fill("250");
    await page.getByLabel("Stock Quantity").fill("3");
    await save.click();
    await expect(page.getByText(f.priceInvalid, { exact: true })).toHaveCount(0);
    await expect(page.getByText(f.stockInvalid, { exact: true })).toHaveCount(0);
    await expectMessagesOnFields(page, [{ field: page.getByLabel("Product Images", { exact: true }), message: f.imagesRequired }]);
    await expect(page.getByLabel("Product Images", { exact: true })).toBeFocused();
    await expect(page).toHaveURL(urlIs("/add-product"));
  });

  test("without JavaScript, an empty Add Product form is answered by the server with the failure line and all six messages at once, each tied to its field", async ({ browser }) => {
    const { context, page } = await adminWithoutJavaScript(browser);
    await page.goto("/add-product");
    await page.getByRole("button", { name: f.addHeading }).click();
    await expect(page.getByRole("alert").getByText(f.failed, { exact: true })).toBeVisible();
    await expect(page.getByTestId("failure-reason")).toHaveText(f.nameRequired);
    await expectMessagesOnFields(page, productFields(page));
    await expect(page.locator(".field-error")).toHaveCount(6);
    await expect(page).toHaveURL(urlIs("/add-product"));
    await context.close();
  });

  test("an emptied Update Product form shows all five of its messages at once (no picture is needed to keep a product), with and without JavaScript", async ({ page, browser, shopDb }) => {
    const plant = await createProduct(shopDb.db, { name: unique("Emptied Fern"), images: ["/illustrations/products/aloe-vera-1.svg"] });
    const updateFields = (on: Page) => productFields(on).filter(({ message }) => message !== f.imagesRequired);
    const emptyAndSave = async (on: Page) => {
      for (const { field } of updateFields(on)) await field.fill("");
      await on.getByRole("button", { name: f.updateHeading }).click();
    };

    await logIn(page, ADMIN);
    await page.goto(`/product/${plant.id}/edit`);
    const remove = page.getByRole("button", { name: "Remove Picture 1" });
    await hydrated(remove, 30_000);
    await remove.click();
    await emptyAndSave(page);
    await expectMessagesOnFields(page, updateFields(page));
    await expect(page.locator(".field-error")).toHaveCount(5);
    await expect(page.getByText(f.imagesRequired, { exact: true })).toHaveCount(0);
    await expect(page.getByLabel("Product Name")).toBeFocused();

    const { context, page: plain } = await adminWithoutJavaScript(browser);
    await plain.goto(`/product/${plant.id}/edit`);
    await emptyAndSave(plain);
    await expect(plain.getByRole("alert").getByText(f.failed, { exact: true })).toBeVisible();
    await expectMessagesOnFields(plain, updateFields(plain));
    await expect(plain.locator(".field-error")).toHaveCount(5);
    await context.close();
    expect((await shopDb.db.selectFrom("products").select("name").where("id", "=", plant.id).executeTakeFirstOrThrow()).name).toBe(plant.name);
  });

  test("an admin creates a product with two pictures (one over 5 MiB, sent in 5 MiB chunks) and a new category; its page shows the capitalised name and the stock", async ({ page, shopDb }) => {
    // Saving decodes three pictures into WebP and AVIF at several widths: seconds each, minutes on a loaded machine.
    test.setTimeout(360_000);
    const big = await largeSmoothPng(1400, 1400); // about 5.9 MB: more than one 5 MiB chunk
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const small = await noisePng(200, 150);
    let patches = 0;
    page.on("request", (request) => {
      if (request.method() === "PATCH" && new URL(request.url()).pathname.startsWith("/api/uploads/")) patches += 1;
    });
    await logIn(page, ADMIN);
    await page.goto("/add-product");
    const name = unique("velvet calathea");
    const categoryName = unique("Prayer Plants");
    await page.getByLabel("Product Name").fill(name);
    await page.getByLabel("Product Description").fill("Leaves that fold up at night.");
    await page.getByLabel("Product Price").fill("1,249.50");
    const productImages = page.getByLabel("Product Images", { exact: true });
    await hydrated(productImages, 30_000);
    await productImages.setInputFiles([
      { name: "calathea-big.png", mimeType: "image/png", buffer: big },
      { name: "calathea-small.png", mimeType: "image/png", buffer: small },
    ]);
    await page.getByLabel("Category Image", { exact: true }).setInputFiles({ name: "prayer.png", mimeType: "image/png", buffer: small });
    await page.getByLabel("Product Category").fill(categoryName);
    await page.getByLabel("Stock Quantity").fill("6");
    // The small file goes first: the cover is the first picture.
    await page.getByRole("button", { name: "Move calathea-small.png earlier" }).click();
    await expect(page.locator('input[type="hidden"][name="images"]')).toHaveCount(2, { timeout: 60_000 });
    await expect(page.locator('input[type="hidden"][name="categoryImage"]')).toHaveCount(1);
    await page.getByRole("button", { name: f.addHeading }).click();

    await expect(page).toHaveURL(/\/product\/[\w-]+$/, { timeout: 240_000 });
    const saved = name[0]!.toUpperCase() + name.slice(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(saved);
    await expect(page.getByText(messages.product.availableStock(6))).toBeVisible();
    // Three files, the big one in two 5 MiB chunks: four PATCH requests (three, had it gone in one piece).
    expect(patches, "tus PATCH requests").toBeGreaterThanOrEqual(4);

    const productId = new URL(page.url()).pathname.split("/").pop()!;
    const product = await shopDb.db
      .selectFrom("products as p")
      .innerJoin("categories as c", "c.id", "p.category_id")
      .select(["p.name", "p.price_paise", "p.stock", "c.name as category", "c.description"])
      .where("p.id", "=", productId)
      .executeTakeFirstOrThrow();
    expect(product).toEqual({ name: saved, price_paise: 124_950, stock: 6, category: categoryName, description: "Default description" });
    const pictures = await shopDb.db.selectFrom("product_images").select(["width", "height"]).where("product_id", "=", productId).orderBy("position").execute();
    expect(pictures).toEqual([{ width: 200, height: 150 }, { width: 1280, height: 1280 }]);
  });

  test("an admin edits a product as 'Update Product': the name's first letter is upper-cased, pictures reordered and one removed, the page shows the new stock", async ({ page, shopDb }) => {
    const category = await createCategory(shopDb.db, { name: unique("Edit Shelf") });
    const plant = await createProduct(shopDb.db, {
      name: unique("Edit Fern"),
      category_id: category.id,
      stock: 4,
      images: ["/illustrations/products/aloe-vera-1.svg", "/illustrations/products/aloe-vera-2.svg", "/illustrations/products/cactus-plant-1.svg"],
    });
    await logIn(page, ADMIN);
    await page.goto(`/product/${plant.id}`);
    await page.getByRole("link", { name: "Edit product" }).click();
    await expect(page).toHaveURL(urlIs(`/product/${plant.id}/edit`));
    await expect(page.getByRole("heading", { name: f.updateHeading, level: 1 })).toBeVisible();
    await expect(page.getByLabel("Product Name")).toHaveValue(plant.name);
    await expect(page.getByLabel("Product Price")).toHaveValue("999");
    await expect(page.getByLabel("Product Category")).toHaveValue(category.name);
    await expect(page.getByLabel("Stock Quantity")).toHaveValue("4");

    const newName = unique("renamed fern");
    await page.getByLabel("Product Name").fill(newName);
    await page.getByLabel("Stock Quantity").fill("17");
    const moveThird = page.getByRole("button", { name: "Move Picture 3 earlier" });
    await hydrated(moveThird, 30_000);
    await moveThird.click();
    await moveThird.click();
    await page.getByRole("button", { name: "Remove Picture 2" }).click();
    await page.getByRole("button", { name: f.updateHeading }).click();

    await expect(page).toHaveURL(urlIs(`/product/${plant.id}`));
    const saved = newName[0]!.toUpperCase() + newName.slice(1);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(saved);
    await expect(page.getByText(messages.product.availableStock(17))).toBeVisible();
    const images = await shopDb.db.selectFrom("product_images").select("url").where("product_id", "=", plant.id).orderBy("position").execute();
    expect(images).toEqual([{ url: "/illustrations/products/cactus-plant-1.svg" }, { url: "/illustrations/products/aloe-vera-1.svg" }]);
  });

  test("a stock changed by someone else while the edit form is open stays when the form is saved with its stock untouched; a changed stock is then refused with the stock now, and set when saved again", async ({ page, shopDb, consoleErrors }) => {
    const plant = await createProduct(shopDb.db, { name: unique("Selling Fern"), stock: 10 });
    const stockNow = async () => (await shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow()).stock;
    // Someone else — the owner in a second session, through the admin API — moves the stock while this form is
    // open, as a sale would: the form knows only the stock it showed, whoever changed it since.
    const lowerElsewhere = async (units: number) => setStockAsAdmin(plant.id, (await stockNow()) - units);
    const save = page.getByRole("button", { name: f.updateHeading });
    /** Opens the edit form, showing `stock`, and waits until it is interactive. */
    const openForm = async (stock: number) => {
      await page.goto(`/product/${plant.id}/edit`);
      await expect(page.getByLabel("Stock Quantity")).toHaveValue(String(stock));
      await hydrated(save, 30_000);
    };
    await logIn(page, ADMIN);
    await openForm(10);

    await lowerElsewhere(4);
    await page.getByLabel("Product Description").fill("Repotted this spring.");
    await save.click();
    await expect(page).toHaveURL(urlIs(`/product/${plant.id}`));
    await expect(page.getByText(messages.product.availableStock(6))).toBeVisible();
    expect(await stockNow()).toBe(6);

    await openForm(6);
    await lowerElsewhere(1);
    await page.getByLabel("Stock Quantity").fill("20");
    await save.click();
    await expect(page.getByTestId("failure-reason")).toHaveText(f.stockChanged(5));
    expect(await stockNow()).toBe(5);
    await save.click();
    await expect(page).toHaveURL(urlIs(`/product/${plant.id}`));
    expect(await stockNow()).toBe(20);
    allowStatusLogs(consoleErrors, 409);
  });

  test("on a 390 px phone /admin/products scrolls its table sideways, never the whole page", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, ADMIN);
    await page.goto("/admin/products");
    await expect(page.getByRole("heading", { name: adminMessages.products.heading, level: 1 })).toBeVisible();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBe(widths.screen);
  });

  test("/admin/products lists lowest stock first, saves a stock in place, and deletes a product after its confirmation", async ({ page, shopDb }) => {
    const plant = await createProduct(shopDb.db, { name: unique("Admin List Fern"), stock: 0 });
    await logIn(page, ADMIN);
    await page.goto("/admin/products");
    await expect(page.getByRole("heading", { name: adminMessages.products.heading, level: 1 })).toBeVisible();
    const firstStock = await page.getByTestId("admin-product-row").first().getByRole("textbox").inputValue();
    expect(firstStock).toBe("0");

    await page.getByLabel("Search by name").fill(plant.name);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByTestId("admin-product-row");
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("link", { name: plant.name })).toHaveAttribute("href", `/product/${plant.id}/edit`);

    await row.getByLabel(`Stock of ${plant.name}`).fill("8");
    await row.getByRole("button", { name: "Save" }).click();
    await expect(row.getByText(adminMessages.products.stockSaved)).toBeVisible();
    expect((await shopDb.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirst())?.stock).toBe(8);

    await row.getByText("Delete", { exact: true }).click();
    await expect(row.getByText(adminMessages.products.confirmDelete(plant.name))).toBeVisible();
    await row.getByRole("button", { name: `Yes, delete ${plant.name}` }).click();
    await expect(page.getByText(adminMessages.products.deleted)).toBeVisible();
    expect(await shopDb.db.selectFrom("products").select("id").where("id", "=", plant.id).execute()).toEqual([]);
    expect((await page.request.get(`/product/${plant.id}`)).status()).toBe(404);
  });

  test("/admin/categories renames a category and refuses to delete one that still has products", async ({ page, shopDb, consoleErrors }) => {
    const category = await createCategory(shopDb.db, { name: unique("Aardvark Shelf") });
    await createProduct(shopDb.db, { category_id: category.id });
    await logIn(page, ADMIN);
    await page.goto("/admin/categories");
    const row = page.getByTestId("admin-category-row").filter({ has: page.getByRole("link", { name: category.name }) });
    const newName = unique("Aardvark Ledge");
    await row.getByLabel(`New name for ${category.name}`).fill(newName);
    await row.getByRole("button", { name: "Rename" }).click();
    await expect(page.getByText(adminMessages.category.renamed)).toBeVisible();
    const renamed = page.getByTestId("admin-category-row").filter({ has: page.getByRole("link", { name: newName }) });
    await renamed.getByText("Delete", { exact: true }).click();
    await renamed.getByRole("button", { name: `Yes, delete ${newName}` }).click();
    await expect(page.getByText(adminMessages.category.inUse)).toBeVisible();
    expect(await shopDb.db.selectFrom("categories").select("name").where("id", "=", category.id).execute()).toEqual([{ name: newName }]);
    allowStatusLogs(consoleErrors, 409);
  });

  test("/admin/categories shows a refused rename under its name field, which it marks invalid and describes, and announces it", async ({ page, shopDb, consoleErrors }) => {
    const taken = await createCategory(shopDb.db, { name: unique("Aardvark Corner") });
    const category = await createCategory(shopDb.db, { name: unique("Aardvark Nook") });
    await logIn(page, ADMIN);
    await page.goto("/admin/categories");
    const row = page.getByTestId("admin-category-row").filter({ has: page.getByRole("link", { name: category.name }) });
    const field = row.getByLabel(`New name for ${category.name}`);
    await expect(field).not.toHaveAttribute("aria-invalid", "true");
    await field.fill(taken.name);
    await row.getByRole("button", { name: "Rename" }).click();
    await expectMessagesOnFields(page, [{ field, message: adminMessages.category.nameTaken }]);
    await expect(row.getByRole("alert")).toHaveText(adminMessages.category.nameTaken);
    expect(await shopDb.db.selectFrom("categories").select("name").where("id", "=", category.id).execute()).toEqual([{ name: category.name }]);
    allowStatusLogs(consoleErrors, 409);
  });

  test("a signed-in shopper gets the 403 page on every admin page; a visitor is sent to log in", async ({ page, shopDb, consoleErrors }) => {
    const plant = await createProduct(shopDb.db, { name: unique("Guarded Fern") });
    const pages = ["/add-product", `/product/${plant.id}/edit`, "/admin/products", "/admin/categories"];
    for (const path of pages) {
      await page.context().clearCookies();
      await page.goto(path);
      await expect(page).toHaveURL(urlIs(`/login?redirectTo=${encodeURIComponent(path)}`));
    }
    await signedInUnverified(page, shopDb);
    for (const path of pages) {
      const answer = await page.goto(path);
      expect(answer?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { name: messages.auth.forbidden })).toBeVisible();
      expect((await page.request.post(path, { form: { intent: "delete", productId: plant.id, name: "x", stock: "1" }, headers: { Origin: new URL(page.url()).origin } })).status(), `POST ${path}`).toBe(403);
    }
    expect(await shopDb.db.selectFrom("products").select("id").where("id", "=", plant.id).execute()).toHaveLength(1);
    allowStatusLogs(consoleErrors, 403);
  });
});
