import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { createApp } from "../server/app.ts";
import { composeShop } from "../server/compose.ts";
import { loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/platform/db/client.ts";
import { migrateToLatest } from "../server/migrations.ts";
import { insertShoppers, SHOP_AUTH_SECRET } from "../tests/support/shop-process.ts";

// The audit's disk flood: accounts on one address creating resumable uploads of 20 MB as fast as they can, each
// case on a fresh shop (SQLite in a temporary folder, the shop's default settings, served on 127.0.0.1:BENCH_PORT)
// for at most BENCH_SECONDS. Each account stops at its first refusal. For each case it prints the uploads made,
// the bytes they declared (what the shop has agreed to hold), the bytes written, what the uploads folder holds at
// the end, the answers and the first refusal's message. Nothing here asserts a figure.
//   npx tsx bench/upload-flood.ts        (BENCH_PORT=5450, BENCH_SECONDS=15)
const PORT = Number(process.env.BENCH_PORT ?? 5450);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const MiB = 1024 * 1024;
const UPLOAD_BYTES = 20 * MiB;
const CHUNK = new Uint8Array(5 * MiB).fill(0x2e);
const TUS = { "Tus-Resumable": "1.0.0" };

interface Case {
  name: string;
  accounts: number;
  admins: boolean;
  purpose: string;
  /** Send every byte (PATCHes of 5 MB), or only create the upload (the declared length is what the quotas count). */
  write: boolean;
  /** Settings of this case's shop, over the defaults. */
  env?: NodeJS.ProcessEnv;
}

const CASES: Case[] = [
  { name: "8 shoppers, profile uploads written in full (the audit's reproducer)", accounts: 8, admins: false, purpose: "profile", write: true },
  { name: "1 admin, product uploads written in full", accounts: 1, admins: true, purpose: "product", write: true },
  { name: "8 admins, product uploads declared, nothing written", accounts: 8, admins: true, purpose: "product", write: false },
  {
    // The real statfs of the temporary folder's disk, with a reserve larger than any disk has free.
    name: "1 admin, product uploads declared, MIN_FREE_DISK_MB=10000000 (a disk below its reserve)",
    accounts: 1,
    admins: true,
    purpose: "product",
    write: false,
    env: { MIN_FREE_DISK_MB: "10000000" },
  },
];

async function startShop(env: NodeJS.ProcessEnv = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-upload-flood-"));
  const url = `http://127.0.0.1:${PORT}`;
  const config = loadConfig({
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(PORT),
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    AUTH_SECRET: SHOP_AUTH_SECRET,
    SEED_SAMPLE_DATA: "false",
    PAGE_CACHE_SECONDS: "0",
    LOG_LEVEL: "silent",
    ...env,
  });
  const logger = pino({ level: "silent" });
  const database = openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
  await migrateToLatest(database);
  const { services, infrastructure, closeMail, endLiveStreams, closeChanges } = await composeShop(config, database, logger);
  const { listener } = createApp({ config, services, infrastructure, logger, health: { ready: true } });
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(PORT, "127.0.0.1", resolve));
  return {
    url,
    dataDir,
    database,
    services,
    async stop() {
      endLiveStreams();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await closeMail(1000);
      await closeChanges();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Tally {
  made: number;
  declared: number;
  written: number;
  statuses: Record<number, number>;
  refusal?: string;
}

async function flood(url: string, cookie: string, flood: Case, deadline: number, tally: Tally) {
  const metadata = `purpose ${Buffer.from(flood.purpose).toString("base64")}`;
  while (Date.now() < deadline) {
    const created = await fetch(`${url}/api/uploads`, {
      method: "POST",
      headers: { ...TUS, Origin: url, Cookie: cookie, "Upload-Length": String(UPLOAD_BYTES), "Upload-Metadata": metadata },
    });
    const body = await created.text();
    tally.statuses[created.status] = (tally.statuses[created.status] ?? 0) + 1;
    if (created.status !== 201) {
      tally.refusal ??= `${created.status} ${body.slice(0, 160)}`;
      return;
    }
    tally.made++;
    tally.declared += UPLOAD_BYTES;
    if (!flood.write) continue;
    const location = `${url}${created.headers.get("Location")}`;
    for (let offset = 0; offset < UPLOAD_BYTES && Date.now() < deadline; offset += CHUNK.byteLength) {
      const sent = await fetch(location, {
        method: "PATCH",
        headers: { ...TUS, Origin: url, Cookie: cookie, "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" },
        body: CHUNK,
      });
      await sent.arrayBuffer();
      if (sent.status !== 204) break;
      tally.written += CHUNK.byteLength;
    }
  }
}

function folderBytes(folder: string): number {
  let bytes = 0;
  for (const name of (() => {
    try {
      return readdirSync(folder);
    } catch {
      return [];
    }
  })()) {
    bytes += statSync(path.join(folder, name)).size;
  }
  return bytes;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

for (const flooding of CASES) {
  const shop = await startShop(flooding.env);
  try {
    const accounts = await insertShoppers(shop.database.db, flooding.accounts, { password: "monstera-deliciosa-77", prefix: "flood", dialect: "sqlite" });
    if (flooding.admins) {
      const rows = await shop.database.db.selectFrom("users").select("email").execute();
      for (const row of rows) await shop.services.accounts.setAdmin(row.email, true);
    }
    const tally: Tally = { made: 0, declared: 0, written: 0, statuses: {} };
    const started = performance.now();
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(accounts.map((account) => flood(shop.url, account.cookie, flooding, deadline, tally)));
    const seconds = (performance.now() - started) / 1000;
    console.log(
      [
        `${flooding.name}:`,
        `  ${tally.made} uploads in ${seconds.toFixed(1)} s (budget ${SECONDS} s); declared ${mb(tally.declared)}, written ${mb(tally.written)}, uploads folder ${mb(folderBytes(path.join(shop.dataDir, "uploads")))}`,
        `  answers to POST: ${JSON.stringify(tally.statuses)}${tally.refusal ? `; first refusal: ${tally.refusal}` : ""}`,
      ].join("\n"),
    );
  } finally {
    await shop.stop();
  }
}
