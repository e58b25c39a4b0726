import { randomUUID } from "node:crypto";
import { sql, type Insertable, type Kysely, type QueryCreator, type Updateable } from "kysely";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { messages } from "#common/shared/messages.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { ProductTable } from "./catalog-tables.ts";
import { fieldConflict, NotFoundError } from "../../platform/errors.ts";
import { skuFor } from "./variants.ts";

// Every write of a variant's stock or price, in one file: the checkout takes stock, a cancellation puts it back, the
// owner sets it (in place, or with the price from the product form). Each takes the caller's transaction, so the
// change commits or rolls back with the order, the cancellation or the form that made it. The variant is the unit
// sold (docs/decisions/048); every write of its stock moves its product's total by as much, in the same transaction.

/** A size that had none in stock has `unitsBack` now (an owner's edit, a cancelled order). */
export interface Restock {
  productId: string;
  variantId: string;
  unitsBack: number;
}

/**
 * Told of every restock inside the transaction that made it, while that transaction holds the size's row: what it
 * does commits or rolls back with the restock, and two server copies can never both see one size go from 0 to
 * more. The composition root gives the catalog's writers one (the back-in-stock alerts), so the catalog names no
 * module that listens.
 */
export type RestockListener = (trx: Kysely<DB>, restock: Restock) => Promise<void>;

/** No one listens (a composition without alerts: scripts, some tests). */
export const noRestockListener: RestockListener = async () => {};

/**
 * Sets a variant's stock (and `fields`) only while it is still `stockBefore`, or, without it, still what was just
 * read (read again after a sale slipped in): either way the stock it replaced is known exactly, so a restock is
 * seen by the one transaction that made it. Answers that stock, or undefined when `stockBefore` no longer holds
 * (or the variant is gone).
 */
async function replaceStock(trx: Kysely<DB>, variantId: string, stock: number, stockBefore: number | undefined, fields: Updateable<DB["product_variants"]>): Promise<number | undefined> {
  for (;;) {
    const expected = stockBefore ?? (await trx.selectFrom("product_variants").select("stock").where("id", "=", variantId).executeTakeFirst())?.stock;
    if (expected === undefined) return undefined;
    const updated = await trx.updateTable("product_variants").set({ ...fields, stock }).where("id", "=", variantId).where("stock", "=", expected).executeTakeFirst();
    if (updated.numUpdatedRows > 0n) return Number(expected);
    if (stockBefore !== undefined) return undefined;
  }
}

/** Tells `restocked` when the variant went from none to some. */
async function tellRestock(trx: Kysely<DB>, restocked: RestockListener, restock: Restock, stockBefore: number): Promise<void> {
  if (stockBefore <= 0 && restock.unitsBack > 0) await restocked(trx, restock);
}

/** A line's quantity taken from a variant's stock (and its product's total) at `now`. */
export interface StockTaking {
  productId: string;
  variantId: string;
  quantity: number;
  now: string;
}

/**
 * PostgreSQL: the CTEs `taken_product` and `taken` added to the caller's statement. The product's total is taken
 * first and the variant's stock only if the product's was, so a checkout locks a product's row before any of its
 * variants: two checkouts of two sizes of one plant, each taking its lines in product order, cannot deadlock. `taken`
 * has a row only if the variant's stock covered the line: its price, its stock left and the product's total left.
 * The rows stay locked until commit. A query fragment (its values may be compiledOnce's stand-ins).
 */
export function withStockTaken(from: QueryCreator<DB>, { productId, variantId, quantity, now }: StockTaking) {
  return from
    .with("taken_product", (q) =>
      q.updateTable("products").set({ stock: sql`stock - ${quantity}`, updated_at: now }).where("id", "=", productId).where("stock", ">=", quantity).returning("stock"),
    )
    .with("taken", (q) =>
      q
        .updateTable("product_variants")
        .set({ stock: sql`stock - ${quantity}`, updated_at: now })
        .where("id", "=", variantId)
        .where("product_id", "=", productId)
        .where("stock", ">=", quantity)
        .where(sql<boolean>`exists (select 1 from taken_product)`)
        .returning(["price_paise", "stock", sql<number>`(select stock from taken_product)`.as("product_stock")]),
    );
}

/**
 * SQLite (which has no writing CTE; its writers go one at a time): the variant's stock taken only if it covers the
 * line, answering its price and the stock left (no row when it did not). The product's total follows with
 * productStockTaking, in the same transaction.
 */
export function variantStockTaking(from: QueryCreator<DB>, { productId, variantId, quantity, now }: StockTaking) {
  return from
    .updateTable("product_variants")
    .set({ stock: sql`stock - ${quantity}`, updated_at: now })
    .where("id", "=", variantId)
    .where("product_id", "=", productId)
    .where("stock", ">=", quantity)
    .returning(["price_paise", "stock"]);
}

/** The product's total lowered by a line taken from one of its variants (SQLite; see variantStockTaking). */
export function productStockTaking(from: QueryCreator<DB>, { productId, quantity, now }: StockTaking) {
  return from.updateTable("products").set({ stock: sql`stock - ${quantity}`, updated_at: now }).where("id", "=", productId).returning("stock");
}

/** The variant's product (id and name), label and stock now (undefined once deleted): why a line could not be taken; what an alert names. */
export function readStock(from: Kysely<DB>, variantId: string): Promise<{ productId: string; name: string; label: string; stock: number } | undefined> {
  return from
    .selectFrom("product_variants as v")
    .innerJoin("products as p", "p.id", "v.product_id")
    .select(["v.product_id as productId", "p.name", "v.label", "v.stock"])
    .where("v.id", "=", variantId)
    .executeTakeFirst();
}

/**
 * Puts `quantity` back into the variant's stock and its product's total (a cancelled order's line), inside the
 * caller's transaction. Answers the product, and whether the variant and the product were out of stock before
 * (they can be bought again), read from the rows it wrote; nothing when the variant is gone.
 */
export async function putBackStock(
  trx: Kysely<DB>,
  variantId: string,
  quantity: number,
  restocked: RestockListener,
): Promise<{ productId: string; variantBackInStock: boolean; backInStock: boolean } | undefined> {
  const now = new Date().toISOString();
  const variant = await trx
    .updateTable("product_variants")
    .set({ stock: sql`stock + ${quantity}`, updated_at: now })
    .where("id", "=", variantId)
    .returning(["product_id", "stock"])
    .executeTakeFirst();
  if (!variant) return undefined;
  const product = await trx
    .updateTable("products")
    .set({ stock: sql`stock + ${quantity}`, updated_at: now })
    .where("id", "=", variant.product_id)
    .returning("stock")
    .executeTakeFirst();
  // The row is locked by this update: its stock before is exactly what it is now less what came back.
  await tellRestock(trx, restocked, { productId: variant.product_id, variantId, unitsBack: variant.stock }, variant.stock - quantity);
  return { productId: variant.product_id, variantBackInStock: variant.stock === quantity, backInStock: product?.stock === quantity };
}

/** What a product's only variant is made from when the product is made by the one-price form (or the seed). */
export type NewProductRow = Insertable<ProductTable> & { sku?: string; label?: string };

/** A new product's row and its first variant, its stock and price with it (the owner's product form, the seed). Answers the variant's id. */
export async function insertProduct(trx: Kysely<DB>, { sku, label = "", ...row }: NewProductRow): Promise<string> {
  const variantId = randomUUID();
  await trx.insertInto("products").values(row).execute();
  await trx
    .insertInto("product_variants")
    .values({
      id: variantId,
      product_id: row.id,
      position: 0,
      label,
      sku: sku ?? skuFor(row.name),
      price_paise: row.price_paise,
      compare_at_paise: row.compare_at_paise ?? null,
      stock: row.stock,
      created_at: row.created_at,
      updated_at: row.updated_at,
    })
    .execute();
  return variantId;
}

/** More sizes of a product after those it has (the seed; the owner's form writes its whole list with saveVariants), and its summary made again. */
export async function addVariants(
  trx: Kysely<DB>,
  productId: string,
  variants: { label: string; sku: string; pricePaise: number; compareAtPaise?: number | null; stock: number }[],
  now: string,
): Promise<void> {
  const last = await trx.selectFrom("product_variants").select((eb) => eb.fn.max("position").as("position")).where("product_id", "=", productId).executeTakeFirst();
  const first = Number(last?.position ?? -1) + 1;
  if (variants.length) {
    await trx
      .insertInto("product_variants")
      .values(
        variants.map((variant, index) => ({
          id: randomUUID(),
          product_id: productId,
          position: first + index,
          label: variant.label,
          sku: variant.sku,
          price_paise: variant.pricePaise,
          compare_at_paise: variant.compareAtPaise ?? null,
          stock: variant.stock,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  await summariseVariants(trx, productId, now);
}

/**
 * Sets one variant's stock alone, in place (the owner's list of products), unless it moved from `stockBefore` (a
 * sale made meanwhile is never undone); the product's total follows. Answers the product and its total now.
 */
export async function setStockInPlace(
  trx: Kysely<DB>,
  variantId: string,
  stock: number,
  stockBefore: number | undefined,
  restocked: RestockListener,
): Promise<{ productId: string; productStock: number }> {
  const now = new Date().toISOString();
  const replaced = await replaceStock(trx, variantId, stock, stockBefore, { updated_at: now });
  if (replaced === undefined) {
    const current = await trx.selectFrom("product_variants").select("stock").where("id", "=", variantId).executeTakeFirst();
    if (!current) throw new NotFoundError(messages.product.notFound);
    throw fieldConflict("stock", adminMessages.productForm.stockChanged(current.stock));
  }
  const written = await trx.selectFrom("product_variants").select("product_id").where("id", "=", variantId).executeTakeFirstOrThrow();
  const product = await trx
    .updateTable("products")
    .set({ stock: sql`(select coalesce(sum(stock), 0) from product_variants where product_id = ${written.product_id})`, updated_at: now })
    .where("id", "=", written.product_id)
    .returning("stock")
    .executeTakeFirstOrThrow();
  await tellRestock(trx, restocked, { productId: written.product_id, variantId, unitsBack: stock }, replaced);
  return { productId: written.product_id, productStock: product.stock };
}

/** The product's only variant: what the one-price form edits (undefined for a product with several, or none). */
export async function soleVariant(trx: Kysely<DB>, productId: string): Promise<{ id: string; stock: number } | undefined> {
  const rows = await trx.selectFrom("product_variants").select(["id", "stock"]).where("product_id", "=", productId).limit(2).execute();
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * Updates a product (the form's fields, its price among them, and its stock unless the form left it); the price,
 * compare-at price and stock are its only variant's. With `stockBefore` (the stock the owner's form showed), only
 * while the stock is still that, so a sale made while the form was open is never undone by saving it. Otherwise
 * 404, or a conflict naming the stock now (the form, reloaded, then shows it).
 */
export async function updateProductUnlessStockMoved(
  trx: Kysely<DB>,
  productId: string,
  fields: Updateable<ProductTable>,
  stockBefore: number | undefined,
  restocked: RestockListener,
): Promise<void> {
  const { price_paise, compare_at_paise, stock, ...productFields } = fields;
  const now = String(fields.updated_at ?? new Date().toISOString());
  const variant = await soleVariant(trx, productId);
  const exists = variant ?? (await trx.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst());
  if (!exists) throw new NotFoundError(messages.product.notFound);
  const sellingFields = { price_paise, compare_at_paise, stock };
  let restock: { stockBefore: number; restock: Restock } | undefined;
  if (Object.values(sellingFields).some((value) => value !== undefined)) {
    if (!variant) throw fieldConflict("price", adminMessages.productForm.hasSizes);
    const priceFields = { ...Object.fromEntries(Object.entries({ price_paise, compare_at_paise }).filter(([, value]) => value !== undefined)), updated_at: now };
    if (stock === undefined) {
      await trx.updateTable("product_variants").set(priceFields).where("id", "=", variant.id).execute();
    } else {
      const replaced = await replaceStock(trx, variant.id, Number(stock), stockBefore, priceFields);
      if (replaced === undefined) {
        const current = await trx.selectFrom("product_variants").select("stock").where("id", "=", variant.id).executeTakeFirstOrThrow();
        throw fieldConflict("stock", adminMessages.productForm.stockChanged(current.stock));
      }
      restock = { stockBefore: replaced, restock: { productId, variantId: variant.id, unitsBack: Number(stock) } };
    }
  }
  await trx.updateTable("products").set(productFields).where("id", "=", productId).execute();
  await summariseVariants(trx, productId, now);
  if (restock) await tellRestock(trx, restocked, restock.restock, restock.stockBefore);
}

/**
 * Makes the product's row summarise its variants again, inside the caller's transaction, after the owner changed
 * them: the lowest price (first in the owner's order among equals) with that variant's compare-at price, the highest
 * price when the prices differ, and the total stock. Lists, search, sort and /sale read only the product's row.
 */
export async function summariseVariants(trx: Kysely<DB>, productId: string, now: string): Promise<void> {
  const cheapest = (column: "price_paise" | "compare_at_paise") =>
    sql<number>`(select ${sql.ref(column)} from product_variants where product_id = ${productId} order by price_paise, position, id limit 1)`;
  await trx
    .updateTable("products")
    .set({
      price_paise: cheapest("price_paise"),
      compare_at_paise: cheapest("compare_at_paise"),
      max_price_paise: sql<number | null>`(select case when max(price_paise) > min(price_paise) then max(price_paise) end from product_variants where product_id = ${productId})`,
      stock: sql<number>`(select coalesce(sum(stock), 0) from product_variants where product_id = ${productId})`,
      updated_at: now,
    })
    .where("id", "=", productId)
    .execute();
}

/** One size as the owner's form saves it: an `id` the product has (kept), or none (new). */
export interface VariantToSave {
  id?: string | undefined;
  label: string;
  sku: string;
  pricePaise: number;
  compareAtPaise: number | null;
  /** The stock to set; left alone when it equals `stockBefore`. */
  stock: number;
  /** The stock the form showed for this size: its stock is set only while it is still this (a sale is never undone). */
  stockBefore?: number | undefined;
}

/**
 * Writes a product's whole list of sizes from the owner's form, inside the caller's transaction: sizes not in the list
 * are deleted (order lines keep their label and SKU copies and lose only the link; cart lines show the size as gone),
 * kept ones are updated by id, new ones inserted, every one at its place in the list; then the product's summary.
 * Refuses, naming the size by its place in the list (`variants.<index>.<field>`), a SKU another product has (ignoring
 * case), a size the product no longer has, or a stock that moved from its `stockBefore` (the stock now in the message).
 */
export async function saveVariants(trx: Kysely<DB>, productId: string, variants: VariantToSave[], now: string, restocked: RestockListener): Promise<void> {
  const existing = await trx.selectFrom("product_variants").select(["id", "sku"]).where("product_id", "=", productId).execute();
  const existingIds = new Set(existing.map((row) => row.id));
  variants.forEach((variant, index) => {
    if (variant.id !== undefined && !existingIds.has(variant.id)) throw fieldConflict(`variants.${index}.id`, adminMessages.productForm.sizeGone);
  });
  // A SKU is unique across the shop; this product's own sizes give theirs up as they are renamed or deleted here.
  const lowered = variants.map((variant) => variant.sku.toLowerCase());
  const taken = await trx
    .selectFrom("product_variants")
    .select(sql<string>`lower(sku)`.as("sku"))
    .where(sql<string>`lower(sku)`, "in", lowered)
    .where("product_id", "<>", productId)
    .limit(1)
    .executeTakeFirst();
  if (taken) throw fieldConflict(`variants.${lowered.indexOf(taken.sku)}.sku`, adminMessages.productForm.skuTaken);

  const keptIds = new Set(variants.flatMap((variant) => (variant.id === undefined ? [] : [variant.id])));
  const removed = existing.filter((row) => !keptIds.has(row.id)).map((row) => row.id);
  if (removed.length) await trx.deleteFrom("product_variants").where("id", "in", removed).execute();
  // Two kept sizes may swap SKUs: each SKU that changes is first parked on a value no form can type ('~' + the id),
  // so the unique index never sees the same SKU twice halfway through.
  const previousSku = new Map(existing.map((row) => [row.id, row.sku]));
  const renamed = variants.filter((variant) => variant.id !== undefined && previousSku.get(variant.id) !== variant.sku);
  for (const variant of renamed) {
    await trx.updateTable("product_variants").set({ sku: `~${variant.id}` }).where("id", "=", variant.id!).execute();
  }
  const restocks: { stockBefore: number; restock: Restock }[] = [];
  for (const [position, variant] of variants.entries()) {
    const selling = { position, label: variant.label, sku: variant.sku, price_paise: variant.pricePaise, compare_at_paise: variant.compareAtPaise, updated_at: now };
    if (variant.id === undefined) {
      await trx
        .insertInto("product_variants")
        .values({ id: randomUUID(), product_id: productId, ...selling, stock: variant.stock, created_at: now })
        .execute();
      continue;
    }
    // An unchanged stock is not written, so sales made while the form was open keep theirs.
    const keepsStock = variant.stockBefore !== undefined && variant.stock === variant.stockBefore;
    if (keepsStock) {
      await trx.updateTable("product_variants").set(selling).where("id", "=", variant.id).execute();
      continue;
    }
    const replaced = await replaceStock(trx, variant.id, variant.stock, variant.stockBefore, selling);
    if (replaced === undefined) {
      const current = await trx.selectFrom("product_variants").select("stock").where("id", "=", variant.id).executeTakeFirstOrThrow();
      throw fieldConflict(`variants.${position}.stock`, adminMessages.productForm.stockChanged(current.stock));
    }
    restocks.push({ stockBefore: replaced, restock: { productId, variantId: variant.id, unitsBack: variant.stock } });
  }
  await summariseVariants(trx, productId, now);
  for (const { restock, stockBefore } of restocks) await tellRestock(trx, restocked, restock, stockBefore);
}
