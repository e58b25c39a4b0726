import { describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("uses the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl.origin).toBe("http://localhost:3000");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.seedSampleData).toBe(true);
    expect(config.trustProxy).toBe(0);
    expect(config.shop).toEqual({
      name: "Plant Shop",
      author: "the Plant Shop team",
      shippingFeePaise: 2000,
      freeShippingAbovePaise: null,
      publicUrl: "http://localhost:3000",
      timeZone: "Asia/Kolkata",
    });
    expect(config.dataDir.endsWith("/data")).toBe(true);
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "4100",
      DATA_DIR: "/tmp/shop-data",
      DATABASE_URL: "postgres://shop@127.0.0.1/shop",
      PUBLIC_URL: "https://plants.example",
      SEED_SAMPLE_DATA: "false",
      SHOP_NAME: "Green Corner",
      SHOP_AUTHOR: "Asha",
      SHIPPING_FEE_PAISE: "4900",
      FREE_SHIPPING_ABOVE_PAISE: "50000",
      SHOP_TIME_ZONE: "America/New_York",
      TRUST_PROXY: "1",
    });
    expect(config.port).toBe(4100);
    expect(config.dataDir).toBe("/tmp/shop-data");
    expect(config.databaseUrl).toBe("postgres://shop@127.0.0.1/shop");
    expect(config.publicUrl.origin).toBe("https://plants.example");
    expect(config.seedSampleData).toBe(false);
    expect(config.shop.name).toBe("Green Corner");
    expect(config.shop.author).toBe("Asha");
    expect(config.shop.shippingFeePaise).toBe(4900);
    expect(config.shop.freeShippingAbovePaise).toBe(50_000);
    expect(config.shop.timeZone).toBe("America/New_York");
    expect(config.trustProxy).toBe(1);
  });

  it("names every bad variable", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", SEED_SAMPLE_DATA: "maybe", SHIPPING_FEE_PAISE: "-1" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = (error as ConfigError).message;
    for (const name of ["PORT", "DATABASE_URL", "SEED_SAMPLE_DATA", "SHIPPING_FEE_PAISE"]) expect(text).toContain(name);
    expect((error as ConfigError).problems).toHaveLength(4);
  });

  it("refuses a FREE_SHIPPING_ABOVE_PAISE that is not a whole number of paise from 1, naming the variable", () => {
    for (const value of ["0", "-5", "499.5", "lots"]) expect(() => loadConfig({ FREE_SHIPPING_ABOVE_PAISE: value })).toThrow(/FREE_SHIPPING_ABOVE_PAISE/);
  });

  it("refuses a SHOP_TIME_ZONE that is no IANA time zone, naming the variable", () => {
    expect(() => loadConfig({ SHOP_TIME_ZONE: "Mars/Olympus_Mons" })).toThrow("SHOP_TIME_ZONE: must be an IANA time zone such as Asia/Kolkata");
  });

  it("refuses an empty PORT instead of listening on a random one", () => {
    expect(() => loadConfig({ PORT: "" })).toThrow("PORT: must be a port number");
    expect(() => loadConfig({ PORT: "70000" })).toThrow("PORT: must be a port number");
  });

  it("refuses an ADMIN_PASSWORD the shop's password rules refuse, naming the variable", () => {
    const admin = (password: string) => () => loadConfig({ ADMIN_EMAIL: "owner@nursery.example", ADMIN_PASSWORD: password });
    expect(admin("short7")).toThrow(`ADMIN_PASSWORD: ${messages.validation.passwordTooShort}`);
    expect(admin("x".repeat(129))).toThrow(`ADMIN_PASSWORD: ${messages.validation.passwordTooLong}`);
    expect(admin("Password123")).toThrow(`ADMIN_PASSWORD: ${messages.validation.passwordTooCommon}`);
    expect(admin("password123")).toThrow(ConfigError);
    expect(loadConfig({ ADMIN_EMAIL: "owner@nursery.example", ADMIN_PASSWORD: "green-thumb-2025" }).admin).toEqual({
      email: "owner@nursery.example",
      password: "green-thumb-2025",
    });
  });

  it("reads the backup settings: beside DATA_DIR, off and 7 kept unless set, and refuses bad ones naming the variable", () => {
    expect(loadConfig({ DATA_DIR: "/srv/shop/data" }).backup).toEqual({ dir: "/srv/shop/data-backups", everyMs: undefined, keep: 7 });
    expect(loadConfig({ BACKUP_DIR: "/mnt/backups", BACKUP_EVERY_HOURS: "24", BACKUP_KEEP: "30" }).backup).toEqual({ dir: "/mnt/backups", everyMs: 86_400_000, keep: 30 });
    expect(loadConfig({ BACKUP_EVERY_HOURS: "0.5" }).backup.everyMs).toBe(1_800_000);
    for (const [name, value] of [["BACKUP_EVERY_HOURS", "0"], ["BACKUP_EVERY_HOURS", "daily"], ["BACKUP_KEEP", "0"], ["BACKUP_KEEP", "2.5"], ["BACKUP_DIR", ""]] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: `));
    }
  });

  it("reads MEDIA_S3_*: off unless MEDIA_S3_BUCKET, a bucket alone means AWS by host name, an endpoint means path style unless told, and refuses a key without its secret or settings without the bucket", () => {
    expect(loadConfig({}).mediaS3).toBeUndefined();
    expect(loadConfig({ MEDIA_S3_BUCKET: "shop-pictures" }).mediaS3).toEqual({ bucket: "shop-pictures", endpoint: undefined, region: "us-east-1", credentials: undefined, forcePathStyle: false, publicUrl: undefined });
    const minio = loadConfig({ MEDIA_S3_BUCKET: "shop-pictures", MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000", MEDIA_S3_PUBLIC_URL: "https://cdn.example/pictures/" }).mediaS3;
    expect(minio).toMatchObject({ endpoint: "http://127.0.0.1:9000", forcePathStyle: true, publicUrl: "https://cdn.example/pictures" });
    expect(loadConfig({ MEDIA_S3_BUCKET: "shop-pictures", MEDIA_S3_ENDPOINT: "https://r2.example", MEDIA_S3_FORCE_PATH_STYLE: "false" }).mediaS3?.forcePathStyle).toBe(false);
    expect(() => loadConfig({ MEDIA_S3_BUCKET: "shop-pictures", MEDIA_S3_ACCESS_KEY_ID: "AKIA" })).toThrow(/MEDIA_S3_ACCESS_KEY_ID and MEDIA_S3_SECRET_ACCESS_KEY: set both or neither/);
    expect(() => loadConfig({ MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/MEDIA_S3_ENDPOINT: set MEDIA_S3_BUCKET too/);
  });

  it("reads the shutdown budget in seconds, 8 unless set, and refuses a bad one", () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(8_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: "2.5" }).shutdownTimeoutMs).toBe(2_500);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: "soon" })).toThrow("SHUTDOWN_TIMEOUT_SECONDS: must be a number of seconds");
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: "-1" })).toThrow("SHUTDOWN_TIMEOUT_SECONDS");
  });

  it("reads how long a request waits for a database connection in seconds, 5 unless set, and refuses a bad one", () => {
    expect(loadConfig({}).databaseConnectTimeoutMs).toBe(5_000);
    expect(loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: "1.5" }).databaseConnectTimeoutMs).toBe(1_500);
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: "soon" })).toThrow("DATABASE_CONNECT_TIMEOUT_SECONDS: must be a number of seconds");
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_SECONDS: "0" })).toThrow("DATABASE_CONNECT_TIMEOUT_SECONDS");
  });

  it("reads the abuse limits: 5 pending orders and the shop's own rate limits by default, refusing nonsense", () => {
    expect(loadConfig({}).limits).toMatchObject({ maxPendingOrders: 5, rateLimitScale: 1 });
    expect(loadConfig({ MAX_PENDING_ORDERS: "12", RATE_LIMIT_SCALE: "100" }).limits).toMatchObject({ maxPendingOrders: 12, rateLimitScale: 100 });
    expect(() => loadConfig({ MAX_PENDING_ORDERS: "0" })).toThrow("MAX_PENDING_ORDERS: must be a whole number of orders from 1 to 1000");
    expect(() => loadConfig({ RATE_LIMIT_SCALE: "0" })).toThrow("RATE_LIMIT_SCALE: must be a number more than 0 and at most 10000");
    expect(() => loadConfig({ RATE_LIMIT_SCALE: "lots" })).toThrow(ConfigError);
  });

  it("names the real bounds of a numeric setting whatever the refusal: too large, too small, a fraction or not a number", () => {
    const refusal = (name: string, value: string) => {
      try {
        loadConfig({ [name]: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    const bounds: [string, string, string[]][] = [
      ["MAX_PENDING_ORDERS", "a whole number of orders from 1 to 1000", ["100000", "0", "2.5", "many"]],
      ["TRUST_PROXY", "the number of proxies in front of the shop from 0 to 10", ["11", "-1", "1.5", "one"]],
      ["SHIPPING_FEE_PAISE", "a whole number of paise from 0 to 10000000", ["99999999", "-1", "1.5", "free"]],
      ["PAGE_CACHE_SECONDS", "a number of seconds from 0 to 86400", ["100000", "-1", "long"]],
      ["SHUTDOWN_TIMEOUT_SECONDS", "a number of seconds from 0 to 3600", ["5000", "-1", "soon"]],
      ["RATE_LIMIT_SCALE", "a number more than 0 and at most 10000 (1 for the shop's limits)", ["100000", "0", "-2", "lots"]],
      ["PORT", "a port number from 0 to 65535", ["70000", "-1", "eighty"]],
    ];
    for (const [name, message, values] of bounds) {
      for (const value of values) expect(refusal(name, value), `${name}=${value}`).toEqual([`${name}: must be ${message}`]);
    }
  });

  it("reads HSTS_INCLUDE_SUBDOMAINS, off unless set, and refuses a value that is not true or false", () => {
    expect(loadConfig({}).hstsIncludeSubdomains).toBe(false);
    expect(loadConfig({ HSTS_INCLUDE_SUBDOMAINS: "true" }).hstsIncludeSubdomains).toBe(true);
    expect(loadConfig({ HSTS_INCLUDE_SUBDOMAINS: "no" }).hstsIncludeSubdomains).toBe(false);
    expect(() => loadConfig({ HSTS_INCLUDE_SUBDOMAINS: "always" })).toThrow("HSTS_INCLUDE_SUBDOMAINS: must be true or false");
  });

  it("reads the upload quotas and the disk's reserve in MB: 1024 per admin, 4096 in all and 512 kept free unless set, refusing nonsense", () => {
    const MB = 1024 * 1024;
    expect(loadConfig({}).uploads).toEqual({ perAccountBytes: 1024 * MB, totalBytes: 4096 * MB, minFreeDiskBytes: 512 * MB });
    expect(loadConfig({ UPLOAD_QUOTA_PER_ADMIN_MB: "200", UPLOAD_QUOTA_TOTAL_MB: "20", MIN_FREE_DISK_MB: "0" }).uploads).toEqual({
      perAccountBytes: 200 * MB,
      totalBytes: 20 * MB,
      minFreeDiskBytes: 0,
    });
    expect(() => loadConfig({ UPLOAD_QUOTA_PER_ADMIN_MB: "19" })).toThrow("UPLOAD_QUOTA_PER_ADMIN_MB: must be a whole number of MB (one picture of the largest size is 20) from 20 to 1000000");
    expect(() => loadConfig({ UPLOAD_QUOTA_TOTAL_MB: "1.5" })).toThrow("UPLOAD_QUOTA_TOTAL_MB: must be a whole number of MB (one picture of the largest size is 20) from 20 to 10000000");
    expect(() => loadConfig({ MIN_FREE_DISK_MB: "plenty" })).toThrow("MIN_FREE_DISK_MB: must be a whole number of MB from 0 to 10000000");
    expect(() => loadConfig({ MIN_FREE_DISK_MB: "-1" })).toThrow("MIN_FREE_DISK_MB: must be a whole number of MB from 0 to 10000000");
  });

  it("reads the live streams' caps: 32 per client and 10,000 for the process unless set, refusing nonsense", () => {
    expect(loadConfig({}).limits.liveStreams).toEqual({ perClient: 32, max: 10_000 });
    expect(loadConfig({ LIVE_STREAMS_PER_CLIENT: "8", LIVE_STREAMS_MAX: "2000" }).limits.liveStreams).toEqual({ perClient: 8, max: 2000 });
    expect(() => loadConfig({ LIVE_STREAMS_PER_CLIENT: "0" })).toThrow("LIVE_STREAMS_PER_CLIENT: must be a whole number of streams from 1 to 1000");
    expect(() => loadConfig({ LIVE_STREAMS_PER_CLIENT: "many" })).toThrow("LIVE_STREAMS_PER_CLIENT: must be a whole number of streams from 1 to 1000");
    expect(() => loadConfig({ LIVE_STREAMS_MAX: "2.5" })).toThrow(/LIVE_STREAMS_MAX/);
    expect(() => loadConfig({ LIVE_STREAMS_MAX: "2000000" })).toThrow("LIVE_STREAMS_MAX: must be a whole number of streams from 1 to 1000000");
  });

  it("reads METRICS_PORT and METRICS_TOKEN, neither unless set, refusing a bad port, the public PORT and a short or spaced token", () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, token: undefined });
    const token = "a".repeat(32);
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: token }).metrics).toEqual({ port: 9464, token });
    for (const port of ["", "0", "70000", "94.5", "metrics"]) expect(() => loadConfig({ METRICS_PORT: port })).toThrow("METRICS_PORT: must be a port number from 1 to 65535");
    expect(() => loadConfig({ PORT: "8080", METRICS_PORT: "8080" })).toThrow("METRICS_PORT: must differ from PORT");
    expect(() => loadConfig({ METRICS_PORT: "3000" })).toThrow("METRICS_PORT: must differ from PORT");
    expect(() => loadConfig({ METRICS_TOKEN: "a".repeat(31) })).toThrow("METRICS_TOKEN: must be at least 32 characters");
    expect(() => loadConfig({ METRICS_TOKEN: `${"a".repeat(32)} b` })).toThrow("METRICS_TOKEN: must be printable characters without spaces");
  });
});
