import { stockUpdateSchema, variantIdParamSchema } from "#common/admin/admin-schemas.ts";
import { adminMessages } from "#common/admin/admin-messages.ts";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { fieldConflict, NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { productSnapshot, recordProductChange } from "./catalog-audit.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { setStockInPlace, soleVariant } from "./inventory.ts";

type StockContext = Pick<CatalogEditingContext, "database" | "changes" | "restocked">;

/**
 * Sets the stock alone (the in-place field of /admin/products) of a product sold in one size: its only size's. A
 * product with several sizes is refused: each size has its own field (setVariantStock).
 */
export async function setStock(ctx: StockContext, viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ productId: string; stock: number }> {
  const admin = requireAdmin(viewer);
  const { productId } = parseInput(productIdParamSchema, idInput);
  const { stock, stockBefore } = parseInput(stockUpdateSchema, input);
  return inWriteTransaction(ctx.database, async (trx) => {
    const variant = await soleVariant(trx, productId);
    if (!variant) {
      const exists = await trx.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
      if (!exists) throw new NotFoundError(messages.product.notFound);
      throw fieldConflict("stock", adminMessages.productForm.hasSizes);
    }
    const before = await productSnapshot(trx, productId);
    await setStockInPlace(trx, variant.id, stock, stockBefore, ctx.restocked);
    await recordProductChange(trx, admin, before, await productSnapshot(trx, productId));
    announce(ctx, trx, productId, stock, stockBefore);
    return { productId, stock };
  });
}

/** Sets one size's stock alone (a product with several sizes on /admin/products): 404 for a size of another product. */
export async function setVariantStock(
  ctx: StockContext,
  viewer: SessionUser | null,
  idInput: unknown,
  input: unknown,
): Promise<{ productId: string; variantId: string; stock: number; productStock: number }> {
  const admin = requireAdmin(viewer);
  const { productId, variantId } = parseInput(variantIdParamSchema, idInput);
  const { stock, stockBefore } = parseInput(stockUpdateSchema, input);
  return inWriteTransaction(ctx.database, async (trx) => {
    const variant = await trx.selectFrom("product_variants").select("id").where("id", "=", variantId).where("product_id", "=", productId).executeTakeFirst();
    if (!variant) throw new NotFoundError(messages.product.notFound);
    const before = await productSnapshot(trx, productId);
    const { productStock } = await setStockInPlace(trx, variantId, stock, stockBefore, ctx.restocked);
    await recordProductChange(trx, admin, before, await productSnapshot(trx, productId));
    announce(ctx, trx, productId, stock, stockBefore);
    return { productId, variantId, stock, productStock };
  });
}

/**
 * The write happened only if the stock was still `stockBefore`, so whether the size went in or out of stock is known
 * exactly; without it, it is announced as if it had (lists are made again: always safe).
 */
function announce(ctx: StockContext, trx: Parameters<StockContext["changes"]["publish"]>[0], productId: string, stock: number, stockBefore: number | undefined) {
  const crossed = stockBefore === undefined || stockBefore > 0 !== stock > 0;
  ctx.changes.publish(trx, { type: "product", productId, aspects: crossed ? ["stock", "availability"] : ["stock"] });
}
