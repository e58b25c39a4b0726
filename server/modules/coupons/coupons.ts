import { randomUUID } from "node:crypto";
import { sql, type Kysely, type QueryCreator, type Selectable } from "kysely";
import { couponMessages as m } from "#common/coupons/coupon-messages.ts";
import { applyCouponSchema, couponListQuerySchema, createCouponSchema, setCouponPausedSchema, updateCouponSchema } from "#common/coupons/coupon-schemas.ts";
import type { Coupon, CouponFormValues, CouponPage } from "#common/coupons/coupon-types.ts";
import { instantToWallTime } from "#common/shared/dates.ts";
import { idSchema } from "#common/shared/fields.ts";
import { paiseToRupeesInput } from "#common/shared/money.ts";
import { isServerInstant } from "#common/shared/timestamps.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { SelectQuery } from "../../platform/db/insert-values-when.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { toFlag, toIsoString } from "../../platform/db/values.ts";
import { ConflictError, InvalidInputError, NotFoundError, parseInput, UnauthorizedError } from "../../platform/errors.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { changedFields, recordAdminChange } from "../audit/index.ts";
import { categoryNames } from "../catalog/index.ts";
import type { CouponTable } from "./coupons-tables.ts";
import { appliedCouponToJudge, couponTerms, flag, judgeCoupon, readCouponToJudge, toCouponToJudge, type CouponToJudgeRow, type Judgement, type LineToDiscount } from "./coupon-rules.ts";

/**
 * Codes tried per account, an abuse limit against guessing: every apply counts, accepted or refused. A shopper
 * types a code or two; forty an hour is a script.
 */
export const couponGuessRule: RateRule = { name: "coupon-guess", limit: 40, windowMs: 60 * 60_000, message: m.tooManyGuesses };

/** Codes on one page of the owner's list (newest first, paged by key, so a page costs the same however many exist). */
export const COUPON_PAGE_SIZE = 50;

type CouponRow = Selectable<CouponTable>;

/** Where a page of the list ended: a code's created_at and id (the list's key, indexed as coupons_created). */
function encodeCouponCursor(row: { created_at: string | Date; id: string }): string {
  return Buffer.from(JSON.stringify([toIsoString(row.created_at), row.id])).toString("base64url");
}

/** A cursor this service handed out, or a 400: a made-up one never reaches the database as anything else. */
function decodeCouponCursor(cursor: string, field: "after" | "before"): { createdAt: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== "string" || typeof parsed[1] !== "string" || !isServerInstant(parsed[0]) || !idSchema.safeParse(parsed[1]).success) {
    throw new InvalidInputError(m.cursorInvalid, { [field]: m.cursorInvalid });
  }
  return { createdAt: parsed[0], id: parsed[1] };
}

export type CouponsService = ReturnType<typeof createCouponsService>;

/** The owner's discount codes (docs/decisions/046): made, listed, edited, paused and deleted by admins only. */
export function createCouponsService(database: Pick<Database, "db" | "dialect">, { timeZone }: { timeZone: string }) {
  const { db, dialect } = database;

  /** The rows' categories (one read for the page) and their names, as the owner's list and the API show a code. */
  async function withCategories(rows: CouponRow[]): Promise<Coupon[]> {
    if (!rows.length) return [];
    const links = await db.selectFrom("coupon_categories").select(["coupon_id", "category_id"]).where("coupon_id", "in", rows.map((r) => r.id)).execute();
    const names = new Map((await categoryNames(db, [...new Set(links.map((l) => l.category_id))])).map((c) => [c.id, c]));
    return rows.map((row) => ({
      ...couponTerms(row),
      paused: flag(row.paused),
      categories: links.filter((l) => l.coupon_id === row.id).flatMap((l) => names.get(l.category_id) ?? []),
    }));
  }

  async function oneCoupon(couponId: unknown): Promise<Coupon> {
    const id = idSchema.safeParse(couponId);
    const rows = id.success ? await db.selectFrom("coupons").selectAll().where("id", "=", id.data).execute() : [];
    const [coupon] = await withCategories(rows);
    if (!coupon) throw new NotFoundError(m.notFound);
    return coupon;
  }

  /** Rows strictly older (or newer) than `key` in the list's order, nearest first; at most `limit`. */
  function beyond(key: { createdAt: string; id: string } | undefined, direction: "older" | "newer", limit: number) {
    const op = direction === "older" ? "<" : ">";
    const order = direction === "older" ? "desc" : "asc";
    return db
      .selectFrom("coupons")
      .selectAll()
      // The bare range on created_at first, so both databases seek into the index instead of filtering from its end.
      .$if(key !== undefined, (q) =>
        q
          .where("created_at", op === "<" ? "<=" : ">=", key!.createdAt)
          .where((eb) => eb.or([eb("created_at", op, key!.createdAt), eb("id", op, key!.id)])),
      )
      .orderBy("created_at", order)
      .orderBy("id", order)
      .limit(limit)
      .execute();
  }

  /** A code's terms as its edit form shows them (times on the shop's clock, rupees as typed). */
  function formValues(coupon: Coupon): CouponFormValues {
    return {
      code: coupon.code,
      kind: coupon.kind,
      value: coupon.kind === "percent" ? String(coupon.amount) : paiseToRupeesInput(coupon.amount),
      minSubtotal: coupon.minSubtotalPaise === null ? "" : paiseToRupeesInput(coupon.minSubtotalPaise),
      startsAt: coupon.startsAt ? instantToWallTime(coupon.startsAt, timeZone) : "",
      endsAt: coupon.endsAt ? instantToWallTime(coupon.endsAt, timeZone) : "",
      maxUses: coupon.maxUses === null ? "" : String(coupon.maxUses),
      oncePerCustomer: coupon.oncePerCustomer,
      categoryIds: coupon.categories.map((c) => c.id),
    };
  }

  return {
    /**
     * One page of codes, newest first, from the start, `after` a page (older) or `before` one (newer). Two indexed
     * reads of at most a page and one row, whatever the number of codes.
     */
    async listCoupons(viewer: SessionUser | null, input: unknown = {}): Promise<CouponPage> {
      requireAdmin(viewer);
      const query = parseInput(couponListQuerySchema, input);
      const after = query.after ? decodeCouponCursor(query.after, "after") : undefined;
      const before = !after && query.before ? decodeCouponCursor(query.before, "before") : undefined;
      let rows: CouponRow[];
      let more: boolean;
      if (before) {
        const newer = await beyond(before, "newer", COUPON_PAGE_SIZE + 1);
        more = newer.length > COUPON_PAGE_SIZE;
        rows = newer.slice(0, COUPON_PAGE_SIZE).reverse();
      } else {
        const older = await beyond(after, "older", COUPON_PAGE_SIZE + 1);
        more = older.length > COUPON_PAGE_SIZE;
        rows = older.slice(0, COUPON_PAGE_SIZE);
      }
      const first = rows[0];
      const last = rows.at(-1);
      // The other direction: is there a row past the page's other end? One row read.
      const hasNewer = before ? more : first !== undefined && after !== undefined && (await beyond({ createdAt: toIsoString(first.created_at), id: first.id }, "newer", 1)).length > 0;
      const hasOlder = before ? last !== undefined && (await beyond({ createdAt: toIsoString(last.created_at), id: last.id }, "older", 1)).length > 0 : more;
      return {
        coupons: await withCategories(rows),
        nextCursor: hasOlder && last ? encodeCouponCursor(last) : null,
        previousCursor: hasNewer && first ? encodeCouponCursor(first) : null,
      };
    },

    /** One code and its terms as the edit form shows them. */
    async getCouponForEditing(viewer: SessionUser | null, couponId: unknown): Promise<{ coupon: Coupon; form: CouponFormValues }> {
      requireAdmin(viewer);
      const coupon = await oneCoupon(couponId);
      return { coupon, form: formValues(coupon) };
    },

    async createCoupon(viewer: SessionUser | null, input: unknown): Promise<Coupon> {
      const admin = requireAdmin(viewer);
      const details = parseInput(createCouponSchema, input);
      const startsAt = details.startsAt ? zonedToInstant(details.startsAt, timeZone) : null;
      const endsAt = details.endsAt ? zonedToInstant(details.endsAt, timeZone) : null;
      const known = await categoryNames(db, details.categoryIds);
      if (known.length !== details.categoryIds.length) throw new InvalidInputError(m.categoryUnknown, { categoryIds: m.categoryUnknown });
      const id = randomUUID();
      try {
        await inWriteTransaction(database, async (trx) => {
          await trx
            .insertInto("coupons")
            .values({
              id,
              code: details.code,
              kind: details.kind,
              amount: details.amount,
              min_subtotal_paise: details.minSubtotal ?? null,
              starts_at: startsAt,
              ends_at: endsAt,
              max_uses: details.maxUses ?? null,
              once_per_customer: toFlag(dialect, details.oncePerCustomer),
              paused: toFlag(dialect, false),
              created_at: new Date().toISOString(),
            })
            .execute();
          if (details.categoryIds.length) await trx.insertInto("coupon_categories").values(details.categoryIds.map((category_id) => ({ coupon_id: id, category_id }))).execute();
          const terms = { ...auditTerms(details, startsAt, endsAt), paused: false };
          await recordAdminChange(trx, admin, { thing: { kind: "coupon", id, label: details.code }, summary: `Added coupon ${details.code}`, changes: changedFields({}, terms) });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(m.codeTaken, { code: m.codeTaken });
        throw error;
      }
      return oneCoupon(id);
    },

    /**
     * Changes a code's terms, validated as when it was made; fields the input leaves out keep their stored value.
     * The code and its categories are written in one write transaction. Carts holding the code judge it afresh at
     * their next read; placed orders keep their copy of the code and their discount. Total uses never go below the
     * uses counted: the update is conditional on the count it reads, so a checkout counting a use meanwhile cannot
     * slip under it.
     */
    async updateCoupon(viewer: SessionUser | null, couponId: unknown, input: unknown): Promise<Coupon> {
      const admin = requireAdmin(viewer);
      const coupon = await oneCoupon(couponId);
      // Anything but an object is parsed as sent, so it is refused with the schema's messages.
      const terms = input !== null && typeof input === "object" && !Array.isArray(input) ? { ...formValues(coupon), ...input } : input;
      const details = parseInput(updateCouponSchema, terms);
      const known = await categoryNames(db, details.categoryIds);
      if (known.length !== details.categoryIds.length) throw new InvalidInputError(m.categoryUnknown, { categoryIds: m.categoryUnknown });
      try {
        await inWriteTransaction(database, async (trx) => {
          const updated = await trx
            .updateTable("coupons")
            .set({
              code: details.code,
              kind: details.kind,
              amount: details.amount,
              min_subtotal_paise: details.minSubtotal ?? null,
              starts_at: details.startsAt ? zonedToInstant(details.startsAt, timeZone) : null,
              ends_at: details.endsAt ? zonedToInstant(details.endsAt, timeZone) : null,
              max_uses: details.maxUses ?? null,
              once_per_customer: toFlag(dialect, details.oncePerCustomer),
            })
            .where("id", "=", coupon.id)
            .$if(details.maxUses !== undefined, (q) => q.where("used_count", "<=", details.maxUses!))
            .returning("id")
            .executeTakeFirst();
          if (!updated) {
            const row = await trx.selectFrom("coupons").select("used_count").where("id", "=", coupon.id).executeTakeFirst();
            if (!row) throw new NotFoundError(m.notFound);
            const used = Number(row.used_count);
            throw new ConflictError(m.maxUsesBelowUsed(used), { maxUses: m.maxUsesBelowUsed(used) });
          }
          await trx.deleteFrom("coupon_categories").where("coupon_id", "=", coupon.id).execute();
          if (details.categoryIds.length) await trx.insertInto("coupon_categories").values(details.categoryIds.map((category_id) => ({ coupon_id: coupon.id, category_id }))).execute();
          const startsAt = details.startsAt ? zonedToInstant(details.startsAt, timeZone) : null;
          const endsAt = details.endsAt ? zonedToInstant(details.endsAt, timeZone) : null;
          const changes = changedFields(storedTerms(coupon), auditTerms(details, startsAt, endsAt));
          if (Object.keys(changes).length > 0) {
            const summary = coupon.code === details.code ? `Coupon ${details.code} edited: ${Object.keys(changes).join(", ")}` : `Coupon ${coupon.code} renamed ${details.code}`;
            await recordAdminChange(trx, admin, { thing: { kind: "coupon", id: coupon.id, label: details.code }, summary, changes });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError(m.codeTaken, { code: m.codeTaken });
        throw error;
      }
      return oneCoupon(coupon.id);
    },

    async setCouponPaused(viewer: SessionUser | null, couponId: unknown, input: unknown): Promise<Coupon> {
      const admin = requireAdmin(viewer);
      const { paused } = parseInput(setCouponPausedSchema, input);
      const coupon = await oneCoupon(couponId);
      await inWriteTransaction(database, async (trx) => {
        await trx.updateTable("coupons").set({ paused: toFlag(dialect, paused) }).where("id", "=", coupon.id).execute();
        if (coupon.paused === paused) return;
        const summary = `Coupon ${coupon.code} ${paused ? "paused" : "resumed"}`;
        await recordAdminChange(trx, admin, { thing: { kind: "coupon", id: coupon.id, label: coupon.code }, summary, changes: { paused: { before: coupon.paused, after: paused } } });
      });
      return { ...coupon, paused };
    },

    /** Orders that used the code keep it (its text and their discount are copied onto them). */
    async deleteCoupon(viewer: SessionUser | null, couponId: unknown): Promise<Coupon> {
      const admin = requireAdmin(viewer);
      const coupon = await oneCoupon(couponId);
      await inWriteTransaction(database, async (trx) => {
        const deleted = await trx.deleteFrom("coupons").where("id", "=", coupon.id).executeTakeFirst();
        if (deleted.numDeletedRows === 0n) return;
        await recordAdminChange(trx, admin, { thing: { kind: "coupon", id: coupon.id, label: coupon.code }, summary: `Deleted coupon ${coupon.code}`, changes: changedFields({ ...storedTerms(coupon), paused: coupon.paused }, {}) });
      });
      return coupon;
    },
  };
}

/** A code's terms as the activity records them (docs/decisions/057): what the owner sets, not the uses counted. */
function auditTerms(details: { code: string; kind: string; amount: number; minSubtotal?: number | undefined; maxUses?: number | undefined; oncePerCustomer: boolean; categoryIds: string[] }, startsAt: string | null, endsAt: string | null) {
  return {
    code: details.code,
    kind: details.kind,
    amount: details.amount,
    minSubtotalPaise: details.minSubtotal ?? null,
    startsAt,
    endsAt,
    maxUses: details.maxUses ?? null,
    oncePerCustomer: details.oncePerCustomer,
    categoryIds: [...details.categoryIds].sort(),
  };
}

function storedTerms(coupon: Coupon) {
  const { code, kind, amount, minSubtotalPaise, startsAt, endsAt, maxUses, oncePerCustomer } = coupon;
  return { code, kind, amount, minSubtotalPaise, startsAt, endsAt, maxUses, oncePerCustomer, categoryIds: coupon.categories.map((c) => c.id).sort() };
}

/** A wall-clock 'YYYY-MM-DDTHH:mm' in `timeZone` as an ISO instant (the offset found for that moment, twice for a DST edge). */
export function zonedToInstant(local: string, timeZone: string): string {
  const [date, time] = local.split("T") as [string, string];
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const [h, mi, s = 0] = time.split(":").map(Number) as [number, number, number?];
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
        .formatToParts(new Date(instant))
        .map((p) => [p.type, p.value]),
    );
    return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - instant;
  };
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return new Date(instant).toISOString();
}

// ---- What the cart and the checkout use (through index.ts).

/** The code applied to the shopper's cart, judged against its lines now; null without one (or once it was paused or deleted). One statement. */
export async function appliedCoupon(from: Kysely<DB>, userId: string, lines: readonly LineToDiscount[], timeZone: string): Promise<Judgement | null> {
  return judgeAppliedCoupon(await appliedCouponToJudge(from, userId).executeTakeFirst(), lines, timeZone);
}

/**
 * The code of a row read with appliedCouponToJudge (the checkout reads it beside its cart's lines, one statement for
 * both), judged against the lines now; null without one (or once it was paused or deleted).
 */
export function judgeAppliedCoupon(row: CouponToJudgeRow | undefined, lines: readonly LineToDiscount[], timeZone: string): Judgement | null {
  const coupon = toCouponToJudge(row);
  return coupon ? judgeCoupon(coupon, lines, new Date(), timeZone) : null;
}

/**
 * The code a shopper asks to apply, read before their transaction: visitors are asked to log in, and every try
 * counts against the guessing limit (its own statement: a refused apply still counts).
 */
export async function codeToApply(viewer: SessionUser | null, input: unknown, rateLimiter: RateLimiter): Promise<{ user: SessionUser; code: string }> {
  if (!viewer) throw new UnauthorizedError(m.loginToApply);
  const { code } = parseInput(applyCouponSchema, input);
  await rateLimiter.hit(couponGuessRule, viewer.id);
  return { user: viewer, code };
}

/**
 * Applies a code to the shopper's cart (inside the caller's transaction, the shopper's): refused, with the reason,
 * unless it gives the cart a discount now.
 */
export async function applyCouponToCart(
  trx: Kysely<DB>,
  { userId, code, lines, timeZone }: { userId: string; code: string; lines: readonly LineToDiscount[]; timeZone: string },
): Promise<Judgement> {
  const coupon = await readCouponToJudge(trx, userId, { code });
  if (!coupon) throw new InvalidInputError(m.unknown, { code: m.unknown });
  const judged = judgeCoupon(coupon, lines, new Date(), timeZone);
  if (judged.problem) throw new ConflictError(judged.problem, { code: judged.problem });
  await trx
    .insertInto("cart_coupons")
    .values({ user_id: userId, coupon_id: coupon.id })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ coupon_id: coupon.id }))
    .execute();
  return judged;
}

/** Takes the code off the shopper's cart (nothing when none is applied). */
export async function removeCouponFromCart(trx: Kysely<DB>, userId: string): Promise<void> {
  await trx.deleteFrom("cart_coupons").where("user_id", "=", userId).execute();
}

/**
 * Inside the order's transaction: counts one use of the code for the order, unless that would pass its limit or it
 * was paused or deleted meanwhile. One conditional update of the code's row: it locks the row (PostgreSQL) and
 * re-reads the count after any checkout that held it, so however many race for the last use, one gets it. Answers
 * the refusal's message, or null when the use was counted; the order also takes the code off the cart.
 * PostgreSQL's checkout folds the same writes into its last statement instead (claimingCouponUse).
 */
export async function claimCouponUse(trx: Kysely<DB>, use: CouponUse, dialect: Database["dialect"]): Promise<string | null> {
  const claimed = await trx
    .updateTable("coupons")
    .set({ used_count: sql`used_count + 1` })
    .where("id", "=", use.couponId)
    .where("paused", "=", toFlag(dialect, false))
    .where((eb) => eb.or([eb("max_uses", "is", null), eb("used_count", "<", eb.ref("max_uses"))]))
    .returning("id")
    .executeTakeFirst();
  if (!claimed) return couponUseRefusal(trx, use.couponId);
  await trx.insertInto("coupon_uses").values({ order_id: use.orderId, coupon_id: use.couponId, user_id: use.userId, created_at: use.now }).execute();
  await removeCouponFromCart(trx, use.userId);
  return null;
}

/** One use of a code by an order. */
export interface CouponUse {
  couponId: string;
  orderId: string;
  userId: string;
  now: string;
}

/**
 * On PostgreSQL, claimCouponUse's three writes as data-modifying CTEs that the caller adds to a statement of its
 * own (the checkout's last, which takes the stock and counts the day), so that a code costs the order no round trip:
 * `claimed_use` is the conditional increment (a row when the use was counted, none when it was refused), the use's
 * row is written only from it (a code deleted meanwhile writes nothing, rather than failing its foreign key), and
 * the code leaves the cart. With `when`, the increment runs only if that query has a row, and only after it: the
 * checkout passes its stock taken, so that the product's row is locked before the code's, in the order a
 * cancellation takes them. On a refusal the caller rolls its transaction back and tells couponUseRefusal's reason.
 */
export function claimingCouponUse(from: QueryCreator<DB>, use: CouponUse, when?: SelectQuery) {
  return from
    .with("claimed_use", (q) =>
      q
        .updateTable("coupons")
        .set({ used_count: sql`used_count + 1` })
        .where("id", "=", use.couponId)
        .where("paused", "=", false)
        .where((eb) => eb.or([eb("max_uses", "is", null), eb("used_count", "<", eb.ref("max_uses"))]))
        .$if(when !== undefined, (query) => query.where((eb) => eb.exists(when!)))
        .returning("id"),
    )
    .with("use_row", (q) =>
      q
        .insertInto("coupon_uses")
        .columns(["order_id", "coupon_id", "user_id", "created_at"])
        .expression((eb) => eb.selectFrom("claimed_use").select([sql.val(use.orderId).as("order_id"), "claimed_use.id", sql.val(use.userId).as("user_id"), sql.val(use.now).as("created_at")])),
    )
    .with("code_off_cart", (q) => q.deleteFrom("cart_coupons").where("user_id", "=", use.userId));
}

/** Why a code's use was not counted: paused or deleted meanwhile (answered as unknown), or used up by others. */
export async function couponUseRefusal(trx: Kysely<DB>, couponId: string): Promise<string> {
  const row = await trx.selectFrom("coupons").select("paused").where("id", "=", couponId).executeTakeFirst();
  return !row || flag(row.paused) ? m.unknown : m.usedUp;
}

/** A cancelled order gives its use back (inside the cancellation's transaction); for a once-per-customer code, the customer may use it again. */
export async function giveBackCouponUse(trx: Kysely<DB>, orderId: string): Promise<void> {
  const use = await trx.deleteFrom("coupon_uses").where("order_id", "=", orderId).returning("coupon_id").executeTakeFirst();
  if (use) await trx.updateTable("coupons").set({ used_count: sql`used_count - 1` }).where("id", "=", use.coupon_id).where("used_count", ">", 0).execute();
}
