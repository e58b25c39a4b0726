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
    ctx.changes.publish(trx, { type: "product", productId, aspects: ["stock"] });
    return { productId, stock };
  });
}
