import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { openDatabase, type Database } from "../../server/platform/db/client.ts";
import { PRODUCTION_NODE_FLAGS, serverEnvironment } from "../support/server-env.ts";
import { cookieFrom, errorLogLines, extraPort, insertShoppers, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";

// A backup taken by `npm run backup`'s compiled command while shoppers place orders against a running server, then
// restored by `npm run restore`'s into an empty folder and served by a second server: every order answered 201
// before the backup began is there, stock and units sold add up, and the pictures load. SQLite only (on
// PostgreSQL the database is pg_dump's to copy; playwright.config.ts ignores this file there). It needs no browser.

const SHOPPERS = 40;
const STOCK = 5000;
const ADMIN = { email: "owner@backup.test", password: "backup-admin-password-7" };
const shipping = { name: "Asha Kulkarni", phone: "+91 98765 43210", address: "12 Garden Road\nPune 411001", pin: "411001" };

const state: { shops: ShopProcess[]; database?: Database; dirs: string[] } = { shops: [], dirs: [] };

function send(shop: ShopProcess, method: string, pathname: string, body: unknown, cookie?: string) {
  return fetch(`${shop.url}${pathname}`, {
    method,
    headers: { "Content-Type": "application/json", Origin: shop.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
}

async function uploadPicture(shop: ShopProcess, cookie: string, colour: string): Promise<string> {
  const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: colour } }).png().toBuffer();
  const tus = { "Tus-Resumable": "1.0.0", Origin: shop.url, Cookie: cookie };
  const created = await fetch(`${shop.url}/api/uploads`, { method: "POST", headers: { ...tus, "Upload-Length": String(png.byteLength), "Upload-Metadata": `purpose ${btoa("product")}` } });
  expect(created.status).toBe(201);
  const location = new URL(created.headers.get("Location")!, shop.url).href;
  const patched = await fetch(location, { method: "PATCH", headers: { ...tus, "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" }, body: new Uint8Array(png) });
  expect(patched.status).toBe(204);
  return location.split("/").pop()!;
}

/** Runs one of the compiled commands (build/server/backup.js, restore.js) to its end. */
function runCommand(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, path.resolve("build/server", script), ...args], {
    env: serverEnvironment({ NODE_ENV: "production", SEED_SAMPLE_DATA: "false", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

function freshDir(name: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `plant-shop-${name}-`));
  state.dirs.push(dir);
  return dir;
}

test.afterAll(async () => {
  await Promise.all(state.shops.map((shop) => stopShopProcess(shop)));
  await state.database?.destroy();
  for (const dir of state.dirs) rmSync(dir, { recursive: true, force: true });
});

test("a backup taken during an order storm restores to a shop with every order answered before it, stock that adds up, and its pictures", async () => {
  test.setTimeout(90_000);
  const shop = startShopProcess({
    port: extraPort(0),
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, MAX_PENDING_ORDERS: "1000", RATE_LIMIT_SCALE: "1000" },
  });
  state.shops.push(shop);
  await waitUntilHealthy(shop);

  const signedIn = await send(shop, "POST", "/api/auth/sign-in/email", ADMIN);
  expect(signedIn.status, await signedIn.clone().text()).toBe(200);
  const admin = cookieFrom(signedIn);
  const products: string[] = [];
  for (const [name, colour] of [["Backup Monstera", "#52796f"], ["Backup Fern", "#84a98c"]] as const) {
    const form = { name, description: "Large leaves.", price: "499", stock: String(STOCK), category: "Backups", images: [`upload:${await uploadPicture(shop, admin, colour)}`] };
    const categoryImage = products.length ? {} : { categoryImage: `upload:${await uploadPicture(shop, admin, "#2f3e46")}` };
    const created = await send(shop, "POST", "/api/admin/products", { ...form, ...categoryImage }, admin);
    expect(created.status, await created.clone().text()).toBe(201);
    products.push(((await created.json()) as { productId: string }).productId);
  }

  // Shoppers with sessions, written beside the running server into its database (sign-in is limited per address).
  const database = (state.database = openDatabase({ sqliteFile: path.join(shop.dataDir, "shop.db") }));
  const shoppers = await insertShoppers(database.db, SHOPPERS, { password: "monstera-deliciosa-77", prefix: "backup", dialect: "sqlite" });

  // The storm: every shopper, over and over, puts both plants in the cart and checks out, until told to stop.
  let backupBegun = false;
  let stopping = false;
  const answeredBefore: string[] = [];
  const failures: string[] = [];
  const storm = Promise.all(
    shoppers.map(async ({ cookie }) => {
      while (!stopping) {
        for (const productId of products) {
          const added = await send(shop, "POST", "/api/cart/items", { productId, quantity: 1 }, cookie);
          if (added.status !== 201) failures.push(`cart ${added.status} ${await added.text()}`);
          else await added.body?.cancel();
        }
        const before = !backupBegun;
        const placed = await send(shop, "POST", "/api/orders", { ...shipping, idempotencyKey: `backup-${randomUUID()}` }, cookie);
        const body = (await placed.json()) as { id?: string; message?: string };
        if (placed.status !== 201) failures.push(`order ${placed.status} ${body.message}`);
        else if (before) answeredBefore.push(body.id!);
      }
    }),
  );

  // Orders are flowing before the backup begins; the backup runs while they keep coming.
  await expect.poll(() => answeredBefore.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(SHOPPERS);
  const backupDir = freshDir("backups");
  backupBegun = true;
  const ordersBefore = [...answeredBefore];
  const backup = await runCommand("backup.js", [], { DATA_DIR: shop.dataDir, BACKUP_DIR: backupDir });
  stopping = true;
  await storm;
  expect(backup.code, backup.output).toBe(0);
  expect(failures, errorLogLines([shop])).toEqual([]);
  const archive = /Backup written: (\S+)/.exec(backup.output)?.[1];
  expect(archive, backup.output).toMatch(/plant-shop-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.tar\.gz$/);

  // Into an empty folder, as after losing the server; then a server of its own on it.
  const restoredDir = path.join(freshDir("restored"), "data");
  const restore = await runCommand("restore.js", [archive!], { DATA_DIR: restoredDir });
  expect(restore.code, restore.output).toBe(0);
  const restored = startShopProcess({ port: extraPort(1), dataDir: restoredDir });
  state.shops.push(restored);
  await waitUntilHealthy(restored);

  const copy = openDatabase({ sqliteFile: path.join(restoredDir, "shop.db") });
  try {
    const ids = new Set((await copy.db.selectFrom("orders").select("id").execute()).map((o) => o.id));
    expect(ordersBefore.filter((id) => !ids.has(id))).toEqual([]);
    // Something placed while the backup ran is fine either way; the books must balance whichever it is.
    for (const productId of products) {
      const { stock } = await copy.db.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirstOrThrow();
      const variant = await copy.db.selectFrom("product_variants").select("stock").where("product_id", "=", productId).executeTakeFirstOrThrow();
      const sold = await copy.db.selectFrom("order_lines").select((eb) => eb.fn.sum<number>("quantity").as("units")).where("product_id", "=", productId).executeTakeFirstOrThrow();
      expect({ product: stock + Number(sold.units), variant: variant.stock + Number(sold.units) }).toEqual({ product: STOCK, variant: STOCK });
    }
    const pictures = (await copy.db.selectFrom("product_images").select("url").where("product_id", "in", products).execute()).map((p) => p.url);
    expect(pictures).toHaveLength(2);
    for (const url of pictures) {
      expect(url).toMatch(/^\/media\//);
      const response = await fetch(`${restored.url}${url}`);
      expect({ url, status: response.status, type: response.headers.get("content-type") }).toEqual({ url, status: 200, type: expect.stringMatching(/^image\//) });
    }
    for (const productId of products) expect((await fetch(`${restored.url}/api/products/${productId}`)).status).toBe(200);
  } finally {
    await copy.destroy();
  }
});
