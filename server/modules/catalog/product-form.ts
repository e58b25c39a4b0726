import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { adminMessages as m } from "#common/admin/admin-messages.ts";
import { newProductFormSchema, productFormSchema, type ProductForEdit, type ProductFormInput } from "#common/admin/admin-schemas.ts";
import { instantToWallTime, WALL_TIME, wallTimeToInstant } from "#common/shared/dates.ts";
import { messages } from "#common/shared/messages.ts";
import { productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { fieldConflict, InvalidInputError, NotFoundError, parseInput, type ServiceError } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { ProductAspect } from "./changes.ts";
import { productSnapshot, recordCategoryChange, recordProductChange } from "./catalog-audit.ts";
import type { CatalogEditingContext, UploadedImage } from "./catalog-editing-context.ts";
import { careColumns, CARE_COLUMNS, careFromRow } from "./care-columns.ts";
import { linkSizePictures, removeQuietly, removeUploadsQuietly, storeUploads, writeImages } from "./editing-pictures.ts";
import { insertProduct, saveVariants, updateProductUnlessStockMoved, type VariantToSave } from "./inventory.ts";
import { listVariants } from "./variants.ts";

// The product form: its values for an edit, and its save, which creates or updates a product with its pictures
// and, when the form names a category the shop does not have, that category too.

/** What the product form's save uses of the editing context. */
export type ProductFormContext = Pick<CatalogEditingContext, "database" | "changes" | "images" | "timeZone" | "restocked">;

/** The edit form's values. */
export async function getProductForEdit(ctx: Pick<CatalogEditingContext, "db" | "timeZone">, viewer: SessionUser | null, idInput: unknown): Promise<ProductForEdit> {
  requireAdmin(viewer);
  const { productId } = parseInput(productIdParamSchema, idInput);
  const product = await ctx.db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.id", "p.name", "p.description", "p.price_paise", "p.stock", "p.compare_at_paise", "p.sale_starts_at", "p.sale_ends_at", ...CARE_COLUMNS, "c.name as category_name"])
    .where("p.id", "=", productId)
    .executeTakeFirst();
  if (!product) throw new NotFoundError(messages.product.notFound);
  const [pictures, variants] = await Promise.all([
    ctx.db.selectFrom("product_images").select(["id", "url", "width", "height"]).where("product_id", "=", productId).orderBy("position").execute(),
    listVariants(ctx.db, productId),
  ]);
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    pricePaise: product.price_paise,
    stock: product.stock,
    compareAtPaise: product.compare_at_paise,
    // Shown in the shop's time zone, as its date-and-time fields take them back.
    saleStartsAt: product.sale_starts_at === null ? null : instantToWallTime(product.sale_starts_at, ctx.timeZone),
    saleEndsAt: product.sale_ends_at === null ? null : instantToWallTime(product.sale_ends_at, ctx.timeZone),
    categoryName: product.category_name,
    images: pictures,
    variants: variants.map((variant) => ({
      id: variant.id,
      label: variant.label,
      sku: variant.sku,
      pricePaise: variant.price_paise,
      compareAtPaise: variant.compare_at_paise,
      stock: variant.stock,
      imageId: variant.image_id,
    })),
    care: careFromRow(product),
  };
}

export function createProduct(ctx: ProductFormContext, viewer: SessionUser | null, input: unknown) {
  return saveProduct(ctx, viewer, input);
}

/**
 * A product made from a spreadsheet row (docs/decisions/058): every rule of the form but the picture, which a CSV
 * cannot carry; the shop shows its placeholder until the owner adds one in the form.
 */
export function createProductWithoutPictures(ctx: ProductFormContext, viewer: SessionUser | null, input: unknown) {
  return saveProduct(ctx, viewer, input, undefined, { pictureRequired: false });
}

// Not async: a viewer who is not an admin, or an id that is not one, is refused at the call, before any promise.
export function updateProduct(ctx: ProductFormContext, viewer: SessionUser | null, idInput: unknown, input: unknown) {
  requireAdmin(viewer);
  const { productId } = parseInput(productIdParamSchema, idInput);
  return saveProduct(ctx, viewer, input, productId);
}

/**
 * Creates (no productId) or updates a product from the form, in one transaction with a new category if the
 * form names one. Nothing is half-saved: on any failure the transaction rolls back and the pictures made
 * from this form's uploads are removed, while the uploads themselves stay for the next attempt; after a
 * commit the uploads are removed.
 */
async function saveProduct(
  ctx: ProductFormContext,
  viewer: SessionUser | null,
  rawInput: unknown,
  productId?: string,
  { pictureRequired = true }: { pictureRequired?: boolean } = {},
): Promise<{ productId: string; categoryId: string }> {
  const admin = requireAdmin(viewer);
  const input = parseInput(productId || !pictureRequired ? productFormSchema : newProductFormSchema, rawInput);
  const window = saleWindow(input, ctx.timeZone);
  const tokens = [...input.images, ...(input.categoryImage ? [input.categoryImage] : [])];
  // One upload makes one set of files. Shared by a product's picture and a new category's, removing either (an edit,
  // a deletion, a new category image) would break the other; twice in one product it is one picture shown twice.
  const uploadIds = tokens.flatMap((token) => (token.kind === "upload" ? [token.id] : []));
  if (new Set(uploadIds).size !== uploadIds.length) throw new InvalidInputError(m.productForm.pictureTwice, { images: m.productForm.pictureTwice });
  const uploads = await storeUploads(ctx, tokens, admin);
  const usedUploads = new Set<string>();
  try {
    const outcome = await inWriteTransaction(ctx.database, async (trx) => {
      const before = productId ? await productSnapshot(trx, productId) : null;
      const category = await resolveCategory(trx, input, uploads);
      if (category.created) await recordCategoryChange(trx, admin, { id: category.id, name: input.category }, `Added category ${input.category}`, { name: { before: null, after: input.category } });
      if (category.created && input.categoryImage) usedUploads.add(input.categoryImage.id);
      const now = new Date().toISOString();
      const details = {
        name: capitaliseFirst(input.name),
        description: input.description,
        sale_starts_at: window.startsAt,
        sale_ends_at: window.endsAt,
        category_id: category.id,
        // Left out, an API client's save keeps the profile; the form always sends it. Part of the 'details' change.
        ...(input.care ? careColumns(input.care) : {}),
        updated_at: now,
      };
      let id: string;
      let aspects: ProductAspect[];
      if (input.variants) {
        // Sizes replace the one price and stock: the product's row then summarises them (saveVariants).
        aspects = ["details", "stock", "availability", "images"];
        const sizes: VariantToSave[] = input.variants.map((size) => ({
          id: size.id,
          label: size.label,
          sku: size.sku,
          pricePaise: size.price,
          compareAtPaise: size.compareAt,
          stock: size.stock,
          stockBefore: size.stockBefore,
        }));
        if (productId) {
          await updateProductUnlessStockMoved(trx, productId, details, undefined, ctx.restocked);
          id = productId;
        } else {
          id = randomUUID();
          const [first, ...rest] = sizes as [VariantToSave, ...VariantToSave[]];
          const firstId = await insertProduct(trx, {
            id,
            ...details,
            price_paise: first.pricePaise,
            compare_at_paise: first.compareAtPaise,
            stock: first.stock,
            created_at: now,
          });
          // The first size was made with the product (its SKU given by saveVariants, which checks it is free); the rest
          // join it, and the summary is made again.
          sizes.splice(0, sizes.length, { ...first, id: firstId, stockBefore: first.stock }, ...rest);
        }
        await saveVariants(trx, id, sizes, now, ctx.restocked);
      } else {
        // The one-size form (docs/product.md, Product form): its price, compare-at price and stock are its only size's.
        const price = input.price!;
        const stock = input.stock!;
        // An edit that leaves the stock as the form showed it writes no stock: orders placed meanwhile keep theirs.
        const keepsStock = productId !== undefined && stock === input.stockBefore;
        const fields = { ...details, price_paise: price, compare_at_paise: input.compareAt, ...(keepsStock ? {} : { stock }) };
        aspects = keepsStock ? ["details", "images"] : ["details", "stock", "images"];
        if (productId) {
          await updateProductUnlessStockMoved(trx, productId, fields, keepsStock ? undefined : input.stockBefore, ctx.restocked);
          id = productId;
        } else {
          id = randomUUID();
          await insertProduct(trx, { id, ...fields, stock, created_at: now });
        }
      }
      const { dropped } = await writeImages(trx, id, input.images, uploads);
      // After the pictures: the form names each size's picture among those the product now has.
      if (input.variants) await linkSizePictures(trx, id, input.variants.map((size) => size.image));
      for (const token of input.images) if (token.kind === "upload") usedUploads.add(token.id);
      await recordProductChange(trx, admin, before, await productSnapshot(trx, id));
      ctx.changes.publish(trx, { type: "product", productId: id, aspects });
      if (category.created) ctx.changes.publish(trx, { type: "category", categoryId: category.id });
      return { productId: id, categoryId: category.id, dropped };
    });
    const unused = [...uploads].filter(([uploadId]) => !usedUploads.has(uploadId)).map(([, image]) => image.url);
    await removeQuietly(ctx, [...outcome.dropped, ...unused]);
    await removeUploadsQuietly(ctx, [...uploads.keys()]);
    return { productId: outcome.productId, categoryId: outcome.categoryId };
  } catch (error) {
    await removeQuietly(ctx, [...uploads.values()].map((image) => image.url));
    if (isUniqueViolation(error)) throw duplicateName(error);
    throw error;
  }
}

/** The category a form names: an existing one (any case), or a new one made in the same transaction. */
async function resolveCategory(trx: Kysely<DB>, input: ProductFormInput, uploads: Map<string, UploadedImage>): Promise<{ id: string; created: boolean }> {
  const existing = await trx
    .selectFrom("categories")
    .select("id")
    .where(sql<string>`lower(name)`, "=", input.category.toLowerCase())
    .executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  if (!input.categoryImage) throw new InvalidInputError(m.productForm.newCategoryNeedsImage, { categoryImage: m.productForm.newCategoryNeedsImage });
  const image = input.categoryImage.kind === "upload" ? uploads.get(input.categoryImage.id) : undefined;
  if (!image) throw new InvalidInputError(m.productForm.newCategoryNeedsImage, { categoryImage: m.productForm.newCategoryNeedsImage });
  const id = randomUUID();
  await trx
    .insertInto("categories")
    .values({
      id,
      name: input.category,
      description: input.categoryDescription ?? m.category.defaultDescription,
      image_url: image.url,
      image_width: image.width,
      image_height: image.height,
      image_media_key: image.mediaKey,
      created_at: new Date().toISOString(),
    })
    .execute();
  return { id, created: true };
}

/**
 * The sale window as instants: a form's wall times are read in the shop's time zone (decision 047). The end must
 * come after the start, checked here too for a start and an end typed in different ways.
 */
function saleWindow(input: ProductFormInput, timeZone: string): { startsAt: string | null; endsAt: string | null } {
  const asInstant = (value: string | null) => (value === null ? null : WALL_TIME.test(value) ? wallTimeToInstant(value, timeZone) : value);
  const startsAt = asInstant(input.saleStartsAt);
  const endsAt = asInstant(input.saleEndsAt);
  if (input.saleStartsAt !== null && startsAt === null) throw new InvalidInputError(m.productForm.saleTimeInvalid, { saleStartsAt: m.productForm.saleTimeInvalid });
  if (input.saleEndsAt !== null && endsAt === null) throw new InvalidInputError(m.productForm.saleTimeInvalid, { saleEndsAt: m.productForm.saleTimeInvalid });
  if (startsAt !== null && endsAt !== null && Date.parse(endsAt) <= Date.parse(startsAt)) {
    throw new InvalidInputError(m.productForm.saleEndsBeforeStart, { saleEndsAt: m.productForm.saleEndsBeforeStart });
  }
  return { startsAt, endsAt };
}

/** 'snake plant' → 'Snake plant' (docs/product.md, Product form); the rest is kept as typed. */
export function capitaliseFirst(name: string): string {
  const first = name.codePointAt(0);
  if (first === undefined) return name;
  const letter = String.fromCodePoint(first);
  return letter.toUpperCase() + name.slice(letter.length);
}

/** Which unique name a violation is about: the category's (made with the product) or the product's own. */
function duplicateName(error: unknown): ServiceError {
  const text = String((error as { message?: unknown }).message ?? "") + String((error as { constraint?: unknown }).constraint ?? "");
  if (/categor/i.test(text)) return fieldConflict("category", m.category.nameTaken);
  // A SKU taken by another product between saveVariants' check and its write.
  if (/sku/i.test(text)) return fieldConflict("variants", m.productForm.skuTaken);
  return fieldConflict("name", m.productForm.nameTaken);
}
