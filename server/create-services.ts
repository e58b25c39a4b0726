import path from "node:path";
import { sql } from "kysely";
import type { Logger } from "pino";
import { createAccountsService, createAuth, createProfilesService, profileAnnouncer, type SignInProvider } from "./modules/accounts/index.ts";
import type { Sealer } from "./platform/sealed-values.ts";
import type { Database } from "./platform/db/client.ts";
import { createAlertsService } from "./modules/alerts/index.ts";
import { createAuditService } from "./modules/audit/index.ts";
import { createCartService, emptyCartOf } from "./modules/cart/index.ts";
import {
  catalogImagesFromMedia,
  createCatalogEditingService,
  createCatalogService,
  createProductEvents,
  createSitemapService,
  liveStreamsAllowed,
} from "./modules/catalog/index.ts";
import { createContactService } from "./modules/contact/index.ts";
import { createCouponsService } from "./modules/coupons/index.ts";
import { createDeliveryService } from "./modules/delivery/index.ts";
import type { MailOutbox } from "./platform/mail/mail-outbox.ts";
import { createMediaService } from "./platform/media/media.ts";
import { createS3Client, type S3BucketSettings } from "./platform/object-storage/s3-bucket.ts";
import { createS3MediaStore } from "./platform/object-storage/s3-media-store.ts";
import { createResumableUploads } from "./platform/uploads/resumable-uploads.ts";
import { bucketUploadStorage } from "./platform/uploads/upload-storage.ts";
import type { Locker } from "@tus/utils";
import type { FreeDiskSpace } from "./platform/uploads/free-disk-space.ts";
import type { UploadQuotaSettings } from "./platform/uploads/upload-quota.ts";
import { UPLOADS_PATH } from "#common/shared/uploads.ts";
import { createOrdersService, detachCustomer, REFUSAL_REASONS, type CheckoutMetrics, type UpiPayee } from "./modules/orders/index.ts";
import { createMetrics, type ShopMetrics } from "./platform/metrics/metrics.ts";
import { createReviewsService, detachAuthor, listReviewedProducts } from "./modules/reviews/index.ts";
import { createWishlistService } from "./modules/wishlist/index.ts";
import { createOverviewService } from "./modules/overview/index.ts";
import { createEventLog } from "./platform/event-log.ts";
import { createRateLimiter } from "./platform/rate-limit/rate-limit.ts";
import { createLocalChangeFeed, type ChangeFeed } from "./platform/change-feed/change-feed.ts";
import { openFileLimit } from "./platform/open-file-limit.ts";
import { collectGarbage } from "./platform/reclaim-memory.ts";

export interface ServiceDependencies {
  database: Pick<Database, "db" | "dialect">;
  dataDir: string;
  publicUrl: URL;
  authSecret: string;
  /** Seals what the shop keeps outside its own memory: mail bodies in the outbox, the pages' cookies. */
  sealer: Sealer;
  shopName: string;
  contactEmail: string | undefined;
  /** The shop's time zone (SHOP_TIME_ZONE): the days of the order totals and the overview. */
  timeZone: string;
  shippingFeePaise: number;
  /** FREE_SHIPPING_ABOVE_PAISE: from this subtotal (after the discount) shipping is free; null or left out, never. */
  freeShippingAbovePaise?: number | null;
  /** The shop's UPI ID, payee name and minutes to pay (SHOP_UPI_ID, SHOP_UPI_NAME, UPI_PAYMENT_MINUTES); none, no UPI. */
  upi?: UpiPayee | null;
  /** Every e-mail is queued here and sent by the mail worker (./mail-outbox.ts). */
  outbox: MailOutbox;
  logger: Logger;
  limits: {
    maxPendingOrders: number;
    rateLimitScale: number;
    /** Live product streams per client, and at most for the process (the open-file limit may lower it). */
    liveStreams?: { perClient: number; max: number };
  };
  /** Disk quotas of unfinished uploads and the disk's reserve (UPLOAD_QUOTA_*, MIN_FREE_DISK_MB). */
  uploadQuota: UploadQuotaSettings;
  /** The free space of the uploads folder's disk: statfs (cached for a second) unless given, e.g. a full disk in tests. */
  freeDiskSpace?: FreeDiskSpace;
  /** The process's open-file limit; read from the system unless given. */
  openFiles?: number;
  /** Where services announce what changed; in-process unless given (PostgreSQL: every process's feed). */
  changes?: ChangeFeed;
  /** The OpenID Connect providers shoppers may sign in with (GOOGLE_*, OIDC_*); none unless given. */
  signInProviders?: readonly SignInProvider[];
  /** REQUIRE_ADMIN_2FA: an admin has the admin's rights only with two-factor authentication on. */
  requireAdminTwoFactor?: boolean;
  /** MEDIA_S3_*: stored pictures and unfinished uploads live in this bucket, not in DATA_DIR/media and DATA_DIR/uploads. */
  mediaS3?: S3BucketSettings | undefined;
  /** Who may write to an upload at a time across copies (PostgreSQL's advisory locks); this process's own unless given. */
  uploadLocker?: Locker | undefined;
  /** Where the shop counts what it does (platform/metrics); a registry of its own unless given. */
  metrics?: ShopMetrics;
}

/**
 * What the shop runs on, built once by the composition root: the database, the log, mail's outbox, the sealer,
 * the change feed, rate limits, the event log, uploads and the media store. Mechanisms that know no feature; the
 * domain services below are built on them, and the HTTP app and the server's start-up use them directly.
 */
export function createInfrastructure(deps: ServiceDependencies) {
  const { database, outbox, logger } = deps;
  const events = createEventLog(logger);
  const metrics = deps.metrics ?? createMetrics({ processMetrics: false });
  const changes = deps.changes ?? createLocalChangeFeed();
  const rateLimiter = createRateLimiter(database.db, { scale: deps.limits.rateLimitScale, events, dialect: database.dialect });
  // Raw resumable uploads wait in DATA_DIR/uploads, or in the bucket for every copy when MEDIA_S3_BUCKET is set
  // (docs/decisions/060), until a form turns them into images.
  // One client of the bucket for the stored pictures and the uploads' listing, reading and removal: one pool of
  // connections to it per process.
  const bucket = deps.mediaS3 ? { settings: deps.mediaS3, client: createS3Client(deps.mediaS3) } : undefined;
  const uploads = createResumableUploads({
    database,
    ...(bucket
      ? { storage: (expiryMs: number) => bucketUploadStorage(bucket.settings, expiryMs, bucket.client) }
      : { directory: path.join(deps.dataDir, "uploads"), ...(deps.freeDiskSpace ? { freeDiskSpace: deps.freeDiskSpace } : {}) }),
    basePath: UPLOADS_PATH,
    quota: deps.uploadQuota,
    ...(deps.uploadLocker ? { locker: deps.uploadLocker } : {}),
  });
  return {
    database,
    logger,
    /** Every e-mail is queued here and sent by the mail worker (platform/mail/mail-outbox.ts). */
    outbox,
    /** Seals what the shop keeps outside its own memory: mail bodies, the pages' own cookies. */
    sealer: deps.sealer,
    /** The change feed: live pages and caches subscribe to it (platform/change-feed). */
    changes,
    rateLimiter,
    events,
    /** Resumable (tus) uploads: the /api/uploads endpoint and the sweep of expired ones. */
    uploads,
    /** Stored images: `media.imageFromUpload(uploadId, userId)` turns a finished upload into product or category images. */
    media: createMediaService({ mediaDir: path.join(deps.dataDir, "media"), uploads, ...(bucket ? { store: createS3MediaStore(bucket.settings, bucket.client) } : {}) }),
    /** What /metrics shows: requests, caches, checkouts, the outbox, live streams, the pool (docs/decisions/056). */
    metrics,
    /** Liveness of the database for /readyz: a query that names no module's table. */
    async pingDatabase(): Promise<void> {
      await sql`select 1`.execute(database.db);
    },
  };
}

export type Infrastructure = ReturnType<typeof createInfrastructure>;

/** Every domain service of the shop, on the infrastructure; pages and API handlers receive these and nothing lower. */
export function createServices(infrastructure: Infrastructure, deps: ServiceDependencies) {
  const { database, outbox, logger, events, changes, rateLimiter, media } = infrastructure;
  const auth = createAuth({
    database,
    publicUrl: deps.publicUrl,
    secret: deps.authSecret,
    shopName: deps.shopName,
    outbox,
    rateLimiter,
    logger,
    events,
    signInProviders: deps.signInProviders ?? [],
  });
  // Reviews read accounts' names, so accounts cannot import reviews (a cycle): the products a renamed person
  // reviewed reach the profile announcements from here.
  const announceProfileChange = profileAnnouncer(changes, listReviewedProducts);
  // The catalog tells of a size back in stock inside the transaction that restocked it; the alerts mail the oldest
  // subscribers there, so each is mailed once per restock whichever server copy made it.
  const alerts = createAlertsService(database, { outbox, sealer: infrastructure.sealer, rateLimiter, shopName: deps.shopName, publicUrl: deps.publicUrl });
  const catalog = createCatalogService(database.db, { rateLimiter });
  return {
    /** The auth library's own HTTP handler, mounted at /api/auth. */
    authHandler: (request: Request) => auth.handler(request),
    /** The auth library's configuration (its schema check in tests). */
    authOptions: auth.options,
    accounts: createAccountsService(auth, database, events, rateLimiter, {
      outbox,
      media,
      changes,
      shopName: deps.shopName,
      // What other modules keep of a person, removed or detached by them when the account is deleted (decision 040).
      recordsElsewhere: { detachCustomer, detachReviews: detachAuthor, emptyCart: emptyCartOf },
    }, deps.signInProviders, { requireAdminTwoFactor: deps.requireAdminTwoFactor ?? false }),
    profiles: createProfilesService(database.db, media, rateLimiter, announceProfileChange),
    catalog,
    /** The owner's catalogue: products, categories, their pictures (docs/decisions/023). */
    adminCatalog: createCatalogEditingService({
      database, changes, images: catalogImagesFromMedia(media), timeZone: deps.timeZone,
      restocked: alerts.restocked,
    }),
    sitemaps: createSitemapService(database.db, changes),
    cart: createCartService(database, { shippingFeePaise: deps.shippingFeePaise, rateLimiter, timeZone: deps.timeZone, freeShippingAbovePaise: deps.freeShippingAbovePaise ?? null }),
    /** The owner's discount codes (docs/decisions/046); the cart applies them and the checkout counts their uses. */
    coupons: createCouponsService(database, { timeZone: deps.timeZone }),
    /** Who changed what in the shop, written by each admin change in its own transaction (docs/decisions/057). */
    audit: createAuditService(database),
    /** Delivery zones by PIN code, dispatch days and the shopper's delivery check (docs/decisions/053). */
    delivery: createDeliveryService(database, {
      timeZone: deps.timeZone,
      shop: { shippingFeePaise: deps.shippingFeePaise, freeShippingAbovePaise: deps.freeShippingAbovePaise ?? null },
    }),
    orders: createOrdersService({
      database,
      outbox,
      logger,
      shopName: deps.shopName,
      publicUrl: deps.publicUrl,
      shippingFeePaise: deps.shippingFeePaise,
      freeShippingAbovePaise: deps.freeShippingAbovePaise ?? null,
      rateLimiter,
      events,
      maxPendingOrders: deps.limits.maxPendingOrders,
      changes,
      announceProfileChange,
      timeZone: deps.timeZone,
      restocked: alerts.restocked,
      upi: deps.upi ?? null,
      metrics: checkoutMetrics(infrastructure.metrics),
    }),
    /** "Notify me when it's back": who waits for a sold-out size, mailed when it is restocked. */
    alerts,
    /** The owner's overview: orders and revenue by day, low stock, unhandled messages. */
    overview: createOverviewService({ database, timeZone: deps.timeZone }),
    reviews: createReviewsService(database, { changes }),
    /** Saved plants (docs/product.md, Wishlist); an account's list goes with it by the foreign key's cascade. */
    wishlist: createWishlistService(database, { catalog }),
    /** The live product pages' connections on this process, fed by `changes`. */
    productEvents: createProductEvents(changes, {
      perClient: deps.limits.liveStreams?.perClient ?? 32,
      total: liveStreamsAllowed(deps.openFiles ?? openFileLimit(), deps.limits.liveStreams?.max ?? 10_000),
      reclaim: collectGarbage,
    }),
    contact: createContactService(database, rateLimiter, { outbox, shopName: deps.shopName, contactEmail: deps.contactEmail }),
  };
}

/** The checkout's counters (the orders module's CheckoutMetrics) on the platform's metrics. */
function checkoutMetrics(metrics: ShopMetrics): CheckoutMetrics {
  const placed = metrics.counter("plantshop_orders_placed_total", "Orders placed (a repeat of one checkout's idempotency key is not counted again).");
  const refused = metrics.counter("plantshop_orders_refused_total", `Checkouts refused, by reason (${REFUSAL_REASONS.join(", ")}).`, ["reason"]);
  const took = metrics.histogram("plantshop_checkout_duration_seconds", "Time placeOrder took, by outcome (placed, refused).", ["outcome"]);
  return {
    placed: () => placed.inc(),
    refused: (reason) => refused.inc({ reason }),
    took: (seconds, outcome) => took.observe(seconds, { outcome }),
  };
}

/** The shop's domain services (catalog, cart, orders, reviews, wishlist, accounts, contact, overview, the owner's catalogue). */
export type Services = ReturnType<typeof createServices>;
