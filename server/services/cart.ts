import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Cart, CartLine } from "#common/cart-types.ts";
import { messages } from "#common/messages.ts";
import { sumPaise } from "#common/money.ts";
import { addToCartSchema, setQuantitySchema } from "#common/schemas/cart.ts";
import { idSchema } from "#common/schemas/fields.ts";
import type { DB } from "../db/schema.ts";
import { ConflictError, NotFoundError, parseInput, ServiceError, UnauthorizedError } from "./errors.ts";
import type { SessionUser } from "./session-user.ts";

const c = messages.cart;

export type CartService = ReturnType<typeof createCartService>;

/** A shopper's cart, stored per user (spec section 4, "Cart (stored)"); only its owner ever reaches it. */
export function createCartService(db: Kysely<DB>, { shippingFeePaise }: { shippingFeePaise: number }) {
  function owner(viewer: SessionUser | null, prefix: string): SessionUser {
    if (!viewer) throw new UnauthorizedError(`${prefix} Please log in first.`);
    return viewer;
  }

  async function findLine(userId: string, itemId: unknown, prefix: string) {
    const id = idSchema.safeParse(itemId);
    const line = id.success
      ? await db
          .selectFrom("cart_items as ci")
          .innerJoin("products as p", "p.id", "ci.product_id")
          .select(["ci.id", "ci.quantity", "p.stock", "p.name"])
          .where("ci.id", "=", id.data)
          .where("ci.user_id", "=", userId)
          .executeTakeFirst()
      : undefined;
    // Another shopper's line answers exactly like a missing one.
    if (!line) throw new NotFoundError(`${prefix} ${c.itemNotFound}`);
    return line;
  }

  return {
    async getCart(viewer: SessionUser | null): Promise<Cart> {
      const user = owner(viewer, c.fetchPrefix);
      const rows = await db
        .selectFrom("cart_items as ci")
        .innerJoin("products as p", "p.id", "ci.product_id")
        .leftJoin("product_images as img", (join) => join.onRef("img.product_id", "=", "p.id").on("img.position", "=", 0))
        .select(["ci.id", "ci.quantity", "p.id as product_id", "p.name", "p.price_paise", "p.stock", "img.url", "img.width", "img.height"])
        .where("ci.user_id", "=", user.id)
        .orderBy("ci.created_at")
        .orderBy("ci.id")
        .execute();
      const lines: CartLine[] = rows.map((row) => {
        const available = row.stock >= row.quantity;
        return {
          id: row.id,
          productId: row.product_id,
          name: row.name,
          image: row.url ? { url: row.url, width: row.width ?? 800, height: row.height ?? 800, alt: row.name } : null,
          unitPricePaise: row.price_paise,
          quantity: row.quantity,
          stock: row.stock,
          available,
          lineTotalPaise: available ? row.price_paise * row.quantity : 0,
        };
      });
      const counted = lines.filter((line) => line.available);
      const subtotalPaise = sumPaise(counted.map((line) => line.lineTotalPaise));
      const shippingPaise = counted.length ? shippingFeePaise : 0;
      return {
        lines,
        itemCount: counted.reduce((n, line) => n + line.quantity, 0),
        subtotalPaise,
        shippingPaise,
        totalPaise: subtotalPaise + shippingPaise,
      };
    },

    /** How many units are in the cart, for the navigation's cart icon. */
    async countItems(viewer: SessionUser | null): Promise<number> {
      if (!viewer) return 0;
      const row = await db
        .selectFrom("cart_items")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("quantity"), sql<number>`0`).as("n"))
        .where("user_id", "=", viewer.id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A new product enters with quantity 1 (or as asked); one already there goes up — never beyond the stock. */
    async addToCart(viewer: SessionUser | null, input: unknown): Promise<void> {
      const user = owner(viewer, c.addPrefix);
      const { productId, quantity } = withPrefix(c.addPrefix, () => parseInput(addToCartSchema, input));
      const product = await db.selectFrom("products").select(["id", "stock"]).where("id", "=", productId).executeTakeFirst();
      if (!product) throw new NotFoundError(`${c.addPrefix} ${messages.product.notFound}`);
      const existing = await db
        .selectFrom("cart_items")
        .select(["id", "quantity"])
        .where("user_id", "=", user.id)
        .where("product_id", "=", productId)
        .executeTakeFirst();
      const wanted = (existing?.quantity ?? 0) + quantity;
      if (product.stock === 0) throw new ConflictError(`${c.addPrefix} ${c.outOfStock}`);
      if (wanted > product.stock) throw new ConflictError(`${c.addPrefix} ${c.onlyLeft(product.stock)}`);
      await db
        .insertInto("cart_items")
        .values({ id: randomUUID(), user_id: user.id, product_id: productId, quantity, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(["user_id", "product_id"]).doUpdateSet({ quantity: sql`cart_items.quantity + ${quantity}` }))
        .execute();
    },

    /** Sets a line's quantity; at or below 0 the line goes (spec section 4). */
    async setQuantity(viewer: SessionUser | null, itemId: unknown, input: unknown): Promise<void> {
      const user = owner(viewer, c.updatePrefix);
      const { quantity } = withPrefix(c.updatePrefix, () => parseInput(setQuantitySchema, input));
      const line = await findLine(user.id, itemId, c.updatePrefix);
      if (quantity <= 0) {
        await db.deleteFrom("cart_items").where("id", "=", line.id).execute();
        return;
      }
      if (quantity > line.stock) {
        throw new ConflictError(`${c.updatePrefix} ${line.stock ? c.onlyLeft(line.stock) : c.outOfStock}`, { quantity: c.onlyLeft(line.stock) });
      }
      await db.updateTable("cart_items").set({ quantity }).where("id", "=", line.id).execute();
    },

    async removeItem(viewer: SessionUser | null, itemId: unknown): Promise<void> {
      const user = owner(viewer, c.removePrefix);
      const line = await findLine(user.id, itemId, c.removePrefix);
      await db.deleteFrom("cart_items").where("id", "=", line.id).execute();
    },
  };
}

/** Validation failures of cart calls carry the spec's prefix too ('Failed to add product to cart: …'). */
function withPrefix<T>(prefix: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ServiceError) throw new ServiceError(error.status, `${prefix} ${error.message}`, error.fieldErrors);
    throw error;
  }
}
