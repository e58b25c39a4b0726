import { sql, type Insertable, type Kysely, type QueryCreator, type Updateable } from "kysely";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { messages } from "#common/shared/messages.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { ProductTable } from "./catalog-tables.ts";
import { fieldConflict, NotFoundError } from "../../platform/errors.ts";

// Every write of a product's stock or price, in one file: the checkout takes stock, a cancellation puts it back, the
// owner sets it (in place, or with the price from the product form). Each takes the caller's transaction, so the
// change commits or rolls back with the order, the cancellation or the form that made it; the statement that takes
// stock is also a query fragment, so the checkout can run it inside its own statements, compiled once.

/** A line's quantity taken from the product's stock at `now`. */
export interface StockTaking {
  productId: string;
  quantity: number;
  now: string;
}

/**
 * Takes the line's quantity from the product's stock only if the stock covers it, answering the price it found and
 * the stock left (no row when it did not: not enough stock, or no such product). On PostgreSQL the row stays locked until commit. A
 * query fragment (its values may be compiledOnce's stand-ins): to run alone or as a CTE of the caller's statement.
 */
export function stockTaking(from: QueryCreator<DB>, { productId, quantity, now }: StockTaking) {
  return from
    .updateTable("products")
    .set({ stock: sql`stock - ${quantity}`, updated_at: now })
    .where("id", "=", productId)
    .where("stock", ">=", quantity)
    .returning(["price_paise", "stock"]);
}

/** The product's name and stock now (undefined once deleted): why a line could not be taken. */
export function readStock(from: Kysely<DB>, productId: string): Promise<{ name: string; stock: number } | undefined> {
  return from.selectFrom("products").select(["name", "stock"]).where("id", "=", productId).executeTakeFirst();
}

/**
 * Puts `quantity` back into the product's stock (a cancelled order's line), inside the caller's transaction. Answers
 * whether the product was out of stock before (it can be bought again), read from the row it wrote.
 */
export async function putBackStock(trx: Kysely<DB>, productId: string, quantity: number): Promise<{ backInStock: boolean }> {
  const row = await trx
    .updateTable("products")
    .set({ stock: sql`stock + ${quantity}`, updated_at: new Date().toISOString() })
    .where("id", "=", productId)
    .returning("stock")
    .executeTakeFirst();
  return { backInStock: row !== undefined && row.stock === quantity };
}

/** A new product's row, its first stock and price with it (the owner's product form). */
export async function insertProduct(trx: Kysely<DB>, row: Insertable<ProductTable>): Promise<void> {
  await trx.insertInto("products").values(row).execute();
}

/** Sets the stock alone, in place (the owner's list of products), unless it moved from `stockBefore`: see below. */
export async function setStockInPlace(trx: Kysely<DB>, productId: string, stock: number, stockBefore: number | undefined): Promise<void> {
  await updateProductUnlessStockMoved(trx, productId, { stock, updated_at: new Date().toISOString() }, stockBefore);
}

/**
 * Updates a product (the form's fields, its price among them, and its stock unless the form left it); with `stockBefore` (the stock the
 * owner's form showed), only while the stock is still that, so a sale made while the form was open is never undone
 * by saving it. Otherwise 404, or a conflict naming the stock now (the form, reloaded, then shows it).
 */
export async function updateProductUnlessStockMoved(trx: Kysely<DB>, productId: string, fields: Updateable<ProductTable>, stockBefore: number | undefined): Promise<void> {
  let update = trx.updateTable("products").set(fields).where("id", "=", productId);
  if (stockBefore !== undefined) update = update.where("stock", "=", stockBefore);
  const updated = await update.executeTakeFirst();
  if (updated.numUpdatedRows > 0n) return;
  const now = await trx.selectFrom("products").select("stock").where("id", "=", productId).executeTakeFirst();
  if (!now) throw new NotFoundError(messages.product.notFound);
  throw fieldConflict("stock", adminMessages.productForm.stockChanged(now.stock));
}
