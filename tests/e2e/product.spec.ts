import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { expect, seriousAccessibilityViolations, test } from "./support/fixtures.ts";
import { hydrated } from "./support/pages.ts";

test.describe("product page", () => {
  test("shows pictures, name, description, price, stock and Add to Cart", async ({ page, shopDb }) => {
    const snake = await shopDb.db.selectFrom("products").selectAll().where("name", "=", "Snake Plant").executeTakeFirstOrThrow();
    await page.goto(`/product/${snake.id}`);
    await expect(page).toHaveTitle("Snake Plant | Plant Shop");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Snake Plant");
    await expect(page.getByText(snake.description)).toBeVisible();
    await expect(page.getByText("Rs. 1,500", { exact: true })).toBeVisible();
    await expect(page.getByText(messages.product.availableStock(snake.stock))).toBeVisible();

    const pictures = page.getByRole("region", { name: "Pictures of Snake Plant" });
    await expect(pictures.getByRole("group", { includeHidden: true })).toHaveCount(2);
    await pictures.getByRole("button", { name: "Next slide" }).click();
    await expect(pictures.getByRole("group", { name: "2 of 2" })).toHaveAttribute("data-selected", "true");
    await expect(pictures.getByRole("img", { name: "Snake Plant, picture 2 of 2" })).toBeVisible();

    // A visitor adds to a cart of their own (tests/e2e/visitor-cart.spec.ts), through the page's own form.
    await expect(page.getByRole("button", { name: messages.product.addToCart })).toBeEnabled();
    await expect(page.locator(`form[action="/product/${snake.id}"]`).getByRole("button", { name: messages.product.addToCart })).toBeVisible();
  });

  test("the picture buttons stay disabled while the swipe engine loads, so no click is lost; once it has loaded they move the pictures", async ({ page, shopDb }) => {
    const snake = await shopDb.db.selectFrom("products").selectAll().where("name", "=", "Snake Plant").executeTakeFirstOrThrow();
    // Hold the engine's chunk back until the page has been looked at.
    let releaseEngine = () => {};
    const engineHeld = new Promise<void>((resolve) => (releaseEngine = resolve));
    let engineAsked = false;
    await page.route(/embla-carousel[^/]*\.js$/, async (route) => {
      engineAsked = true;
      await engineHeld;
      await route.continue();
    });
    await page.goto(`/product/${snake.id}`);
    const pictures = page.getByRole("region", { name: "Pictures of Snake Plant" });
    await hydrated(pictures.getByRole("button", { name: "Next slide" }));
    await expect.poll(() => engineAsked, { message: "the page asks for the swipe engine" }).toBe(true);
    for (const name of ["Previous slide", "Go to slide 1", "Go to slide 2", "Next slide"]) {
      await expect(pictures.getByRole("button", { name })).toBeDisabled();
    }

    releaseEngine();
    await pictures.getByRole("button", { name: "Next slide" }).click();
    await expect(pictures.getByRole("group", { name: "2 of 2" })).toHaveAttribute("data-selected", "true");
    await pictures.getByRole("button", { name: "Go to slide 1" }).click();
    await expect(pictures.getByRole("group", { name: "1 of 2" })).toHaveAttribute("data-selected", "true");
  });

  test("says 'Not in Stock' and disables Add to Cart when none are left", async ({ page, shopDb }) => {
    const product = await createProduct(shopDb.db, { stock: 0 });
    await page.goto(`/product/${product.id}`);
    await expect(page.getByText(messages.product.notInStock)).toBeVisible();
    await expect(page.getByRole("button", { name: messages.product.addToCart })).toBeDisabled();
  });

  test("says 'Loading Product...' while a navigation waits for the product", async ({ page, shopDb }) => {
    const aloe = await shopDb.db.selectFrom("products").select("id").where("name", "=", "Aloe Vera").executeTakeFirstOrThrow();
    await page.goto("/shop?q=aloe");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/product/${aloe.id}.data*`, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("article").getByRole("link").click();
    await expect(page.getByText(messages.product.loading)).toBeVisible();
    release();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Aloe Vera");
    await expect(page.getByText(messages.product.loading)).toHaveCount(0);
  });

  test("carries Product structured data and sharing tags", async ({ page, shopDb }) => {
    const fig = await shopDb.db.selectFrom("products").selectAll().where("name", "=", "Fiddle Leaf Fig").executeTakeFirstOrThrow();
    await page.goto(`/product/${fig.id}`);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({
      "@type": "Product",
      name: "Fiddle Leaf Fig",
      offers: { priceCurrency: "INR", price: "2500.00", availability: "https://schema.org/InStock" },
    });
    const origin = new URL(page.url()).origin;
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${origin}/product/${fig.id}`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", "Fiddle Leaf Fig");
    // Link previews get a PNG rendering of the SVG illustration.
    const image = page.locator('meta[property="og:image"]');
    await expect(image).toHaveAttribute("content", `${origin}/share/illustrations/products/fiddle-leaf-fig-1.png`);
    const png = await page.request.get((await image.getAttribute("content"))!);
    expect(png.headers()["content-type"]).toBe("image/png");
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /violin-shaped/);
  });

  test("has no serious accessibility violations", async ({ page, shopDb }) => {
    const product = await shopDb.db.selectFrom("products").select("id").limit(1).executeTakeFirstOrThrow();
    await page.goto(`/product/${product.id}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
