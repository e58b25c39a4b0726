import { randomUUID } from "node:crypto";
import { sql, type InferResult, type Kysely, type Nullable, type QueryCreator } from "kysely";
import type { Cart, CartLine } from "#common/cart/cart-types.ts";
import { MAX_CART_QUANTITY } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { addToCartSchema, setQuantitySchema } from "#common/cart/cart-schemas.ts";
import { idSchema } from "#common/shared/fields.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import { inShopperTransaction } from "../../platform/db/write-transaction.ts";
import { ConflictError, InvalidInputError, NotFoundError, parseInput, UnauthorizedError, withMessagePrefix } from "../../platform/errors.ts";
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { coverImages, firstVariantOf, productsForLines, variantsForLines } from "../catalog/index.ts";
import { appliedCoupon, applyCouponToCart, codeToApply, removeCouponFromCart, type LineToDiscount } from "../coupons/index.ts";
import { lineProblem, SIZE_AND_PRODUCT_COLUMNS, summariseCart, toCartLine } from "./cart-summary.ts";
import { createVisitorCartOperations } from "./visitor-cart.ts";

export { cartFingerprint, lineProblem } from "./cart-summary.ts";

const c = messages.cart;

export type CartService = ReturnType<typeof createCartService>;

/**
 * The shopper's cart lines with their variants and products (none for a variant or product deleted since), aliased
 * `ci`; callers choose the order. A query fragment: the checkout reads it inside its first statement, within the
 * shopper's transaction. The price, compare-at price and stock are the variant's (docs/decisions/048); the name, the
 * sale window and the category the product's.
 */
export function cartLines(from: Kysely<DB>, userId: string) {
  return from
    .selectFrom("cart_items as ci")
    .leftJoin(variantsForLines(from).as("v"), "v.id", "ci.variant_id")
    .leftJoin(productsForLines(from).as("p"), "p.id", "v.product_id")
    .select(LINE_COLUMNS)
    .where("ci.user_id", "=", userId);
}

/** What a cart line reads, for the cart and the checkout. */
const LINE_COLUMNS = ["ci.id", "ci.quantity", ...SIZE_AND_PRODUCT_COLUMNS] as const;

/** The lines a discount code is judged on: those that can be ordered, with their products' categories. */
export function linesToDiscount(rows: readonly { category_id: string | null }[], lines: readonly CartLine[]): LineToDiscount[] {
  return lines.flatMap((line, i) => (line.available ? [{ categoryId: rows[i]?.category_id ?? null, lineTotalPaise: line.lineTotalPaise }] : []));
}

/** A row of cartLines, every column nullable: the checkout left-joins the lines, so an empty cart is a row of nulls. */
export type CartRow = Nullable<InferResult<ReturnType<typeof cartLines>>[number]>;

/**
 * Deletes the cart lines an order took (by id), as a statement the caller finishes its own with: on PostgreSQL the
 * last part of the statement that stores the order (the ids go as one array, so its text is the same for any number).
 */
export function orderedLinesDeletion(from: QueryCreator<DB>, lineIds: string[]) {
  return from.deleteFrom("cart_items").where(sql<boolean>`id = any(${lineIds}::text[])`);
}

/** Deletes the cart lines an order took (by id), inside the caller's transaction (the order's). */
export async function deleteOrderedLines(trx: Kysely<DB>, lineIds: string[]): Promise<void> {
  await trx.deleteFrom("cart_items").where("id", "in", lineIds).execute();
}

/** Empties a deleting account's cart, inside the caller's transaction (the account's deletion, decision 040). */
export async function emptyCartOf(trx: Kysely<DB>, userId: string): Promise<void> {
  await trx.deleteFrom("cart_items").where("user_id", "=", userId).execute();
}

/** A shopper's lines with their variants, products and first pictures, in the order they were added. */
const cartWithProducts = compiledOnce((db, { userId }: { userId: string }) =>
  db
    .selectFrom("cart_items as ci")
    .leftJoin(variantsForLines(db).as("v"), "v.id", "ci.variant_id")
    .leftJoin(productsForLines(db).as("p"), "p.id", "v.product_id")
    .leftJoin(coverImages(db).as("img"), "img.product_id", "p.id")
    .select([...LINE_COLUMNS, "img.url", "img.width", "img.height", "img.media_key"])
    .where("ci.user_id", "=", userId)
    .orderBy("ci.created_at")
    .orderBy("ci.id"),
);

/** What the cart icon's count reads of each line: its quantity and its variant's stock, no prices or pictures. */
const linesToCount = compiledOnce((db, { userId }: { userId: string }) =>
  db
    .selectFrom("cart_items as ci")
    .leftJoin(variantsForLines(db).as("v"), "v.id", "ci.variant_id")
    .select(["ci.quantity", "v.product_id as product_id", "v.stock"])
    .where("ci.user_id", "=", userId),
);

/**
 * The variant to add (the one asked for, or the product's first when none is named), and the shopper's line of it if
 * there is one: what an add reads and stores from.
 */
function variantWithLine(db: Kysely<DB>, userId: string, productId: string, variantId: string | null) {
  return db
    .selectFrom(variantsForLines(db).as("v"))
    .leftJoin("cart_items as ci", (join) => join.onRef("ci.variant_id", "=", "v.id").on("ci.user_id", "=", userId))
    .where("v.product_id", "=", productId)
    .where("v.id", "=", sql<string>`coalesce(${variantId}, (${firstVariantOf(db, productId)}))`);
}

/** A line to store, or to add to the shopper's line of the same variant. */
interface NewLine {
  id: string;
  userId: string;
  productId: string;
  variantId: string | null;
  quantity: number;
  createdAt: string;
}

/** Stores the line at the cart's new quantity; when `checked`, only where the stock and the cap allow it. */
function storing(checked: boolean) {
  return compiledOnce((db, line: NewLine) => {
    const cartQuantity = sql<number>`coalesce(ci.quantity, 0) + ${line.quantity}`;
    return db
      .insertInto("cart_items")
      .columns(["id", "user_id", "product_id", "variant_id", "quantity", "created_at"])
      .expression(
        variantWithLine(db, line.userId, line.productId, line.variantId)
          .select([sql.val(line.id).as("id"), sql.val(line.userId).as("user_id"), "v.product_id", "v.id", cartQuantity.as("quantity"), sql.val(line.createdAt).as("created_at")])
          .$if(checked, (query) => query.where((where) => where(cartQuantity, "<=", where.ref("v.stock"))).where(cartQuantity, "<=", MAX_CART_QUANTITY)),
      )
      .onConflict((oc) => oc.columns(["user_id", "variant_id"]).doUpdateSet((eb) => ({ quantity: eb.ref("excluded.quantity") })))
      .returning("quantity");
  });
}
const storeLineWithinStock = storing(true);
const storeLine = storing(false);

/** A delivery zone's shipping: its fee, and from what subtotal (after the discount) it is free (null: never). */
export type ShippingRule = { feePaise: number; freeAbovePaise: number | null };

/**
 * A shopper's cart, stored per user (docs/product.md, Cart); only its owner ever reaches it. Every
 * change runs in the shopper's transaction (server/platform/db/write-transaction.ts), one at a time with their checkouts.
 */
export function createCartService(
  database: Pick<Database, "db" | "dialect">,
  {
    shippingFeePaise,
    rateLimiter,
    timeZone = "Asia/Kolkata",
    freeShippingAbovePaise = null,
  }: {
    shippingFeePaise: number;
    /** Bounds the visitors' carts made per address, and the discount codes an account tries. */
    rateLimiter?: RateLimiter;
    /** The shop's time zone: a code's start date is told in it. */
    timeZone?: string;
    /** FREE_SHIPPING_ABOVE_PAISE: null, never free. */
    freeShippingAbovePaise?: number | null;
  },
) {
  const { db } = database;

  function owner(viewer: SessionUser | null, prefix: string): SessionUser {
    if (!viewer) throw new UnauthorizedError(`${prefix} Please log in first.`);
    return viewer;
  }

  /** One of the user's lines with its product's stock (0 when the product is gone); another shopper's is "not found". */
  async function findLine(trx: Kysely<DB>, userId: string, itemId: unknown, prefix: string) {
    const id = idSchema.safeParse(itemId);
    const line = id.success
      ? await trx
          .selectFrom("cart_items as ci")
          .leftJoin(variantsForLines(trx).as("v"), "v.id", "ci.variant_id")
          .select(["ci.id", "ci.quantity", "v.stock"])
          .where("ci.id", "=", id.data)
          .where("ci.user_id", "=", userId)
          .executeTakeFirst()
      : undefined;
    if (!line) throw new NotFoundError(`${prefix} ${c.itemNotFound}`);
    return { id: line.id, stock: line.stock ?? 0 };
  }

  async function readCart(userId: string, shipping?: ShippingRule): Promise<Cart> {
    const rows = await cartWithProducts.execute(db, { userId });
    const lines = rows.map((row) => toCartLine(row));
    const coupon = await appliedCoupon(db, userId, linesToDiscount(rows, lines), timeZone);
    if (shipping) return summariseCart(lines, shipping.feePaise, { coupon, freeShippingAbovePaise: shipping.freeAbovePaise });
    return summariseCart(lines, shippingFeePaise, { coupon, freeShippingAbovePaise });
  }

  return {
    ...createVisitorCartOperations(database, { shippingFeePaise, rateLimiter, freeShippingAbovePaise }),

    /**
     * Applies a discount code to the shopper's cart (accounts only: docs/decisions/046), refused with its reason
     * unless it gives a discount now; it replaces any code applied before. Answers the cart with it, summarised from
     * the lines and the judgement the apply made under the shopper's lock (the cart cannot change before the commit),
     * so that the answer costs no second read of the cart.
     */
    async applyCoupon(viewer: SessionUser | null, input: unknown): Promise<Cart> {
      if (!rateLimiter) throw new Error("the cart service needs a rate limiter to take discount codes");
      const { user, code } = await codeToApply(viewer, input, rateLimiter);
      return inShopperTransaction(database, user.id, async (trx) => {
        const rows = await cartWithProducts.execute(trx, { userId: user.id });
        const lines = rows.map((row) => toCartLine(row));
        const coupon = await applyCouponToCart(trx, { userId: user.id, code, lines: linesToDiscount(rows, lines), timeZone });
        return summariseCart(lines, shippingFeePaise, { coupon, freeShippingAbovePaise });
      });
    },

    /** Takes the discount code off the shopper's cart. */
    async removeCoupon(viewer: SessionUser | null): Promise<void> {
      const user = owner(viewer, c.updatePrefix);
      await inShopperTransaction(database, user.id, (trx) => removeCouponFromCart(trx, user.id));
    },

    /**
     * The shopper's cart, its shipping the shop's flat fee, or `shipping`'s: the checkout prices it with the delivery
     * zone of the PIN code it knows (docs/decisions/053), as the order will be.
     */
    async getCart(viewer: SessionUser | null, shipping?: ShippingRule): Promise<Cart> {
      return readCart(owner(viewer, c.fetchPrefix).id, shipping);
    },

    /**
     * The navigation's cart icon, on nearly every signed-in page: the same count as the summary's 'Items (n)'
     * (units of the lines that can be ordered), read without the prices and pictures the cart page needs.
     */
    async countItems(viewer: SessionUser | null): Promise<number> {
      if (!viewer) return 0;
      const rows = await linesToCount.execute(db, { userId: viewer.id });
      return rows.reduce((n, row) => (lineProblem(row.product_id ? { name: "", stock: row.stock ?? 0 } : null, row.quantity) === null ? n + row.quantity : n), 0);
    },

    /** A new product enters with quantity 1 (or as asked); one already there goes up — never beyond the stock. */
    async addToCart(viewer: SessionUser | null, input: unknown): Promise<void> {
      const user = owner(viewer, c.addPrefix);
      const { productId, variantId, quantity } = withMessagePrefix(c.addPrefix, () => parseInput(addToCartSchema, input));
      await inShopperTransaction(database, user.id, async (trx) => {
        const line = { id: randomUUID(), userId: user.id, productId, variantId: variantId ?? null, quantity, createdAt: new Date().toISOString() };
        // One statement when the add is allowed; the reason is read only when it is refused (decision 009).
        if (await storeLineWithinStock.executeTakeFirst(trx, line)) return;
        const product = await variantWithLine(trx, user.id, productId, line.variantId).select(["v.stock", "ci.quantity"]).executeTakeFirst();
        if (!product) throw new NotFoundError(`${c.addPrefix} ${messages.product.notFound}`);
        const wanted = (product.quantity ?? 0) + quantity;
        if (product.stock === 0) throw new ConflictError(`${c.addPrefix} ${c.outOfStock}`);
        if (wanted > product.stock) throw new ConflictError(`${c.addPrefix} ${c.onlyLeft(product.stock)}`);
        if (wanted > MAX_CART_QUANTITY) throw new InvalidInputError(`${c.addPrefix} ${c.quantityAtMost(MAX_CART_QUANTITY)}`);
        // No reason holds: restocked between the two statements (the shopper's lock keeps the line still, not the
        // stock), and the stock just read allows the add.
        await storeLine.execute(trx, line);
      });
    },

    /** Sets a line's quantity; at or below 0 the line goes (docs/product.md, Cart). */
    async setQuantity(viewer: SessionUser | null, itemId: unknown, input: unknown): Promise<void> {
      const user = owner(viewer, c.updatePrefix);
      const { quantity } = withMessagePrefix(c.updatePrefix, () => parseInput(setQuantitySchema, input));
      await inShopperTransaction(database, user.id, async (trx) => {
        const line = await findLine(trx, user.id, itemId, c.updatePrefix);
        if (quantity <= 0) {
          await trx.deleteFrom("cart_items").where("id", "=", line.id).execute();
          return;
        }
        if (quantity > line.stock) {
          throw new ConflictError(`${c.updatePrefix} ${line.stock ? c.onlyLeft(line.stock) : c.outOfStock}`, { quantity: c.onlyLeft(line.stock) });
        }
        await trx.updateTable("cart_items").set({ quantity }).where("id", "=", line.id).execute();
      });
    },

    async removeItem(viewer: SessionUser | null, itemId: unknown): Promise<void> {
      const user = owner(viewer, c.removePrefix);
      await inShopperTransaction(database, user.id, async (trx) => {
        const line = await findLine(trx, user.id, itemId, c.removePrefix);
        await trx.deleteFrom("cart_items").where("id", "=", line.id).execute();
      });
    },
  };
}

