import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { Page, Response } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { createProduct } from "../support/factories.ts";
import { startNginx, stopNginx, waitForNginx, type Nginx } from "../support/nginx.ts";
import { extraPort, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";
import { CHROMIUM_LAUNCH } from "./support/chromium.ts";
import { expect as baseExpect, test } from "./support/fixtures.ts";
import { hydrated, mainNav, submitLogin, submitRegistration, toast, urlIs } from "./support/pages.ts";
import { addToCart, cartCountName, cartLink, fillShipping, shipping } from "./support/shopper.ts";

// The shop behind a real TLS-terminating proxy (decision 011): Debian's nginx with a self-signed
// certificate in front of a production server that speaks http, with TRUST_PROXY=1 and an https PUBLIC_URL.
// Chromium goes through https only. Its two ports are reserved ones after E2E_SMTP_PORT (4319 and 4320), so parallel
// checkouts with their own E2E_PORT do not collide.

const PROXY_PORT = extraPort(0);
const SHOP_PORT = extraPort(1);
const PUBLIC_URL = `https://127.0.0.1:${PROXY_PORT}`;
const ADMIN = { email: "owner@proxied-shop.test", password: "behind-nginx-owner-password-4" };

// The first pages of a freshly started server, through the proxy, on a busy machine: more than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });

const state: { nginx?: Nginx; shop?: ShopProcess; database?: Database } = {};

// The self-signed certificate is accepted by this spec's own Chromium at its network layer, as a shopper's browser
// accepts a real one: no certificate error ever reaches the page. Accepted per page instead (ignoreHTTPSErrors),
// each new connection's error restarted its request, and a stylesheet once failed with ERR_TOO_MANY_RETRIES, the
// error Chromium gives a request restarted past its limit.
test.use({ launchOptions: { ...CHROMIUM_LAUNCH, args: [...(CHROMIUM_LAUNCH.args ?? []), "--ignore-certificate-errors"] } });

/** A self-signed certificate for 127.0.0.1, kept in nginx's folder (the key readable by its owner only). */
function writeCertificate(dir: string) {
  const tls = path.join(dir, "tls");
  mkdirSync(tls, { mode: 0o700 });
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", path.join(tls, "key.pem"), "-out", path.join(tls, "cert.pem"),
  ], { stdio: "pipe" });
}

/** nginx terminating TLS with that certificate and passing every request to the shop over http. */
const httpsProxy = (dir: string) => `  client_max_body_size 12m;
  server {
    listen 127.0.0.1:${PROXY_PORT} ssl;
    ssl_certificate ${dir}/tls/cert.pem;
    ssl_certificate_key ${dir}/tls/key.pem;
    location / {
      proxy_pass http://127.0.0.1:${SHOP_PORT};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }`;

/** GET through the proxy, accepting its self-signed certificate: the status, or undefined while nothing answers. */
function statusThroughProxy(pathname: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = https.get(`${PUBLIC_URL}${pathname}`, { rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on("error", () => resolve(undefined));
  });
}

/** Every Set-Cookie header the browser receives, with the URL that sent it. */
function recordSetCookies(page: Page): { url: string; header: string }[] {
  const seen: { url: string; header: string }[] = [];
  page.on("response", async (response: Response) => {
    const headers = await response.headersArray().catch(() => []);
    for (const { name, value } of headers) if (name.toLowerCase() === "set-cookie") seen.push({ url: response.url(), header: value });
  });
  return seen;
}

/** Every cookie the browser keeps is Secure, and named with the __Host- prefix (bound to this origin). */
async function expectOnlySecureCookies(page: Page, setCookies: { url: string; header: string }[]) {
  const cookies = await page.context().cookies();
  expect(cookies.length, "the shop set cookies").toBeGreaterThan(0);
  for (const cookie of cookies) {
    expect({ name: cookie.name, secure: cookie.secure }, cookie.name).toEqual({ name: expect.stringMatching(/^__Host-plant-shop\./), secure: true });
  }
  expect(setCookies.length, "Set-Cookie headers seen").toBeGreaterThan(0);
  for (const { url, header } of setCookies) {
    expect(url.startsWith(`${PUBLIC_URL}/`), url).toBe(true);
    expect(header, `${url}: ${header}`).toMatch(/^__Host-plant-shop\.[\w.-]+=[^;]*;.*\bSecure\b/i);
  }
}

test.describe("behind a TLS-terminating nginx", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  test.use({ baseURL: PUBLIC_URL });

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    state.nginx = startNginx(httpsProxy, writeCertificate);
    state.shop = startShopProcess({
      port: SHOP_PORT,
      publicUrl: PUBLIC_URL,
      env: { TRUST_PROXY: "1", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
    });
    await waitUntilHealthy(state.shop);
    await waitForNginx(state.nginx, () => statusThroughProxy("/healthz"));
    // Warms the server's page modules up, so the first test does not pay for it.
    for (const pathname of ["/", "/login", "/register"]) expect(await statusThroughProxy(pathname)).toBe(200);
    state.database = openDatabase({ sqliteFile: path.join(state.shop.dataDir, "shop.db") });
  });

  test.afterAll(async () => {
    await state.database?.destroy();
    if (state.nginx) await stopNginx(state.nginx);
    if (state.shop) await stopShopProcess(state.shop);
  });

  test("over https: login, Add to Cart, the JSON API, checkout and the profile form all work, and every cookie is Secure", async ({ page }) => {
    const plant = await createProduct(state.database!.db, { name: `Proxied Pothos ${randomUUID().slice(0, 8)}`, price_paise: 34_900, stock: 5 });
    const setCookies = recordSetCookies(page);

    // Login (a page form: React Router checks the browser's https Origin against the request URL).
    await page.goto("/login");
    expect(page.url().startsWith(`${PUBLIC_URL}/login`)).toBe(true);
    await submitLogin(page, ADMIN);
    await expect(toast(page, messages.auth.loggedIn)).toBeVisible();
    await expect(page).toHaveURL(urlIs("/"));

    // Add to Cart through the page's form, then one more through the JSON API (the shop's own origin check).
    await addToCart(page, plant.id, 1);
    const apiStatus = await page.evaluate(async (productId) => {
      const response = await fetch("/api/cart/items", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ productId, quantity: 1 }) });
      return response.status;
    }, plant.id);
    expect(apiStatus).toBe(201);
    await page.reload();
    await expect(cartLink(page)).toHaveAccessibleName(cartCountName(2));

    // Checkout places the order and redirects to it.
    await page.goto("/checkout");
    await fillShipping(page);
    await page.getByRole("button", { name: messages.checkout.placeOrder }).click();
    await expect(page).toHaveURL(/\/orders\/[\w-]+$/);
    await expect(toast(page, messages.orders.placed)).toBeVisible();
    expect(page.url().startsWith(PUBLIC_URL)).toBe(true);
    const stock = await state.database!.db.selectFrom("products").select("stock").where("id", "=", plant.id).executeTakeFirstOrThrow();
    expect(stock.stock).toBe(3);

    // The profile form saves a change.
    await mainNav(page).getByRole("link", { name: "Your profile" }).click();
    await expect(page).toHaveURL(/\/profile\/[\w-]+$/);
    await page.getByRole("link", { name: "Edit profile" }).click();
    const location = `Pune ${randomUUID().slice(0, 4)}`;
    await hydrated(page.getByRole("button", { name: "Save", exact: true }));
    await page.getByLabel("Phone Number").fill(shipping.phone);
    await page.getByLabel("Address", { exact: true }).fill(shipping.address);
    await page.getByLabel("Location").fill(location);
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page, messages.profile.updated)).toBeVisible();
    const saved = await state.database!.db.selectFrom("users").select(["phone", "address", "location"]).where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
    expect(saved).toEqual({ phone: shipping.phone, address: shipping.address, location });

    await expectOnlySecureCookies(page, setCookies);
    expect(setCookies.some(({ header }) => header.startsWith("__Host-plant-shop.flash=")), "the toast's flash cookie was among them").toBe(true);
    expect(setCookies.some(({ header }) => header.startsWith("__Host-plant-shop.session_token=")), "the session cookie was among them").toBe(true);
  });

  test("over https: registering leads to /verify, which offers the address again from a Secure cookie that does not hold it", async ({ page }) => {
    const setCookies = recordSetCookies(page);
    const tag = randomUUID().slice(0, 8);
    const person = { name: "Leela Nair", username: `proxied_${tag}`, email: `leela.${tag}@example.com`, password: "areca-palm-by-the-window-2" };
    await page.goto("/register");
    await submitRegistration(page, person);
    await expect(page).toHaveURL(urlIs("/verify"));
    await expect(toast(page, messages.auth.accountCreated)).toBeVisible();
    await expect(page.getByLabel("Email"), "ready to send the mail again").toHaveValue(person.email);

    await expectOnlySecureCookies(page, setCookies);
    const pending = (await page.context().cookies()).find((cookie) => cookie.name === "__Host-plant-shop.pending-email");
    expect(pending, "the pending-email cookie").toBeDefined();
    const held = `${pending!.value} ${Buffer.from(decodeURIComponent(pending!.value), "base64").toString("latin1")}`;
    expect(held).not.toContain(person.email);
    expect(held).not.toContain(tag);
  });
});
