import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { setStockAsAdmin } from "./support/api.ts";
import { allowStatusLogs, expect, test } from "./support/fixtures.ts";
import { LIVE_UPDATE_TIMEOUT } from "./support/live.ts";
import { addToCart } from "./support/shopper.ts";

// A product page whose live stream the server refuses (the shopper holds every stream their account may have
// open) is an ordinary page: it shows its stock, Add to Cart works, a reload shows fresh stock, and it does not
// ask again. The refusal is the server's own 429, not an imitation of it.

const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
/** The server's cap per client (LIVE_STREAMS_PER_CLIENT's default; the suite's server leaves it unset). */
const PER_CLIENT = 32;

/** Opens a stream from this process as `cookie`'s account, resolving once the server has admitted it. */
function holdStream(productId: string, cookie: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${origin}/api/products/${productId}/events`, { agent: false, headers: { Cookie: cookie } }, (response) => {
      if (response.statusCode === 200) resolve(request);
      else reject(new Error(`holding a stream answered ${response.statusCode}`));
      response.resume();
    });
    request.on("error", reject);
  });
}

test("a product page whose live stream is refused still shows its stock, adds to the cart, shows fresh stock on reload and does not ask again", async ({
  browser,
  shopDb,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const plant = await createProduct(shopDb.db, { stock: 8 });
  const secret = readFileSync(path.join(process.env.E2E_DATA_DIR!, "auth-secret"), "utf8").trim();
  const shopper = await createShopper(shopDb.db, shopDb.dialect, { name: "Meera Pillai" });
  const [cookie] = await insertSessions(shopDb.db, [shopper.id], secret);
  const [name, value] = cookie!.split(/=(.*)/s);
  const held: http.ClientRequest[] = [];
  const context = await browser.newContext({ baseURL: origin });
  try {
    for (let i = 0; i < PER_CLIENT; i++) held.push(await holdStream(plant.id, cookie!));
    await context.addCookies([{ name: name!, value: value!, url: origin }]);
    const page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => consoleErrors.push(error.message));
    // The page's timers run on a clock the test moves on, so that "does not ask again" is seen, not waited for.
    await page.clock.install();
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url() === `${origin}/api/products/${plant.id}/events`) asked.push(request.url());
    });
    const refused = page.waitForResponse((response) => response.url() === `${origin}/api/products/${plant.id}/events`);
    await page.goto(`/product/${plant.id}`);
    expect((await refused).status()).toBe(429);
    await expect(page.getByText(messages.product.availableStock(8))).toBeVisible(LIVE_UPDATE_TIMEOUT);

    // Past every delay of the reconnection schedule (its longest is a minute): a retry would have been asked by now.
    await page.clock.runFor(5 * 60_000);
    expect(asked).toHaveLength(1);

    await addToCart(page, plant.id, 1);

    // Not live, so not told: the stock the owner changed under it shows after a reload.
    await setStockAsAdmin(plant.id, 5);
    const refusedAgain = page.waitForResponse((response) => response.url() === `${origin}/api/products/${plant.id}/events`);
    await page.reload();
    await expect(page.getByText(messages.product.availableStock(5))).toBeVisible(LIVE_UPDATE_TIMEOUT);
    expect((await refusedAgain).status()).toBe(429);
    expect(asked).toHaveLength(2);
  } finally {
    for (const request of held) request.destroy();
    await context.close();
  }
  // Chrome itself logs every answer of 400 and above, the refusal too; the page adds nothing of its own.
  allowStatusLogs(consoleErrors, 429);
});
