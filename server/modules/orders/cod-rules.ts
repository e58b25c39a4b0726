import type { CodStanding, PaymentOption } from "#common/orders/order-types.ts";
import { codBlockSchema } from "#common/orders/order-schemas.ts";
import { idSchema } from "#common/shared/fields.ts";
import { messages } from "#common/shared/messages.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, requireSignedIn, type SessionUser } from "../../platform/session-user.ts";
import { recordAdminChange } from "../audit/index.ts";
import type { OrdersContext } from "./orders-context.ts";
import { loadOrder } from "./order-records.ts";

// Who may pay cash at the door (docs/decisions/054). A refused Cash-on-Delivery parcel comes back weeks later with a
// dead plant and the shipping paid twice, so the owner can turn COD off for a shopper whose parcels were refused.

type RulesContext = Pick<OrdersContext, "db" | "payments">;

/** Why this shopper may not pay cash on delivery (with UPI offered instead when the shop takes it); null when they may. */
export async function codRefusalFor(ctx: RulesContext, userId: string): Promise<string | null> {
  const blocked = await ctx.db.selectFrom("cod_blocks").select("user_id").where("user_id", "=", userId).executeTakeFirst();
  return blocked ? withUpiOffered(ctx, messages.checkout.codBlocked) : null;
}

/** A refusal of Cash on Delivery, pointing to UPI when the shop takes it. */
export function withUpiOffered(ctx: Pick<OrdersContext, "payments">, refusal: string): string {
  return ctx.payments.upi ? messages.checkout.payByUpiInstead(refusal) : refusal;
}

/** The ways the signed-in shopper may pay, each with why not when they may not: what the checkout page offers. */
export async function paymentOptions(ctx: RulesContext, viewer: SessionUser | null): Promise<PaymentOption[]> {
  const user = requireSignedIn(viewer);
  const options: PaymentOption[] = [{ id: "cod", label: ctx.payments.cod.label, refusal: await codRefusalFor(ctx, user.id) }];
  if (ctx.payments.upi) options.push({ id: "upi", label: ctx.payments.upi.label, refusal: null });
  return options;
}

/** The customer of an order, for the owner acting on it: 404 for no such order, null for a deleted account. */
async function customerOf(ctx: RulesContext, orderId: unknown): Promise<{ userId: string | null; shipName: string }> {
  const id = idSchema.safeParse(orderId);
  const order = id.success ? await ctx.db.selectFrom("orders").select(["user_id", "ship_name"]).where("id", "=", id.data).executeTakeFirst() : undefined;
  if (!order) throw new NotFoundError(messages.orders.notFound);
  return { userId: order.user_id, shipName: order.ship_name };
}

/** How a shopper has fared with Cash on Delivery (bounded by that shopper's orders); none once the account is deleted. */
async function standingOf(ctx: RulesContext, userId: string): Promise<CodStanding> {
  const [refused, blocked] = await Promise.all([
    ctx.db.selectFrom("orders").select((eb) => eb.fn.countAll<number>().as("n")).where("user_id", "=", userId).where("status", "=", "refused").executeTakeFirstOrThrow(),
    ctx.db.selectFrom("cod_blocks").select("user_id").where("user_id", "=", userId).executeTakeFirst(),
  ]);
  return { refusedParcels: Number(refused.n), codBlocked: Boolean(blocked) };
}

/** The standing of an order's customer with Cash on Delivery, for the owner's order page; null once they deleted their account. */
export async function codStanding(ctx: RulesContext, viewer: SessionUser | null, orderId: unknown): Promise<CodStanding | null> {
  requireAdmin(viewer);
  const { userId } = await customerOf(ctx, orderId);
  return userId === null ? null : standingOf(ctx, userId);
}

/**
 * The owner turns Cash on Delivery off for an order's customer, or back on, from the order's page (where a refused
 * parcel is marked); answers the customer's standing after.
 */
export async function setCodBlocked(ctx: RulesContext & Pick<OrdersContext, "events" | "database">, viewer: SessionUser | null, orderId: unknown, input: unknown): Promise<CodStanding> {
  const admin = requireAdmin(viewer);
  const { blocked } = parseInput(codBlockSchema, input);
  const { userId, shipName } = await customerOf(ctx, orderId);
  if (userId === null) throw new ConflictError(messages.payments.noShopper);
  await inWriteTransaction(ctx.database, async (trx) => {
    const was = Boolean(await trx.selectFrom("cod_blocks").select("user_id").where("user_id", "=", userId).executeTakeFirst());
    if (blocked) {
      await trx
        .insertInto("cod_blocks")
        .values({ user_id: userId, blocked_by: admin.id, blocked_at: new Date().toISOString() })
        .onConflict((conflict) => conflict.column("user_id").doNothing())
        .execute();
    } else {
      await trx.deleteFrom("cod_blocks").where("user_id", "=", userId).execute();
    }
    if (was === blocked) return;
    // Named as the order ships to: the account's own record is the accounts module's.
    const order = await loadOrder(trx, orderId);
    const label = order ? `${shipName} (order ${order.number})` : shipName;
    const summary = `Cash on Delivery ${blocked ? "turned off" : "turned back on"} for ${label}`;
    await recordAdminChange(trx, admin, { thing: { kind: "customer", id: userId, label }, summary, changes: { codBlocked: { before: was, after: blocked } } });
  });
  ctx.events.info("cod.rule-changed", { accountId: admin.id, customerId: userId, blocked });
  return standingOf(ctx, userId);
}
