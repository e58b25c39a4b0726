import { adminMessages as m } from "#common/admin/admin-messages.ts";
import { categoryImageSchema, categoryRenameSchema } from "#common/admin/admin-schemas.ts";
import { categoryIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { ConflictError, fieldConflict, InvalidInputError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { recordCategoryChange } from "./catalog-audit.ts";
import type { CatalogEditingContext } from "./catalog-editing-context.ts";
import { removeQuietly, removeUploadsQuietly } from "./editing-pictures.ts";

// A category's name, picture and deletion from /admin/categories (a new category is made by the product form).

export async function renameCategory(ctx: Pick<CatalogEditingContext, "database" | "changes">, viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string; name: string }> {
  const admin = requireAdmin(viewer);
  const { categoryId } = parseInput(categoryIdParamSchema, idInput);
  const { name } = parseInput(categoryRenameSchema, input);
  try {
    return await inWriteTransaction(ctx.database, async (trx) => {
      const before = await trx.selectFrom("categories").select("name").where("id", "=", categoryId).executeTakeFirst();
      const updated = await trx.updateTable("categories").set({ name }).where("id", "=", categoryId).executeTakeFirst();
      if (updated.numUpdatedRows === 0n || !before) throw new NotFoundError(m.category.notFound);
      if (before.name !== name) await recordCategoryChange(trx, admin, { id: categoryId, name }, `Category ${before.name} renamed ${name}`, { name: { before: before.name, after: name } });
      ctx.changes.publish(trx, { type: "category", categoryId });
      return { categoryId, name };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldConflict("name", m.category.nameTaken);
    throw error;
  }
}

export async function setCategoryImage(ctx: Pick<CatalogEditingContext, "database" | "changes" | "images">, viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string }> {
  const admin = requireAdmin(viewer);
  const { categoryId } = parseInput(categoryIdParamSchema, idInput);
  const { image: token } = parseInput(categoryImageSchema, input);
  if (token.kind !== "upload") throw new InvalidInputError(m.productForm.newCategoryNeedsImage, { image: m.productForm.newCategoryNeedsImage });
  const image = await ctx.images.fromUpload(token.id, admin);
  let previous: string | undefined;
  try {
    previous = await inWriteTransaction(ctx.database, async (trx) => {
      const row = await trx.selectFrom("categories").select(["image_url", "name"]).where("id", "=", categoryId).executeTakeFirst();
      if (!row) throw new NotFoundError(m.category.notFound);
      await trx.updateTable("categories").set({ image_url: image.url, image_width: image.width, image_height: image.height, image_media_key: image.mediaKey }).where("id", "=", categoryId).execute();
      await recordCategoryChange(trx, admin, { id: categoryId, name: row.name }, `New picture for category ${row.name}`, { picture: { before: row.image_url, after: image.url } });
      ctx.changes.publish(trx, { type: "category", categoryId });
      return row.image_url;
    });
  } catch (error) {
    await removeQuietly(ctx, [image.url]);
    throw error;
  }
  await removeQuietly(ctx, [previous]);
  await removeUploadsQuietly(ctx, [token.id]);
  return { categoryId };
}

/** Refused while any product is in the category (the foreign key refuses it too, should one arrive meanwhile). */
export async function deleteCategory(ctx: Pick<CatalogEditingContext, "database" | "changes" | "images">, viewer: SessionUser | null, idInput: unknown): Promise<{ categoryId: string }> {
  const admin = requireAdmin(viewer);
  const { categoryId } = parseInput(categoryIdParamSchema, idInput);
  let imageUrl: string;
  try {
    imageUrl = await inWriteTransaction(ctx.database, async (trx) => {
      const row = await trx.selectFrom("categories").select(["image_url", "name"]).where("id", "=", categoryId).executeTakeFirst();
      if (!row) throw new NotFoundError(m.category.notFound);
      const used = await trx.selectFrom("products").select("id").where("category_id", "=", categoryId).limit(1).executeTakeFirst();
      if (used) throw new ConflictError(m.category.inUse);
      await trx.deleteFrom("categories").where("id", "=", categoryId).execute();
      await recordCategoryChange(trx, admin, { id: categoryId, name: row.name }, `Deleted category ${row.name}`, { name: { before: row.name, after: null } });
      ctx.changes.publish(trx, { type: "category", categoryId });
      return row.image_url;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new ConflictError(m.category.inUse);
    throw error;
  }
  await removeQuietly(ctx, [imageUrl]);
  return { categoryId };
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
