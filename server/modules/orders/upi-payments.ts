import { upiReferenceSchema } from "#common/orders/order-schemas.ts";
import type { OrderDetail, ViewedOrder } from "#common/orders/order-types.ts";
import { messages } from "#common/shared/messages.ts";
import { onClockMoved, shopClock } from "../../platform/clock.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, NotFoundError, parseInput } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { loadOrder, visibleOrder } from "./order-records.ts";
import { changeStatus, type StatusContext } from "./order-status.ts";
import type { OrdersContext } from "./orders-context.ts";
import { upiPaymentLink, upiQrSvg } from "./payments.ts";

// Paying by UPI without a gateway (docs/decisions/054): the shopper pays the shop's UPI ID from their own app, gives
// the reference their app shows, and the owner, seeing the money arrive, marks the order paid. An order not paid
// in time is cancelled by the shop itself, its stock returned and its customer told.

/** How many due orders one look cancels; the next look, moments later, takes the rest. */
const DUE_BATCH = 50;

/** How to pay an order awaiting its UPI payment: the link a UPI app opens, and the same as a QR code. Its owner only. */
export async function upiRequestFor(ctx: Pick<OrdersContext, "payments" | "shopName">, order: OrderDetail, viewedByOwner: boolean): Promise<ViewedOrder["upi"]> {
  const upi = ctx.payments.upi;
  if (!upi || !viewedByOwner || order.status !== "awaiting_payment" || order.payment.method !== "upi") return null;
  const link = upiPaymentLink(upi.payee, order, ctx.shopName);
  return { link, qrSvg: await upiQrSvg(link) };
}

/**
 * The shopper gives the UPI reference (UTR) of the payment they made for their order; they may correct it while the
 * order still awaits its payment. Anybody else's order is the same 404 as none.
 */
export async function giveUpiReference(ctx: Pick<OrdersContext, "database" | "db" | "events">, viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<OrderDetail> {
  const order = await visibleOrder(ctx.db, viewer, orderId);
  if (order.userId !== viewer?.id) throw new NotFoundError(messages.orders.notFound);
  const { reference } = parseInput(upiReferenceSchema, input);
  if (order.payment.method !== "upi") throw new ConflictError(messages.payments.notUpi);
  const given = await inWriteTransaction(ctx.database, async (trx) => {
    // Only while the payment is awaited: once the owner settled it, a reference changes nothing.
    const updated = await trx
      .updateTable("order_payments")
      .set({ reference, updated_at: new Date().toISOString() })
      .where("order_id", "=", order.id)
      .where("state", "=", "awaiting")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new ConflictError(messages.payments.notAwaiting);
    return loadOrder(trx, order.id);
  });
  ctx.events.info("order.payment-reference", { accountId: order.userId, orderId: order.id });
  return given!;
}

/**
 * Cancels every order whose UPI payment is due by now (the shop's clock) and still awaited: its stock back, the
 * day's totals mended, its customer mailed, in the status change's transaction. Every server copy runs it; the
 * change locks the order and checks its status, so each order is cancelled, and mailed, exactly once. Answers how
 * many this call cancelled.
 */
export async function cancelUnpaidOrders(ctx: StatusContext & Pick<OrdersContext, "logger">): Promise<number> {
  const now = new Date(shopClock.now()).toISOString();
  const due = await ctx.db
    .selectFrom("order_payments")
    .select("order_id")
    .where("state", "=", "awaiting")
    .where("pay_by", "<=", now)
    .orderBy("pay_by")
    .limit(DUE_BATCH)
    .execute();
  let cancelled = 0;
  for (const { order_id } of due) {
    try {
      await changeStatus(ctx, order_id, ["awaiting_payment"], "cancelled", "shop");
      cancelled++;
      ctx.events.info("order.unpaid-cancelled", { orderId: order_id });
    } catch (error) {
      // Paid, cancelled by its customer, or cancelled by another copy a moment ago: nothing left to do.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  return cancelled;
}

/** How often every server copy looks for unpaid orders whose time is up: a minute late at most, one indexed probe each. */
export const UNPAID_LOOK_INTERVAL_MS = 30_000;

/**
 * Runs `cancelDue` now, every UNPAID_LOOK_INTERVAL_MS, and whenever the test clock moves (so a browser test moves
 * the clock past an order's time and sees it cancelled, without waiting). One look at a time. Answers the stop.
 */
export function watchUnpaidOrders(cancelDue: () => Promise<number>, onError: (error: unknown) => void): () => void {
  let running: Promise<void> | undefined;
  let again = false;
  const look = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await cancelDue().catch(onError);
      } while (again);
      running = undefined;
    })();
  };
  const timer = setInterval(look, UNPAID_LOOK_INTERVAL_MS);
  timer.unref();
  const unhook = onClockMoved(look);
  look();
  return () => {
    clearInterval(timer);
    unhook();
  };
}
