import { stockUpdateSchema } from "#common/admin/admin-schemas.ts";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { setStockInPlace } from "./inventory.ts";

/** Sets the stock alone (the in-place field of /admin/products). */
export async function setStock(ctx: Pick<CatalogEditingContext, "database" | "changes">, viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ productId: string; stock: number }> {
  requireAdmin(viewer);
  const { productId } = parseInput(productIdParamSchema, idInput);
  const { stock, stockBefore } = parseInput(stockUpdateSchema, input);
  return inWriteTransaction(ctx.database, async (trx) => {
    await setStockInPlace(trx, productId, stock, stockBefore);
    // The write happened only if the stock was still `stockBefore`, so whether the product went in or out of stock
    // is known exactly; without it, it is announced as if it had (lists are made again: always safe).
    const crossed = stockBefore === undefined || stockBefore > 0 !== stock > 0;
    ctx.changes.publish(trx, { type: "product", productId, aspects: crossed ? ["stock", "availability"] : ["stock"] });
    return { productId, stock };
  });
}
