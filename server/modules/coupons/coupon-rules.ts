import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import { formatDateTime } from "#common/shared/dates.ts";
import { discountPaise } from "#common/shared/discount.ts";
import { sql, type InferResult, type Kysely, type QueryCreator } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";

// Whether a code applies to a cart and for how much: the one judgement the cart's summary, the apply and the
// checkout all make (docs/decisions/046).

/** A code as it is judged: its rule, its limits, and whether this shopper has used it already. */
export interface CouponToJudge {
  id: string;
  code: string;
  kind: "percent" | "amount";
  amount: number;
  minSubtotalPaise: number | null;
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  usedCount: number;
  oncePerCustomer: boolean;
  usedByShopper: boolean;
  /** Empty: every line. */
  categoryIds: string[];
}

/** A cart line as a code sees it: only lines that can be ordered count. */
export interface LineToDiscount {
  categoryId: string | null;
  lineTotalPaise: number;
}

export type Judgement = { code: string; couponId: string; discountPaise: number; problem: string | null };

/**
 * The discount the code gives these lines now, or why it gives none. The minimum is compared with the whole
 * subtotal; a code limited to categories is taken off those lines' subtotal only.
 */
export function judgeCoupon(coupon: CouponToJudge, lines: readonly LineToDiscount[], now: Date, timeZone: string): Judgement {
  const refuse = (problem: string): Judgement => ({ code: coupon.code, couponId: coupon.id, discountPaise: 0, problem });
  const at = now.getTime();
  if (coupon.endsAt && Date.parse(coupon.endsAt) <= at) return refuse(m.expired);
  if (coupon.startsAt && Date.parse(coupon.startsAt) > at) return refuse(m.notYetValid(formatDateTime(coupon.startsAt, timeZone)));
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return refuse(m.usedUp);
  if (coupon.oncePerCustomer && coupon.usedByShopper) return refuse(m.alreadyUsed);
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotalPaise, 0);
  if (coupon.minSubtotalPaise !== null && subtotal < coupon.minSubtotalPaise) return refuse(m.minimumNotReached(coupon.minSubtotalPaise - subtotal));
  const limited = coupon.categoryIds.length > 0;
  const eligible = lines.filter((line) => !limited || (line.categoryId !== null && coupon.categoryIds.includes(line.categoryId)));
  const eligiblePaise = eligible.reduce((sum, line) => sum + line.lineTotalPaise, 0);
  if (eligiblePaise <= 0) return refuse(m.nothingApplies);
  return { code: coupon.code, couponId: coupon.id, discountPaise: discountPaise(coupon, eligiblePaise), problem: null };
}

/** A stored flag as a boolean: PostgreSQL answers booleans, SQLite 0 and 1. */
export const flag = (value: boolean | number) => value === true || value === 1;

/** The columns of a code's terms, as both the owner's list and the judgement read them. */
interface CouponTermColumns {
  id: string;
  code: string;
  kind: "percent" | "amount";
  amount: number | string | bigint;
  min_subtotal_paise: number | string | bigint | null;
  starts_at: string | Date | null;
  ends_at: string | Date | null;
  max_uses: number | null;
  used_count: number | string | bigint;
  once_per_customer: boolean | number;
}

/** A code's terms from its row: numbers as numbers (PostgreSQL's bigint arrives as text), times as ISO instants. */
export function couponTerms(row: CouponTermColumns) {
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    amount: Number(row.amount),
    minSubtotalPaise: row.min_subtotal_paise === null ? null : Number(row.min_subtotal_paise),
    startsAt: row.starts_at === null ? null : toIsoString(row.starts_at),
    endsAt: row.ends_at === null ? null : toIsoString(row.ends_at),
    maxUses: row.max_uses,
    usedCount: Number(row.used_count),
    oncePerCustomer: flag(row.once_per_customer),
  };
}

/**
 * A code as it is judged for `userId`, one row: its terms, whether it is paused, whether this shopper used it, and
 * its categories comma-joined (ids are letters, digits, `-` and `_`: idSchema). `string_agg` is both databases'
 * (SQLite since 3.44), so one statement serves both. Columns are prefixed `coupon_`, so that the checkout can read
 * them beside its cart's lines in its first statement. A query fragment: callers choose the code.
 */
function couponsToJudge(from: QueryCreator<DB>, userId: string) {
  return from.selectFrom("coupons as c").select((eb) => [
    "c.id as coupon_id",
    "c.code as coupon_code",
    "c.kind as coupon_kind",
    "c.amount as coupon_amount",
    "c.min_subtotal_paise as coupon_min_subtotal_paise",
    "c.starts_at as coupon_starts_at",
    "c.ends_at as coupon_ends_at",
    "c.max_uses as coupon_max_uses",
    "c.used_count as coupon_used_count",
    "c.once_per_customer as coupon_once_per_customer",
    "c.paused as coupon_paused",
    eb
      .exists(eb.selectFrom("coupon_uses as u").select(sql`1`.as("one")).whereRef("u.coupon_id", "=", "c.id").where("u.user_id", "=", userId))
      .$castTo<boolean | number>()
      .as("coupon_used_by_shopper"),
    eb
      .selectFrom("coupon_categories as cc")
      .select(sql<string | null>`string_agg(cc.category_id, ',')`.as("ids"))
      .whereRef("cc.coupon_id", "=", "c.id")
      .as("coupon_category_ids"),
  ]);
}

/** The code applied to the shopper's cart, as it is judged (no row without one): a fragment the checkout's first read joins. */
export function appliedCouponToJudge(from: QueryCreator<DB>, userId: string) {
  return couponsToJudge(from, userId).innerJoin("cart_coupons as a", "a.coupon_id", "c.id").where("a.user_id", "=", userId);
}

/** A row of couponsToJudge; every column null where the checkout's read found no code applied. */
export type CouponToJudgeRow = { [K in keyof InferResult<ReturnType<typeof couponsToJudge>>[number]]: InferResult<ReturnType<typeof couponsToJudge>>[number][K] | null };

/** The code of a couponsToJudge row; undefined without one, or when it is paused (answered as unknown). */
export function toCouponToJudge(row: CouponToJudgeRow | undefined): CouponToJudge | undefined {
  if (!row || row.coupon_id === null || row.coupon_paused === null || flag(row.coupon_paused)) return undefined;
  return {
    ...couponTerms({
      id: row.coupon_id,
      code: row.coupon_code!,
      kind: row.coupon_kind!,
      amount: row.coupon_amount!,
      min_subtotal_paise: row.coupon_min_subtotal_paise,
      starts_at: row.coupon_starts_at,
      ends_at: row.coupon_ends_at,
      max_uses: row.coupon_max_uses,
      used_count: row.coupon_used_count!,
      once_per_customer: row.coupon_once_per_customer!,
    }),
    usedByShopper: flag(row.coupon_used_by_shopper ?? false),
    categoryIds: row.coupon_category_ids ? row.coupon_category_ids.split(",") : [],
  };
}

/**
 * Reads a code as it is judged for `userId`: by its id, or by its code (upper-case). A paused code is read as none
 * (answered as unknown). One statement of indexed reads, whatever the number of codes, uses or orders.
 */
export async function readCouponToJudge(from: Kysely<DB>, userId: string, by: { id: string } | { code: string }): Promise<CouponToJudge | undefined> {
  const row = await couponsToJudge(from, userId)
    .$if("id" in by, (q) => q.where("c.id", "=", (by as { id: string }).id))
    .$if("code" in by, (q) => q.where("c.code", "=", (by as { code: string }).code))
    .executeTakeFirst();
  return toCouponToJudge(row);
}
