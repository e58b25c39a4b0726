import { messages } from "#common/shared/messages.ts";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { productSnapshot, recordProductChange } from "./catalog-audit.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { removeQuietly } from "./editing-pictures.ts";

/**
 * Deletes a product: its pictures go with it, cart lines keep a row without a product (shown as no longer
 * sold), order lines keep their copied name and price (both foreign keys are ON DELETE SET NULL).
 */
export async function deleteProduct(ctx: Pick<CatalogEditingContext, "database" | "changes" | "images">, viewer: SessionUser | null, idInput: unknown): Promise<{ productId: string }> {
  const admin = requireAdmin(viewer);
  const { productId } = parseInput(productIdParamSchema, idInput);
  const urls = await inWriteTransaction(ctx.database, async (trx) => {
    const before = await productSnapshot(trx, productId);
    const pictures = await trx.selectFrom("product_images").select("url").where("product_id", "=", productId).execute();
    const deleted = await trx.deleteFrom("products").where("id", "=", productId).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw new NotFoundError(messages.product.notFound);
    await recordProductChange(trx, admin, before, null);
    ctx.changes.publish(trx, { type: "product", productId, aspects: ["deleted"] });
    return pictures.map((picture) => picture.url);
  });
  await removeQuietly(ctx, urls);
  return { productId };
}
