import { createHash, randomBytes, randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Cart } from "#common/cart/cart-types.ts";
import { addToCartSchema, setQuantitySchema } from "#common/cart/cart-schemas.ts";
import { MAX_CART_QUANTITY } from "#common/shared/constants.ts";
import { idSchema } from "#common/shared/fields.ts";
import { messages } from "#common/shared/messages.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { inShopperTransaction, inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, InvalidInputError, NotFoundError, parseInput, withMessagePrefix } from "../../platform/errors.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { Caller } from "../../platform/session-user.ts";
import { coverImages, firstVariantOf, productsForLines, variantsForLines } from "../catalog/index.ts";
import { sellableName } from "#common/catalog/variant-names.ts";
import { SIZE_AND_PRODUCT_COLUMNS, summariseCart, toCartLine } from "./cart-summary.ts";

// A visitor's cart (docs/decisions/037): kept under a random token the visitor's browser holds in a cookie, found by
// the token's SHA-256, with the same rules and words as an account's cart. The HTTP layer turns the outcomes below
// into the cookie (visitor-cart-cookie.ts); these functions never see HTTP.

const c = messages.cart;

/** A visitor's cart is forgotten after this many days without an add, a change or a visit that reads it. */
export const VISITOR_CART_IDLE_DAYS = 30;
const IDLE_MS = VISITOR_CART_IDLE_DAYS * 24 * 60 * 60 * 1000;
/** A cart read is written down as a use at most once a day, so that reading pages does not write each time. */
const USE_RECORDED_EVERY_MS = 24 * 60 * 60 * 1000;
/** How many forgotten carts one add deletes at most: the clean-up is bounded, and an add pays for a few at a time. */
const FORGOTTEN_CARTS_PER_ADD = 20;
/**
 * Visitors' carts started from one client address: a visitor's cart is a row anyone may make, so their number is
 * bounded per address (generous: many people may share one address behind a carrier's or an office's NAT).
 */
export const visitorCartRateRule: RateRule = { name: "visitor-cart", limit: 120, windowMs: 60 * 60 * 1000, message: c.tooManyVisitorCarts };
/** The token: 32 random bytes in base64url (43 characters). Anything else is not one of ours. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * What a cart operation did to the visitor's token, for the HTTP layer to pass on: nothing; a token to keep (a new
 * cart, or the same token whose lifetime starts again); or a token to forget (unknown, expired, merged).
 */
export type VisitorCartOutcome = { kind: "unchanged" } | { kind: "issued"; token: string } | { kind: "ended" };
const UNCHANGED: VisitorCartOutcome = { kind: "unchanged" };
const ENDED: VisitorCartOutcome = { kind: "ended" };

/** What a merge into an account's cart did, for the notice on the next page; null when there was nothing to merge. */
export interface VisitorCartMerge {
  added: number;
  limits: string[];
  notice: string;
}

/** The token as stored: a copy of the database holds no token a browser could present. */
export const hashVisitorToken = (token: string) => createHash("sha256").update(token).digest("base64url");
const newToken = () => randomBytes(32).toString("base64url");

/** The visitor's cart row by token. */
function findCart(db: Kysely<DB>, token: string) {
  return db.selectFrom("visitor_carts").select(["id", "used_at"]).where("token_hash", "=", hashVisitorToken(token)).executeTakeFirst();
}

/**
 * The visitor's cart row by token, locked until the transaction ends: an UPDATE that changes nothing takes the row's
 * lock on PostgreSQL without FOR UPDATE, which SQLite lacks (and SQLite's writers are serial anyway). A transaction
 * that waited for a merge that deleted the row finds nothing.
 */
function lockCart(trx: Kysely<DB>, token: string) {
  return trx
    .updateTable("visitor_carts")
    .set({ token_hash: sql<string>`token_hash` })
    .where("token_hash", "=", hashVisitorToken(token))
    .returning(["id", "used_at"])
    .executeTakeFirst();
}

const isExpired = (usedAt: string | Date, now: number) => new Date(usedAt).getTime() <= now - IDLE_MS;

/** The visitor's lines with their products and first pictures, in the order they were added. */
function linesOf(db: Kysely<DB>, cartId: string) {
  return db
    .selectFrom("visitor_cart_items as vi")
    .leftJoin(variantsForLines(db).as("v"), "v.id", "vi.variant_id")
    .leftJoin(productsForLines(db).as("p"), "p.id", "v.product_id")
    .leftJoin(coverImages(db).as("img"), "img.product_id", "p.id")
    .select(["vi.id", "vi.quantity", ...SIZE_AND_PRODUCT_COLUMNS, "img.url", "img.width", "img.height", "img.media_key"])
    .where("vi.cart_id", "=", cartId)
    .orderBy("vi.created_at")
    .orderBy("vi.id")
    .execute();
}

/**
 * Moves the visitor's cart holding `visitorToken` into the account's cart of `userId`, inside the caller's
 * transaction, which must hold the account's shopper lock (inShopperTransaction). Quantities are added, each capped
 * by the stock and by the most a cart holds of one plant; the account's own quantity is never lowered. The visitor's
 * cart is deleted in the same transaction. The cart row is locked first (PostgreSQL; SQLite's writers are serial),
 * so of two sign-ins racing with the same token one merges and the other finds no cart: nothing is added twice.
 */
export async function mergeVisitorCart(trx: Kysely<DB>, visitorToken: string, userId: string, now = Date.now()): Promise<VisitorCartMerge | null> {
  if (!TOKEN_SHAPE.test(visitorToken)) return null;
  const cart = await lockCart(trx, visitorToken);
  if (!cart) return null;
  const expired = isExpired(cart.used_at, now);
  const lines = expired
    ? []
    : await trx
        .selectFrom("visitor_cart_items as vi")
        .innerJoin(variantsForLines(trx).as("v"), "v.id", "vi.variant_id")
        .innerJoin(productsForLines(trx).as("p"), "p.id", "v.product_id")
        .leftJoin("cart_items as ci", (join) => join.onRef("ci.variant_id", "=", "v.id").on("ci.user_id", "=", userId))
        .select(["vi.quantity", "v.product_id as product_id", "v.id as variant_id", "v.label", "p.name", "v.stock", "ci.quantity as held"])
        .where("vi.cart_id", "=", cart.id)
        .orderBy("vi.created_at")
        .orderBy("vi.id")
        .execute();
  await trx.deleteFrom("visitor_carts").where("id", "=", cart.id).execute();
  if (lines.length === 0) return null;

  let added = 0;
  const limits: string[] = [];
  const createdAt = new Date(now).toISOString();
  for (const line of lines) {
    const held = line.held ?? 0;
    const cap = Math.min(line.stock, MAX_CART_QUANTITY);
    const wanted = held + line.quantity;
    const quantity = Math.max(held, Math.min(wanted, cap));
    added += quantity - held;
    const name = sellableName(line.name, line.label);
    if (quantity < wanted) limits.push(line.stock <= MAX_CART_QUANTITY ? c.mergeLimitedByStock(name, quantity) : c.mergeLimitedByMax(name, quantity));
    if (quantity === held) continue;
    await trx
      .insertInto("cart_items")
      .values({ id: randomUUID(), user_id: userId, product_id: line.product_id, variant_id: line.variant_id, quantity, created_at: createdAt })
      .onConflict((oc) => oc.columns(["user_id", "variant_id"]).doUpdateSet({ quantity }))
      .execute();
  }
  // A long list would not fit the notice's cookie; the cart page shows every line anyway.
  const shown = limits.length > 3 ? [...limits.slice(0, 3), c.mergeMoreLimited(limits.length - 3)] : limits;
  return { added, limits, notice: c.visitorCartMerged(added, shown) };
}

/**
 * The visitor's side of the cart service: the same rules, limits and words as an account's cart (cart.ts), on the
 * cart a token opens. A token that opens nothing (forged, unknown, expired) is no cart, and the outcome says to
 * forget it; a visitor's line id from another cart is "not found", like another shopper's.
 */
export function createVisitorCartOperations(
  database: Pick<Database, "db" | "dialect">,
  {
    shippingFeePaise,
    rateLimiter,
    now = () => Date.now(),
    freeShippingAbovePaise = null,
  }: { shippingFeePaise: number; rateLimiter?: RateLimiter | undefined; now?: () => number; freeShippingAbovePaise?: number | null },
) {
  const { db } = database;
  const empty = (): Cart => summariseCart([], shippingFeePaise);

  /** The open cart a token names, deleting an expired one on sight; with what to tell the browser. */
  async function openCart(token: string | null): Promise<{ cartId: string | null; outcome: VisitorCartOutcome }> {
    if (token === null) return { cartId: null, outcome: UNCHANGED };
    if (!TOKEN_SHAPE.test(token)) return { cartId: null, outcome: ENDED };
    const cart = await findCart(db, token);
    if (!cart) return { cartId: null, outcome: ENDED };
    const at = now();
    if (isExpired(cart.used_at, at)) {
      await db.deleteFrom("visitor_carts").where("id", "=", cart.id).execute();
      return { cartId: null, outcome: ENDED };
    }
    if (new Date(toIsoString(cart.used_at)).getTime() > at - USE_RECORDED_EVERY_MS) return { cartId: cart.id, outcome: UNCHANGED };
    // Used again after a day or more: its idle days, and the cookie's, start again.
    await db.updateTable("visitor_carts").set({ used_at: new Date(at).toISOString() }).where("id", "=", cart.id).execute();
    return { cartId: cart.id, outcome: { kind: "issued", token } };
  }

  /** The cart a change applies to, locked for the change (PostgreSQL); null when the token opens none. */
  async function cartForChange(trx: Kysely<DB>, token: string | null, at: number) {
    if (token === null || !TOKEN_SHAPE.test(token)) return null;
    const cart = await lockCart(trx, token);
    if (!cart) return null;
    if (isExpired(cart.used_at, at)) {
      await trx.deleteFrom("visitor_carts").where("id", "=", cart.id).execute();
      return null;
    }
    return cart.id;
  }

  /** One of the cart's lines with its product's stock (0 when the product is gone); anyone else's is "not found". */
  async function findLine(trx: Kysely<DB>, cartId: string | null, itemId: unknown, prefix: string) {
    const id = idSchema.safeParse(itemId);
    const line =
      id.success && cartId
        ? await trx
            .selectFrom("visitor_cart_items as vi")
            .leftJoin(variantsForLines(trx).as("v"), "v.id", "vi.variant_id")
            .select(["vi.id", "vi.quantity", "v.stock"])
            .where("vi.id", "=", id.data)
            .where("vi.cart_id", "=", cartId)
            .executeTakeFirst()
        : undefined;
    if (!line) throw new NotFoundError(`${prefix} ${c.itemNotFound}`);
    return { id: line.id, stock: line.stock ?? 0 };
  }

  const touch = (trx: Kysely<DB>, cartId: string, at: number) =>
    trx.updateTable("visitor_carts").set({ used_at: new Date(at).toISOString() }).where("id", "=", cartId).execute();

  /** The visitor's cart (empty for none), and what to tell the browser about its token. */
  async function getVisitorCart(token: string | null): Promise<{ cart: Cart; outcome: VisitorCartOutcome }> {
    const { cartId, outcome } = await openCart(token);
    if (!cartId) return { cart: empty(), outcome };
    return { cart: summariseCart((await linesOf(db, cartId)).map((row) => toCartLine(row)), shippingFeePaise, { freeShippingAbovePaise }), outcome };
  }

  return {
    getVisitorCart,

    /** The navigation's cart icon for a visitor: the summary's count. Without a token, no query at all. */
    async countVisitorItems(token: string | null): Promise<{ count: number; outcome: VisitorCartOutcome }> {
      const { cart, outcome } = await getVisitorCart(token);
      return { count: cart.itemCount, outcome };
    },

    /**
     * Adds to the visitor's cart, making one on the first add (the only time a visitor's browser is given a token,
     * so a visitor who adds nothing keeps getting the shared cache's pages). The same checks and words as an
     * account's add. A refused add makes no cart.
     */
    async addToVisitorCart(token: string | null, input: unknown, caller: Caller): Promise<VisitorCartOutcome> {
      const { productId, variantId, quantity } = withMessagePrefix(c.addPrefix, () => parseInput(addToCartSchema, input));
      const at = now();
      // Counted before the transaction (the limiter writes on its own connection); an add to a live cart is not.
      const live = token !== null && TOKEN_SHAPE.test(token) && (await findCart(db, token)) !== undefined;
      if (!live && rateLimiter) await rateLimiter.hit(visitorCartRateRule, caller.clientIp ?? "unknown");
      return inWriteTransaction(database, async (trx) => {
        let cartId = await cartForChange(trx, token, at);
        let outcome: VisitorCartOutcome = { kind: "issued", token: token ?? "" };
        if (!cartId) {
          const issued = newToken();
          cartId = randomUUID();
          await trx
            .insertInto("visitor_carts")
            .values({ id: cartId, token_hash: hashVisitorToken(issued), created_at: new Date(at).toISOString(), used_at: new Date(at).toISOString() })
            .execute();
          outcome = { kind: "issued", token: issued };
        } else {
          await touch(trx, cartId, at);
        }
        // The size asked for, or the product's first when none is named (docs/decisions/048).
        const product = await trx
          .selectFrom(variantsForLines(trx).as("v"))
          .leftJoin("visitor_cart_items as vi", (join) => join.onRef("vi.variant_id", "=", "v.id").on("vi.cart_id", "=", cartId))
          .select(["v.id", "v.stock", "vi.quantity"])
          .where("v.id", "=", sql<string>`coalesce(${variantId ?? null}, (${firstVariantOf(trx, productId)}))`)
          .where("v.product_id", "=", productId)
          .executeTakeFirst();
        if (!product) throw new NotFoundError(`${c.addPrefix} ${messages.product.notFound}`);
        const wanted = (product.quantity ?? 0) + quantity;
        if (product.stock === 0) throw new ConflictError(`${c.addPrefix} ${c.outOfStock}`);
        if (wanted > product.stock) throw new ConflictError(`${c.addPrefix} ${c.onlyLeft(product.stock)}`);
        if (wanted > MAX_CART_QUANTITY) throw new InvalidInputError(`${c.addPrefix} ${c.quantityAtMost(MAX_CART_QUANTITY)}`);
        await trx
          .insertInto("visitor_cart_items")
          .values({ id: randomUUID(), cart_id: cartId, product_id: productId, variant_id: product.id, quantity: wanted, created_at: new Date(at).toISOString() })
          .onConflict((oc) => oc.columns(["cart_id", "variant_id"]).doUpdateSet({ quantity: wanted }))
          .execute();
        await forgetIdleCarts(trx, at);
        return outcome;
      });
    },

    /** Sets a line's quantity; at or below 0 the line goes. As an account's cart does. */
    async setVisitorQuantity(token: string | null, itemId: unknown, input: unknown): Promise<VisitorCartOutcome> {
      const { quantity } = withMessagePrefix(c.updatePrefix, () => parseInput(setQuantitySchema, input));
      const at = now();
      return inWriteTransaction(database, async (trx) => {
        const cartId = await cartForChange(trx, token, at);
        const line = await findLine(trx, cartId, itemId, c.updatePrefix);
        if (quantity <= 0) {
          await trx.deleteFrom("visitor_cart_items").where("id", "=", line.id).execute();
        } else {
          if (quantity > line.stock) {
            throw new ConflictError(`${c.updatePrefix} ${line.stock ? c.onlyLeft(line.stock) : c.outOfStock}`, { quantity: c.onlyLeft(line.stock) });
          }
          await trx.updateTable("visitor_cart_items").set({ quantity }).where("id", "=", line.id).execute();
        }
        await touch(trx, cartId!, at);
        return { kind: "issued", token: token! } as const;
      });
    },

    async removeVisitorItem(token: string | null, itemId: unknown): Promise<VisitorCartOutcome> {
      const at = now();
      return inWriteTransaction(database, async (trx) => {
        const cartId = await cartForChange(trx, token, at);
        const line = await findLine(trx, cartId, itemId, c.removePrefix);
        await trx.deleteFrom("visitor_cart_items").where("id", "=", line.id).execute();
        await touch(trx, cartId!, at);
        return { kind: "issued", token: token! } as const;
      });
    },

    /**
     * Signing in with a visitor's cart: merges it into the account's cart (mergeVisitorCart) in one transaction
     * holding the account's shopper lock. Null when the token opened no cart, or an empty one.
     */
    async mergeVisitorCart(token: string, userId: string): Promise<VisitorCartMerge | null> {
      if (!TOKEN_SHAPE.test(token)) return null;
      return inShopperTransaction(database, userId, (trx) => mergeVisitorCart(trx, token, userId, now()));
    },
  };
}

/** Deletes a few carts idle for too long, oldest first, through the index on used_at: never a scan of the table. */
async function forgetIdleCarts(trx: Kysely<DB>, at: number): Promise<void> {
  const cutoff = new Date(at - IDLE_MS).toISOString();
  await trx
    .deleteFrom("visitor_carts")
    .where("id", "in", (eb) => eb.selectFrom("visitor_carts").select("id").where("used_at", "<=", cutoff).orderBy("used_at").limit(FORGOTTEN_CARTS_PER_ADD))
    .execute();
}
