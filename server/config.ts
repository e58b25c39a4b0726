import path from "node:path";
import { z } from "zod";
import { messages } from "#common/shared/messages.ts";
import { newPasswordSchema } from "#common/accounts/account-schemas.ts";
import { isCommonPassword } from "./modules/accounts/index.ts";
import { DEFAULT_SHOP_TIME_ZONE, isKnownTimeZone } from "./platform/shop-day.ts";
import type { SignInProvider } from "./modules/accounts/index.ts";
import { parseSignInProviders } from "./sign-in-provider-config.ts";
import { UPI_ID_PATTERN } from "#common/orders/order-schemas.ts";
import type { UpiPayee } from "./modules/orders/index.ts";
import type { UploadQuotaSettings } from "./platform/uploads/upload-quota.ts";
import type { S3BucketSettings } from "./platform/object-storage/s3-bucket.ts";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => ["true", "1", "yes"].includes(value));

/**
 * A numeric setting whose every refusal (not a number, a fraction, below or above its range) says the same thing:
 * what it counts and its real bounds, so the operator learns the limit from the first refusal.
 */
function numberSetting(what: string, min: number, max: number, { whole = true } = {}) {
  const message = `must be ${what} from ${min} to ${max}`;
  const number = z.coerce.number({ error: message });
  return (whole ? number.int(message) : number).min(min, message).max(max, message);
}

/** A factor more than 0 cannot be said as "from … to …" as numberSetting says its bounds; one message for every refusal. */
const RATE_LIMIT_SCALE_BOUNDS = "must be a number more than 0 and at most 10000 (1 for the shop's limits)";

// Each variable is documented in README.md's Configuration table.
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().min(1).default("0.0.0.0"),
  // An empty PORT would coerce to 0 (a random port): refuse it instead.
  PORT: z
    .string()
    .regex(/^\d+$/, "must be a port number from 0 to 65535")
    .transform(Number)
    .pipe(z.number().int().max(65535, "must be a port number from 0 to 65535"))
    .default(3000),
  TRUST_PROXY: numberSetting("the number of proxies in front of the shop", 0, 10).default(0),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// (leave it unset for the embedded SQLite database)")
    .optional(),
  // How long a request waits for a PostgreSQL connection before it answers 503 (docs/decisions/032).
  DATABASE_CONNECT_TIMEOUT_SECONDS: numberSetting("a number of seconds", 0.1, 600, { whole: false }).default(5),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
  // Off unless asked: includeSubDomains binds every host under the shop's domain to https for a year, which the
  // shop cannot promise for hosts it does not serve (docs/decisions/036).
  HSTS_INCLUDE_SUBDOMAINS: booleanFlag.default(false),
  SEED_SAMPLE_DATA: booleanFlag.default(true),
  SHOP_NAME: z.string().trim().min(1).max(60).default("Plant Shop"),
  SHOP_AUTHOR: z.string().trim().min(1).max(80).default("the Plant Shop team"),
  // The days of the admin overview ("today", the last 30 days) are days in this zone (docs/decisions/024).
  SHOP_TIME_ZONE: z.string().refine(isKnownTimeZone, "must be an IANA time zone such as Asia/Kolkata").default(DEFAULT_SHOP_TIME_ZONE),
  // Test only: a file holding an ISO instant the shop's clock reads as now (sale windows, docs/decisions/047).
  TEST_CLOCK_FILE: z.string().min(1).optional(),
  // The flat fee, and the fee of the one 'All of India' zone while the owner defines no delivery zone (docs/decisions/053).
  SHIPPING_FEE_PAISE: numberSetting("a whole number of paise", 0, 10_000_000).default(2000),
  // UPI at checkout (docs/decisions/054): the shop's UPI ID, the payee name apps show (the shop's name unless set),
  // and how long an order waits for its payment before the shop cancels it.
  SHOP_UPI_ID: z.string().trim().regex(UPI_ID_PATTERN, "must be a UPI ID such as greenleaf@okaxis").optional(),
  SHOP_UPI_NAME: z.string().trim().min(1).max(60).optional(),
  UPI_PAYMENT_MINUTES: numberSetting("a whole number of minutes", 5, 7 * 24 * 60).default(30),
  // Unset: shipping is never free (likewise the default zone's threshold). Compared with the subtotal after a discount code (docs/decisions/046).
  FREE_SHIPPING_ABOVE_PAISE: numberSetting("a whole number of paise", 1, 1_000_000_000).optional(),
  // Anonymous pages and catalogue JSON are dropped when they change (docs/decisions/027); this only bounds how long.
  PAGE_CACHE_SECONDS: numberSetting("a number of seconds", 0, 86_400, { whole: false }).default(300),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
  MAIL_FROM: z.string().min(3).default("Plant Shop <no-reply@localhost>"),
  CONTACT_EMAIL: z.email({ error: "must be an e-mail address" }).optional(),
  ADMIN_EMAIL: z.email({ error: "must be an e-mail address" }).optional(),
  // The rules of every new password in the shop, so start-up refuses what the register form would (decision 015).
  ADMIN_PASSWORD: newPasswordSchema.refine((password) => !isCommonPassword(password), messages.validation.passwordTooCommon).optional(),
  // Abuse limits (docs/decisions/014): a cap on open Cash-on-Delivery orders, and a factor on every rate limit.
  MAX_PENDING_ORDERS: numberSetting("a whole number of orders", 1, 1000).default(5),
  RATE_LIMIT_SCALE: z.coerce
    .number({ error: RATE_LIMIT_SCALE_BOUNDS })
    .positive(RATE_LIMIT_SCALE_BOUNDS)
    .max(10_000, RATE_LIMIT_SCALE_BOUNDS)
    .default(1),
  // Unfinished uploads (docs/decisions/035): how much one admin's and everybody's may hold, what the disk keeps free.
  // A quota under 20 MB could not take the largest picture.
  UPLOAD_QUOTA_PER_ADMIN_MB: numberSetting("a whole number of MB (one picture of the largest size is 20)", 20, 1_000_000).default(1024),
  UPLOAD_QUOTA_TOTAL_MB: numberSetting("a whole number of MB (one picture of the largest size is 20)", 20, 10_000_000).default(4096),
  MIN_FREE_DISK_MB: numberSetting("a whole number of MB", 0, 10_000_000).default(512),
  // Live product pages' event streams (docs/decisions/033): at most this many per client (address, or signed-in
  // account), and at most this many for the process, further bounded by half its open-file limit.
  LIVE_STREAMS_PER_CLIENT: numberSetting("a whole number of streams", 1, 1000).default(32),
  LIVE_STREAMS_MAX: numberSetting("a whole number of streams", 1, 1_000_000).default(10_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  // Under the 10 s a container runtime waits between SIGTERM and SIGKILL (docs/decisions/012).
  SHUTDOWN_TIMEOUT_SECONDS: numberSetting("a number of seconds", 0, 3600, { whole: false }).default(8),
  // Admins get the admin's rights only with two-factor authentication on (docs/decisions/038).
  REQUIRE_ADMIN_2FA: booleanFlag.default(false),
  // Prometheus metrics (docs/decisions/056): on a port of their own, or on the public port behind a bearer token.
  METRICS_PORT: z
    .string()
    .regex(/^\d+$/, "must be a port number from 1 to 65535")
    .transform(Number)
    .pipe(z.number().int().min(1, "must be a port number from 1 to 65535").max(65535, "must be a port number from 1 to 65535"))
    .optional(),
  METRICS_TOKEN: z
    .string()
    .min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)")
    .regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces")
    .optional(),
  // Backups (docs/decisions/055): where archives go (beside DATA_DIR unless set), how often the server takes one
  // itself (unset: never), and how many of the newest it keeps.
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY_HOURS: numberSetting("a number of hours", 0.1, 24 * 365, { whole: false }).optional(),
  BACKUP_KEEP: numberSetting("a whole number of backups", 1, 10_000).default(7),
  // Pictures and unfinished uploads in an S3-compatible bucket instead of DATA_DIR (docs/decisions/059): set
  // MEDIA_S3_BUCKET to turn it on; the others say where the service is and how to reach it.
  MEDIA_S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3 to 63 lower-case letters, digits, dots and dashes").optional(),
  MEDIA_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
  MEDIA_S3_REGION: z.string().trim().min(1).max(64).default("us-east-1"),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  MEDIA_S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  MEDIA_S3_PUBLIC_URL: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// address" }).optional(),
});

export interface Config {
  mode: "development" | "production" | "test";
  /** Test only: the file whose ISO instant the shop's clock follows (TEST_CLOCK_FILE); unset, the system clock. */
  testClockFile?: string | undefined;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long a request waits for a PostgreSQL connection (a free one, or a new one opened) before it answers 503. */
  databaseConnectTimeoutMs: number;
  publicUrl: URL;
  /** Over https, whether Strict-Transport-Security also covers every subdomain of PUBLIC_URL's host. */
  hstsIncludeSubdomains: boolean;
  seedSampleData: boolean;
  /** How many proxies in front of the shop append to X-Forwarded-For (server/platform/http/client-ip.ts). */
  trustProxy: number;
  /** How long a page rendered for a visitor without cookies is reused; 0 turns the cache off. */
  pageCacheSeconds: number;
  shop: PublicShopConfig;
  logLevel: z.output<typeof envSchema>["LOG_LEVEL"];
  /** How long shutdown may take: requests in flight, then the e-mails they queued, share it. */
  shutdownTimeoutMs: number;
  /** Signs sessions and e-mail links; when unset, generated once and kept in DATA_DIR/auth-secret. */
  authSecret: string | undefined;
  mail: { smtpUrl: string | undefined; from: string; contactEmail: string | undefined };
  admin: { email: string; password: string } | undefined;
  /** Disk quotas of unfinished uploads, and the free space new uploads leave on the disk. */
  uploads: UploadQuotaSettings;
  /** REQUIRE_ADMIN_2FA: an admin without two-factor authentication is refused every admin page and API. */
  requireAdminTwoFactor: boolean;
  limits: {
    /** Pending Cash-on-Delivery orders one account may have at once. */
    maxPendingOrders: number;
    /** Multiplies every rate limit; 1 keeps the shop's own (the browser tests' server uses a large one). */
    rateLimitScale: number;
    /** Live product streams: per client, and for the process before its open-file limit bounds it further. */
    liveStreams: { perClient: number; max: number };
  };
  /** UPI at checkout: the shop's UPI ID, the payee name and the minutes to pay; undefined without SHOP_UPI_ID. */
  upi: UpiPayee | undefined;
  /** OpenID Connect providers shoppers may sign in with: Google (GOOGLE_*) and another (OIDC_*), when configured. */
  signInProviders: SignInProvider[];
  /**
   * Where /metrics is served: on `port` (bound to HOST, like the shop) when set, else on the public port when
   * `token` is set; with neither, nowhere. With both, the port asks for the token too.
   */
  metrics: { port: number | undefined; token: string | undefined };
  /** Where `npm run backup` and the server's scheduled backups write; every how long the server takes one (undefined: never); how many are kept. */
  backup: { dir: string; everyMs: number | undefined; keep: number };
  /** MEDIA_S3_*: the bucket pictures and unfinished uploads live in; undefined, they stay in DATA_DIR. */
  mediaS3: S3BucketSettings | undefined;
}

/** The only part of the configuration that reaches the browser. */
export interface PublicShopConfig {
  name: string;
  author: string;
  shippingFeePaise: number;
  /** FREE_SHIPPING_ABOVE_PAISE: from this subtotal (after the discount) shipping is free; null, never. */
  freeShippingAbovePaise: number | null;
  publicUrl: string;
  /** The IANA zone every date and time is shown in, and whose days the order totals count (SHOP_TIME_ZONE). */
  timeZone: string;
}

const MB = 1024 * 1024;

/** The MEDIA_S3_* settings that only make sense together: a key needs its secret, and nothing without the bucket. */
function mediaS3Problems(e: z.output<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (Boolean(e.MEDIA_S3_ACCESS_KEY_ID) !== Boolean(e.MEDIA_S3_SECRET_ACCESS_KEY)) {
    problems.push("MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY: set both or neither");
  }
  if (!e.MEDIA_S3_BUCKET) {
    const strays = (["MEDIA_S3_ENDPOINT", "MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY", "MEDIA_S3_PUBLIC_URL"] as const).filter((name) => e[name] !== undefined);
    if (strays.length) problems.push(`${strays.join(", ")}: set MEDIA_S3_BUCKET too (without it pictures stay in DATA_DIR)`);
  }
  return problems;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Plant Shop cannot start; fix these environment variables:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  const signIn = parseSignInProviders(env);
  if (!parsed.success || signIn.problems.length) {
    throw new ConfigError([...(parsed.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? []), ...signIn.problems]);
  }
  const e = parsed.data;
  if (Boolean(e.ADMIN_EMAIL) !== Boolean(e.ADMIN_PASSWORD)) {
    throw new ConfigError(["ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither"]);
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(["METRICS_PORT: must differ from PORT (the metrics are never served on the public port by it)"]);
  }
  const s3Problems = mediaS3Problems(e);
  if (s3Problems.length) throw new ConfigError(s3Problems);
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    mode: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseConnectTimeoutMs: Math.round(e.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000),
    publicUrl,
    hstsIncludeSubdomains: e.HSTS_INCLUDE_SUBDOMAINS,
    seedSampleData: e.SEED_SAMPLE_DATA,
    trustProxy: e.TRUST_PROXY,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    testClockFile: e.TEST_CLOCK_FILE ? path.resolve(e.TEST_CLOCK_FILE) : undefined,
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    authSecret: e.AUTH_SECRET,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, contactEmail: e.CONTACT_EMAIL },
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    requireAdminTwoFactor: e.REQUIRE_ADMIN_2FA,
    limits: {
      maxPendingOrders: e.MAX_PENDING_ORDERS,
      rateLimitScale: e.RATE_LIMIT_SCALE,
      liveStreams: { perClient: e.LIVE_STREAMS_PER_CLIENT, max: e.LIVE_STREAMS_MAX },
    },
    signInProviders: signIn.providers,
    metrics: { port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    // Beside the data folder, named after it: never inside it (a restore needs an empty folder), never shared by two shops.
    backup: { dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : `${dataDir}-backups`, everyMs: e.BACKUP_EVERY_HOURS === undefined ? undefined : Math.round(e.BACKUP_EVERY_HOURS * 3_600_000), keep: e.BACKUP_KEEP },
    mediaS3: e.MEDIA_S3_BUCKET
      ? {
          bucket: e.MEDIA_S3_BUCKET,
          endpoint: e.MEDIA_S3_ENDPOINT,
          region: e.MEDIA_S3_REGION,
          credentials: e.MEDIA_S3_ACCESS_KEY_ID && e.MEDIA_S3_SECRET_ACCESS_KEY ? { accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY } : undefined,
          // A server of one's own (an endpoint) is addressed by path unless told otherwise; AWS by host name.
          forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE ?? Boolean(e.MEDIA_S3_ENDPOINT),
          publicUrl: e.MEDIA_S3_PUBLIC_URL?.replace(/\/+$/, ""),
        }
      : undefined,
    upi: e.SHOP_UPI_ID ? { id: e.SHOP_UPI_ID, name: e.SHOP_UPI_NAME ?? e.SHOP_NAME, minutesToPay: e.UPI_PAYMENT_MINUTES } : undefined,
    uploads: {
      perAccountBytes: e.UPLOAD_QUOTA_PER_ADMIN_MB * MB,
      totalBytes: e.UPLOAD_QUOTA_TOTAL_MB * MB,
      minFreeDiskBytes: e.MIN_FREE_DISK_MB * MB,
    },
    shop: {
      name: e.SHOP_NAME,
      author: e.SHOP_AUTHOR,
      shippingFeePaise: e.SHIPPING_FEE_PAISE,
      freeShippingAbovePaise: e.FREE_SHIPPING_ABOVE_PAISE ?? null,
      publicUrl: publicUrl.origin,
      timeZone: e.SHOP_TIME_ZONE,
    },
  };
}
