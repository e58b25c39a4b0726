import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase } from "../../server/platform/db/client.ts";
import { serverEnvironment } from "../support/server-env.ts";
import { expect, test } from "./support/fixtures.ts";
import { COMPILED_SERVER, extraPort } from "../support/shop-process.ts";
import { PRODUCTION_NODE_FLAGS } from "../support/server-env.ts";
import { hydrated } from "./support/pages.ts";

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startShop(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, COMPILED_SERVER], {
    env: serverEnvironment({ NODE_ENV: "production", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitUntilReady(url: string, started: Started) {
  await expect
    .poll(async () => (await fetch(`${url}/healthz`).catch(() => undefined))?.status, { timeout: 30_000, message: started.output() })
    .toBe(200);
}

test.describe("the server process", () => {
  test("a second server on the same SQLite data folder refuses to start, saying why", async () => {
    const second = startShop({ DATA_DIR: process.env.E2E_DATA_DIR!, PORT: String(extraPort(0)) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain("Another Plant Shop server is already using the data folder");
  });

  test("a bad setting stops start-up with a message naming it", async () => {
    const bad = startShop({ PORT: "not-a-port", DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "plant-shop-bad-")) });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("PORT: must be a port number");
  });

  test("an unexpected failure shows the error screen with status 500 and no details; SIGTERM stops cleanly", async ({ browser }) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-broken-"));
    const url = `http://127.0.0.1:${extraPort(1)}`;
    const shop = startShop({ DATA_DIR: dataDir, PORT: String(extraPort(1)), PUBLIC_URL: url });
    await waitUntilReady(url, shop);

    // Break the database under the running server. This write is the fault under test, not set-up: a table the
    // server's queries need is gone, so the next request fails in a way nothing in the shop would cause itself,
    // and the test proves how such an unexpected failure is answered.
    const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
    await database.db.schema.dropTable("product_images").execute();
    await database.destroy();

    const page = await browser.newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(500);
    await expect(page.getByRole("heading", { name: messages.unexpectedError })).toBeVisible();
    const html = await response!.text();
    expect(html).not.toContain("product_images");
    expect(html).not.toMatch(/at .*\.(ts|js):\d+/);
    await page.close();

    const api = await fetch(`${url}/api/products`);
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ message: expect.stringContaining("Something went wrong") });

    shop.child.kill("SIGTERM");
    expect(await shop.exited).toBe(0);
    expect(shop.output()).toContain("Plant Shop stopped");
  });

  test("cached pages replayed to a second visitor (home, shop, product, category) still run their scripts under the CSP's script hashes", async ({ browser }) => {
    test.setTimeout(120_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-cached-"));
    const url = `http://127.0.0.1:${extraPort(2)}`;
    const shop = startShop({ DATA_DIR: dataDir, PORT: String(extraPort(2)), PUBLIC_URL: url, PAGE_CACHE_SECONDS: "60" });
    // Stopped even when a check fails, so that a rerun does not meet this server on its port.
    try {
      await waitUntilReady(url, shop);
      const product = ((await (await fetch(`${url}/api/products?limit=1`)).json()) as { items: { id: string }[] }).items[0]!;
      const category = ((await (await fetch(`${url}/api/categories`)).json()) as { items: { id: string }[] }).items[0]!;
      for (const pagePath of ["/", "/shop", `/product/${product.id}`, `/category/${category.id}`]) {
        for (const visit of ["miss", "hit"]) {
          const context = await browser.newContext();
          const page = await context.newPage();
          const errors: string[] = [];
          page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
          await page.addInitScript(() => {
            const seen: string[] = [];
            (window as unknown as { cspViolations: string[] }).cspViolations = seen;
            document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
          });
          const response = await page.goto(url + pagePath);
          expect(response?.headers()["x-page-cache"], `${pagePath} ${visit}`).toBe(visit === "hit" ? "hit" : undefined);
          // The same bytes go to every visitor, so the policy names the page's inline scripts by hash (decision 004).
          expect(response?.headers()["content-security-policy"]).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
          expect(response?.headers()["content-security-policy"]).not.toContain("'nonce-");
          if (pagePath === "/") {
            // Hydrated (the page's inline scripts ran): the carousel's buttons respond.
            const carousel = page.getByRole("region", { name: "Featured" });
            const pause = carousel.getByRole("button", { name: "Pause slideshow" });
            await hydrated(pause);
            await pause.click();
            await expect(carousel.getByRole("button", { name: "Play slideshow" })).toBeVisible();
          } else {
            await hydrated(page.getByRole("link", { name: /^Cart\b/ }).first());
          }
          expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
          expect(errors).toEqual([]);
          await context.close();
        }
      }
    } finally {
      shop.child.kill("SIGTERM");
    }
    expect(await shop.exited).toBe(0);
  });
});
