import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import pg from "pg";
import { hashPassword } from "../../server/modules/accounts/index.ts";
import { openDatabase, type Database, type Dialect } from "../../server/platform/db/client.ts";
import type { DB } from "../../server/platform/db/schema.ts";
import { toFlag } from "../../server/platform/db/values.ts";
import { PRODUCTION_NODE_FLAGS, serverEnvironment } from "./server-env.ts";

// Production servers (the compiled build/server/main.js, run by node as in production) started as child
// processes, fresh PostgreSQL databases for them, and shoppers with sessions written straight into the
// database — for the multi-process race test, the process tests and the checkout bench.

export const SHOP_AUTH_SECRET = "shop-process-test-secret-0123456789abcdef0123";
const SESSION_COOKIE = "plant-shop.session_token";

export interface ShopProcess {
  url: string;
  child: ChildProcess;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** The compiled server (`npm run build`), as the README's start command and the Dockerfile run it. */
export const COMPILED_SERVER = path.resolve("build/server/main.js");

export interface ShopProcessOptions {
  port: number;
  /** PostgreSQL; without it, SQLite in `dataDir`. */
  databaseUrl?: string;
  /** The data folder: a fresh temporary folder unless given. */
  dataDir?: string;
  /** The address browsers use, when it is not the process's own (behind a proxy). */
  publicUrl?: string;
  /** More settings, over the ones below (TRUST_PROXY, ADMIN_EMAIL…). */
  env?: NodeJS.ProcessEnv;
  /** The compiled server to run: COMPILED_SERVER unless given (bench/checkout-ab.ts runs two builds). */
  server?: string;
  /** More node flags after the production ones (a bench's --trace-gc; node refuses those in NODE_OPTIONS). */
  nodeFlags?: string[];
}

/** Starts `node build/server/main.js` on loopback. */
export function startShopProcess({
  port,
  databaseUrl,
  dataDir = mkdtempSync(path.join(os.tmpdir(), `plant-shop-${port}-`)),
  publicUrl,
  env: extra = {},
  server = COMPILED_SERVER,
  nodeFlags = [],
}: ShopProcessOptions): ShopProcess {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, ...nodeFlags, server], {
    // These settings only: nothing of the caller's shell (SMTP_URL, SHIPPING_FEE_PAISE, …) changes these servers.
    env: serverEnvironment({
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: publicUrl ?? url,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: dataDir,
      AUTH_SECRET: SHOP_AUTH_SECRET,
      SEED_SAMPLE_DATA: "false",
      PAGE_CACHE_SECONDS: "0",
      LOG_LEVEL: "warn",
      ...extra,
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { url, child, dataDir, output: () => output, exited };
}

export async function waitUntilHealthy(shop: ShopProcess, timeoutMs = 60_000) {
  let exitCode: number | null | undefined;
  void shop.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`${shop.url} exited with ${exitCode} while starting:\n${shop.output()}`);
    const status = await fetch(`${shop.url}/healthz`).then((r) => r.status, () => undefined);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${shop.url} did not answer /healthz within ${timeoutMs / 1000} s:\n${shop.output()}`);
}

/**
 * A port for a server that a browser-test file starts itself: the seven after E2E_PORT and E2E_SMTP_PORT
 * (README, "Test it"), so that parallel checkouts given their own E2E_PORT never meet.
 */
export function extraPort(offset: number): number {
  if (offset < 0 || offset > 6) throw new Error(`extraPort(${offset}): only 0 to 6 are reserved`);
  return Number(process.env.E2E_PORT ?? 4317) + 2 + offset;
}

/** What connecting to a loopback port gives: "connected", or the error code (ECONNREFUSED when nothing listens). */
export function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** The live processes below `pid` (Linux /proc): for checking that stopping a parent left no orphan. */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // it ended meanwhile
    }
    // The command name (2nd field) is in parentheses and may hold spaces; the parent is the 2nd field after it.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const child of parents.get(parent) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

/** Whether a process is still running (Linux /proc; an exited process not yet reaped, a zombie, is not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** SIGTERM and wait (SIGKILL after 30 s), then remove the data folder. */
export async function stopShopProcess(shop: ShopProcess) {
  if (shop.child.exitCode === null && shop.child.signalCode === null) {
    shop.child.kill("SIGTERM");
    const killer = setTimeout(() => shop.child.kill("SIGKILL"), 30_000);
    await shop.exited;
    clearTimeout(killer);
  }
  rmSync(shop.dataDir, { recursive: true, force: true });
}

/** The server's error log lines (pino level 50 "error", 60 "fatal"), cut short, for a failure message. */
export function errorLogLines(shops: ShopProcess[]): string {
  const lines = shops.flatMap((shop) =>
    shop
      .output()
      .split("\n")
      .filter((line) => /"level":(50|60)/.test(line))
      .map((line) => `${shop.url} ${line.slice(0, 600)}`),
  );
  return lines.length ? `${lines.length} error lines in the server logs, the first ones:\n${lines.slice(0, 3).join("\n")}` : "no errors in the server logs";
}

async function adminQuery(adminUrl: string, query: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server `adminUrl` names; `drop` removes it (also with connections open). */
export async function createPostgresDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return { url: target.href, drop: () => adminQuery(adminUrl, `drop database if exists "${name}" with (force)`) };
}

/**
 * Production copies of the shop, one per port, on one fresh PostgreSQL database of TEST_DATABASE_URL's server, and
 * a small pool of the test's own on it: for the browser specs of what copies share (playwright.config.ts runs them
 * only when TEST_DATABASE_URL is set). `stop`, for afterAll, ends whatever `start` got to make.
 */
export function copiesOnPostgres(ports: number[], prefix: string) {
  let target: { url: string; drop: () => Promise<void> } | undefined;
  let database: Database | undefined;
  let shops: ShopProcess[] = [];
  return {
    async start(env: Record<string, string> = {}): Promise<{ shops: ShopProcess[]; database: Database }> {
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (!adminUrl) throw new Error("this test needs TEST_DATABASE_URL (playwright.config.ts ignores it otherwise)");
      const created = (target = await createPostgresDatabase(adminUrl, prefix));
      shops = ports.map((port) => startShopProcess({ port, databaseUrl: created.url, env }));
      await Promise.all(shops.map((shop) => waitUntilHealthy(shop)));
      database = openDatabase({ databaseUrl: created.url, poolSize: 2 });
      return { shops, database };
    },
    async stop(): Promise<void> {
      await Promise.all(shops.map((shop) => stopShopProcess(shop)));
      await database?.destroy();
      await target?.drop();
    },
  };
}

/** Better Auth's signed cookie (better-call): `${token}.${base64 HMAC-SHA256(secret, token)}`, URL-encoded. */
export function sessionCookie(token: string, secret = SHOP_AUTH_SECRET): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `${SESSION_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** The session cookie (name=value) a sign-in answered with. */
export function cookieFrom(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`) && !/Max-Age=0/i.test(c));
  if (!cookie) throw new Error(`no session cookie in: ${response.headers.getSetCookie().join(" | ")}`);
  return cookie.split(";")[0]!;
}

/**
 * Verified shoppers with a password account and a live session each, written straight into the database
 * (every request of a test comes from 127.0.0.1, and sign-up and sign-in are rate-limited per address).
 */
export async function insertShoppers(db: Kysely<DB>, count: number, { password, prefix, dialect = "postgres" }: { password: string; prefix: string; dialect?: Dialect }) {
  const passwordHash = await hashPassword(password);
  const iso = new Date().toISOString();
  const ids = Array.from({ length: count }, () => randomUUID());
  await db
    .insertInto("users")
    .values(ids.map((id, i) => ({ id, name: `Shopper ${i + 1}`, email: `${prefix}-${id}@example.com`, emailVerified: toFlag(dialect, true), username: `${prefix.slice(0, 4)}_${id.slice(0, 12)}`, role: "user", createdAt: iso, updatedAt: iso })))
    .execute();
  await db
    .insertInto("accounts")
    .values(ids.map((id) => ({ id: randomUUID(), accountId: id, providerId: "credential", userId: id, password: passwordHash, createdAt: iso, updatedAt: iso })))
    .execute();
  const cookies = await insertSessions(db, ids);
  return ids.map((id, i) => ({ userId: id, cookie: cookies[i]! }));
}

/** A live session for each user, written straight into the database; answers their cookies, signed with the server's secret. */
export async function insertSessions(db: Kysely<DB>, userIds: string[], secret = SHOP_AUTH_SECRET): Promise<string[]> {
  const now = new Date();
  const iso = now.toISOString();
  const expiresAt = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000).toISOString();
  const sessions = userIds.map((userId) => ({ id: randomUUID(), token: randomBytes(16).toString("hex"), userId, expiresAt, createdAt: iso, updatedAt: iso }));
  await db.insertInto("sessions").values(sessions).execute();
  return sessions.map(({ token }) => sessionCookie(token, secret));
}
