import path from "node:path";
import { z } from "zod";
import { messages } from "#common/shared/messages.ts";
import { newPasswordSchema } from "#common/accounts/account-schemas.ts";
import { isCommonPassword } from "./modules/accounts/index.ts";
import { DEFAULT_SHOP_TIME_ZONE, isKnownTimeZone } from "./platform/shop-day.ts";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => ["true", "1", "yes"].includes(value));

// Each variable is documented in README.md and decisions.md ("Configuration").
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  // An empty PORT would coerce to 0 (a random port): refuse it instead.
  PORT: z
    .string()
    .regex(/^\d+$/, "must be a port number")
    .transform(Number)
    .pipe(z.number().int().max(65535, "must be a port number"))
    .default(3000),
  TRUST_PROXY: z.coerce.number({ error: "must be the number of proxies in front of the shop (0 for none)" }).int().min(0).max(10).default(0),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// (leave it unset for the embedded SQLite database)")
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
  SEED_SAMPLE_DATA: booleanFlag.default(true),
  SHOP_NAME: z.string().trim().min(1).max(60).default("Plant Shop"),
  SHOP_AUTHOR: z.string().trim().min(1).max(80).default("the Plant Shop team"),
  // The days of the admin overview ("today", the last 30 days) are days in this zone (docs/decisions/024).
  SHOP_TIME_ZONE: z.string().refine(isKnownTimeZone, "must be an IANA time zone such as Asia/Kolkata").default(DEFAULT_SHOP_TIME_ZONE),
  SHIPPING_FEE_PAISE: z.coerce.number({ error: "must be a whole number of paise" }).int().min(0).max(10_000_000).default(2000),
  // Anonymous pages and catalogue JSON are dropped when they change (docs/decisions/027); this only bounds how long.
  PAGE_CACHE_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).min(0).max(86_400).default(300),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).default("Plant Shop <no-reply@localhost>"),
  CONTACT_EMAIL: z.email({ error: "must be an e-mail address" }).optional(),
  ADMIN_EMAIL: z.email({ error: "must be an e-mail address" }).optional(),
  // The rules of every new password in the shop, so start-up refuses what the register form would (decision 015).
  ADMIN_PASSWORD: newPasswordSchema.refine((password) => !isCommonPassword(password), messages.validation.passwordTooCommon).optional(),
  // Abuse limits (docs/decisions/014): a cap on open Cash-on-Delivery orders, and a factor on every rate limit.
  MAX_PENDING_ORDERS: z.coerce.number({ error: "must be a whole number of orders" }).int().min(1, "must be at least 1").max(1000).default(5),
  RATE_LIMIT_SCALE: z.coerce.number({ error: "must be a number (1 for the shop's limits)" }).positive("must be more than 0").max(10_000).default(1),
  // Live product pages' event streams (docs/decisions/033): at most this many per client (address, or signed-in
  // account), and at most this many for the process, further bounded by half its open-file limit.
  LIVE_STREAMS_PER_CLIENT: z.coerce.number({ error: "must be a whole number of streams" }).int().min(1, "must be at least 1").max(1000, "must be at most 1000").default(32),
  LIVE_STREAMS_MAX: z.coerce.number({ error: "must be a whole number of streams" }).int().min(1, "must be at least 1").max(1_000_000, "must be at most 1000000").default(10_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Under the 10 s a container runtime waits between SIGTERM and SIGKILL (docs/decisions/012).
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number({ error: "must be a number of seconds" }).min(0).max(3600).default(8),
});

export interface Config {
  mode: "development" | "production" | "test";
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: URL;
  seedSampleData: boolean;
  /** How many proxies in front of the shop append to X-Forwarded-For (server/platform/http/client-ip.ts). */
  trustProxy: number;
  /** How long a page rendered for a visitor without cookies is reused; 0 turns the cache off. */
  pageCacheSeconds: number;
  shop: PublicShopConfig;
  /** The shop's time zone: what "today" means on the admin overview. */
  timeZone: string;
  logLevel: z.output<typeof envSchema>["LOG_LEVEL"];
  /** How long shutdown may take: requests in flight, then the e-mails they queued, share it. */
  shutdownTimeoutMs: number;
  /** Signs sessions and e-mail links; when unset, generated once and kept in DATA_DIR/auth-secret. */
  authSecret: string | undefined;
  mail: { smtpUrl: string | undefined; from: string; contactEmail: string | undefined };
  admin: { email: string; password: string } | undefined;
  limits: {
    /** Pending Cash-on-Delivery orders one account may have at once. */
    maxPendingOrders: number;
    /** Multiplies every rate limit; 1 keeps the shop's own (the browser tests' server uses a large one). */
    rateLimitScale: number;
    /** Live product streams: per client, and for the process before its open-file limit bounds it further. */
    liveStreams: { perClient: number; max: number };
  };
}

/** The only part of the configuration that reaches the browser. */
export interface PublicShopConfig {
  name: string;
  author: string;
  shippingFeePaise: number;
  publicUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Plant Shop cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const e = parsed.data;
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError(["ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither"]);
  }
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    mode: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    seedSampleData: e.SEED_SAMPLE_DATA,
    trustProxy: e.TRUST_PROXY,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    timeZone: e.SHOP_TIME_ZONE,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    authSecret: e.AUTH_SECRET,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, contactEmail: e.CONTACT_EMAIL },
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    limits: {
      maxPendingOrders: e.MAX_PENDING_ORDERS,
      rateLimitScale: e.RATE_LIMIT_SCALE,
      liveStreams: { perClient: e.LIVE_STREAMS_PER_CLIENT, max: e.LIVE_STREAMS_MAX },
    },
    shop: {
      name: e.SHOP_NAME,
      author: e.SHOP_AUTHOR,
      shippingFeePaise: e.SHIPPING_FEE_PAISE,
      publicUrl: publicUrl.origin,
    },
  };
}
