import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { adminMessages as m } from "#common/admin/admin-messages.ts";
import type { ImageToken } from "#common/admin/admin-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import { InvalidInputError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import type { CatalogEditingContext, UploadedImage } from "./catalog-editing-context.ts";

// The pictures of the owner's catalogue: uploads made into stored pictures before a save, a product's list of
// pictures rewritten inside it, and the files nobody uses any more removed after it.

type Images = Pick<CatalogEditingContext, "images">;

/**
 * Turns the form's uploads into stored pictures, outside any transaction (decoding is slow and must not hold
 * the write lock). On a failure the ones already made are removed again before the error goes on.
 */
export async function storeUploads(ctx: Images, tokens: ImageToken[], admin: SessionUser): Promise<Map<string, UploadedImage>> {
  const stored = new Map<string, UploadedImage>();
  try {
    for (const token of tokens) {
      if (token.kind === "upload" && !stored.has(token.id)) stored.set(token.id, await ctx.images.fromUpload(token.id, admin));
    }
  } catch (error) {
    await removeQuietly(ctx, [...stored.values()].map((image) => image.url));
    throw error;
  }
  return stored;
}

export async function removeQuietly(ctx: Images, urls: string[]): Promise<void> {
  // A file left behind costs disk space, never a wrong page: the save itself has already been decided.
  await Promise.allSettled(urls.map((url) => ctx.images.remove(url)));
}

/** After a commit: the form's raw uploads are done with (one left behind expires after a day). */
export async function removeUploadsQuietly(ctx: Images, uploadIds: string[]): Promise<void> {
  await Promise.allSettled(uploadIds.map((uploadId) => ctx.images.removeUpload(uploadId)));
}

/** Replaces a product's pictures with the form's list, in its order; returns the urls no longer used. */
export async function writeImages(trx: Kysely<DB>, productId: string, tokens: ImageToken[], uploads: Map<string, UploadedImage>): Promise<{ dropped: string[]; changed: boolean }> {
  const current = await trx.selectFrom("product_images").select(["id", "url", "width", "height", "position", "media_key"]).where("product_id", "=", productId).orderBy("position").execute();
  const byId = new Map(current.map((row) => [row.id, row]));
  const wanted = tokens.map((token) => {
    if (token.kind === "upload") {
      const { mediaKey, ...image } = uploads.get(token.id)!;
      return { id: randomUUID(), ...image, media_key: mediaKey };
    }
    const kept = byId.get(token.id);
    if (!kept) throw new InvalidInputError(m.productForm.unknownImage, { images: m.productForm.unknownImage });
    return kept;
  });
  const ids = wanted.map((image) => image.id);
  if (new Set(ids).size !== ids.length) throw new InvalidInputError(m.productForm.unknownImage, { images: m.productForm.unknownImage });
  const changed = ids.join() !== current.map((row) => row.id).join();
  if (!changed) return { dropped: [], changed };
  // Delete and insert again: positions are unique per product, so shifting rows in place would collide.
  await trx.deleteFrom("product_images").where("product_id", "=", productId).execute();
  if (wanted.length) {
    await trx
      .insertInto("product_images")
      .values(wanted.map((image, position) => ({ id: image.id, product_id: productId, position, url: image.url, width: image.width, height: image.height, media_key: image.media_key })))
      .execute();
  }
  const kept = new Set(wanted.map((image) => image.url));
  return { dropped: current.filter((row) => !kept.has(row.url)).map((row) => row.url), changed };
}

/**
 * Gives each size (by its place in the form) its own picture, or none, after the product's pictures were written:
 * a size's picture must be one the product has now, else that row is refused ('variants.<index>.image'). Written
 * for every size each save, since rewriting the pictures may have unlinked them (their rows are made again).
 */
export async function linkSizePictures(trx: Kysely<DB>, productId: string, pictures: (string | null)[]): Promise<void> {
  const chosen = pictures.filter((id): id is string => id !== null);
  const present = new Set(
    chosen.length ? (await trx.selectFrom("product_images").select("id").where("product_id", "=", productId).where("id", "in", chosen).execute()).map((row) => row.id) : [],
  );
  for (const [position, imageId] of pictures.entries()) {
    if (imageId !== null && !present.has(imageId)) throw new InvalidInputError(m.productForm.sizePictureGone, { [`variants.${position}.image`]: m.productForm.sizePictureGone });
    await trx.updateTable("product_variants").set({ image_id: imageId }).where("product_id", "=", productId).where("position", "=", position).execute();
  }
}
