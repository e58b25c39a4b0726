import { sql, type Kysely, type RawBuilder } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { MailOutbox } from "../../platform/mail/mail-outbox.ts";
import type { EventLog } from "../../platform/event-log.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import type { ProfileAnnouncer } from "../accounts/index.ts";
import { noRestockListener, type RestockListener } from "../catalog/index.ts";
import { newOrderNumber } from "./order-numbers.ts";
import { cashOnDelivery, upiTransfer, type PaymentMethod, type PaymentMethods, type UpiPayee } from "./payments.ts";
import { NO_CHECKOUT_METRICS, type CheckoutMetrics } from "./checkout-metrics.ts";

/** What the composition root gives the orders service. */
export interface OrdersDependencies {
  database: Pick<Database, "db" | "dialect">;
  /** Order e-mails are queued in the order's own transaction and sent by the mail worker (./mail-outbox.ts). */
  outbox: MailOutbox;
  logger: Logger;
  shopName: string;
  publicUrl: URL;
  shippingFeePaise: number;
  /** FREE_SHIPPING_ABOVE_PAISE: the subtotal after the discount from which shipping is free; null or left out, never. */
  freeShippingAbovePaise?: number | null;
  /**
   * How a shopper choosing Cash on Delivery pays: Cash on Delivery itself unless given; the tests give a card-like
   * method that holds money in its place, to prove that every hold is let go when its order is not stored.
   */
  payment?: PaymentMethod;
  /** The shop's UPI ID, payee name and minutes to pay (SHOP_UPI_ID…); null or left out, no UPI at checkout. */
  upi?: UpiPayee | null;
  rateLimiter: RateLimiter;
  events: EventLog;
  /** How many Cash-on-Delivery orders one account may have pending at once (MAX_PENDING_ORDERS). */
  maxPendingOrders: number;
  /** Told, after commit, of every product whose stock an order took or gave back (live pages, caches). */
  changes: ChangeFeed;
  /** The shop's time zone (SHOP_TIME_ZONE): the day an order counts for in the daily totals. */
  timeZone: string;
  /** Announces a name saved on the profile by a checkout (its product pages show it on reviews): the accounts module's. */
  announceProfileChange: ProfileAnnouncer;
  /** Told of a size a cancellation brought back in stock, inside its transaction (the back-in-stock alerts); no one when not given. */
  restocked?: RestockListener;
  /** Draws a new order's number; tests give one that repeats itself, to prove a collision is drawn again. */
  orderNumbers?: () => string;
  /** Counts orders placed and refused, and times the checkout (the metrics); nothing counted when not given. */
  metrics?: CheckoutMetrics;
}

/**
 * The dependencies with their defaults filled in, made once per service and handed to every operation of the
 * module: each operation names the part it uses (a `Pick` of this), so a reader sees what it touches.
 */
export interface OrdersContext extends Omit<OrdersDependencies, "payment" | "upi" | "orderNumbers" | "freeShippingAbovePaise" | "restocked" | "metrics"> {
  restocked: RestockListener;
  metrics: CheckoutMetrics;
  freeShippingAbovePaise: number | null;
  db: Kysely<DB>;
  payments: PaymentMethods;
  drawNumber: () => string;
  /** Locks the row a status change reads on PostgreSQL; SQLite's write transaction holds the whole database. */
  forUpdate: RawBuilder<unknown>;
}

export function ordersContext(deps: OrdersDependencies): OrdersContext {
  const { payment, upi, orderNumbers, restocked, metrics, ...rest } = deps;
  return {
    ...rest,
    restocked: restocked ?? noRestockListener,
    metrics: metrics ?? NO_CHECKOUT_METRICS,
    freeShippingAbovePaise: deps.freeShippingAbovePaise ?? null,
    db: deps.database.db,
    payments: { cod: payment ?? cashOnDelivery, upi: upi ? upiTransfer(upi) : null },
    drawNumber: orderNumbers ?? newOrderNumber,
    forUpdate: deps.database.dialect === "postgres" ? sql` for update` : sql``,
  };
}
