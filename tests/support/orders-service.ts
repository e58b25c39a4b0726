import { pino } from "pino";
import type { Database } from "../../server/platform/db/client.ts";
import { createLocalChangeFeed } from "../../server/platform/change-feed/change-feed.ts";
import { createEventLog } from "../../server/platform/event-log.ts";
import { createMailOutbox } from "../../server/platform/mail/mail-outbox.ts";
import { createRateLimiter } from "../../server/platform/rate-limit/rate-limit.ts";
import { createSealer } from "../../server/platform/sealed-values.ts";
import { profileAnnouncer } from "../../server/modules/accounts/index.ts";
import { createOrdersService, type OrdersDependencies } from "../../server/modules/orders/index.ts";
import { listReviewedProducts } from "../../server/modules/reviews/index.ts";
import { TEST_ORIGIN } from "./test-app.ts";

const testSealer = createSealer("mail-outbox-test-secret-0123456789abcdef");

/**
 * An orders service of its own over a test database, as another server process would run one: the shop's
 * defaults (Rs. 20 shipping, 5 unpaid orders, Kolkata), with what a test changes (a payment method, UPI, a feed).
 */
export function ordersServiceOver(database: Pick<Database, "db" | "dialect">, overrides: Partial<Pick<OrdersDependencies, "payment" | "outbox" | "changes" | "orderNumbers" | "upi">> = {}) {
  const logger = pino({ level: "silent" });
  const changes = overrides.changes ?? createLocalChangeFeed();
  return createOrdersService({
    database,
    outbox: createMailOutbox(testSealer),
    logger,
    shopName: "Plant Shop",
    publicUrl: new URL(TEST_ORIGIN),
    shippingFeePaise: 2000,
    rateLimiter: createRateLimiter(database.db),
    events: createEventLog(logger),
    maxPendingOrders: 5,
    timeZone: "Asia/Kolkata",
    ...overrides,
    changes,
    announceProfileChange: profileAnnouncer(changes, listReviewedProducts),
  });
}
