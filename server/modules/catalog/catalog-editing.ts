import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { adminMessages } from "#common/admin/admin-messages.ts";
import {
  adminCategoryListSchema,
  adminProductListSchema,
  categoryImageSchema,
  categoryRenameSchema,
  newProductFormSchema,
  productFormSchema,
  stockUpdateSchema,
  type AdminCategoryRow,
  type AdminProductRow,
  type ImageToken,
  type ProductForEdit,
  type ProductFormInput,
} from "#common/admin/admin-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { categoryIdParamSchema, productIdParamSchema } from "#common/catalog/catalog-schemas.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { plannedPerRun } from "../../platform/db/pg-statements.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { ConflictError, fieldConflict, InvalidInputError, NotFoundError, parseInput, type ServiceError } from "../../platform/errors.ts";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { StoredImage } from "../../platform/media/media.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { ProductAspect } from "./changes.ts";
import { insertProduct, setStockInPlace, updateProductUnlessStockMoved } from "./inventory.ts";

const m = adminMessages;

/** Rows of /admin/products and /admin/categories per page: small, so a page costs the same at any size of shop. */
export const ADMIN_PAGE_SIZE = 25;

/**
 * Where the pictures of the product form come from: a finished upload (the tus endpoint of h/uploads) turned
 * into a stored image, the removal of that upload once the save commits, and the removal of a stored image
 * nobody uses any more.
 */
export interface CatalogImages {
  /**
   * The stored picture made from `uploadId`, which `user` uploaded, with the key of its widths and formats
   * (migration 0009); a ServiceError with a message when it is not one.
   */
  fromUpload(uploadId: string, user: SessionUser): Promise<UploadedImage>;
  /**
   * Deletes the raw upload a picture was made from, once the save that used it has committed: until then it
   * stays, so a refused save can be sent again with the same `upload:<id>` tokens.
   */
  removeUpload(uploadId: string): Promise<void>;
  /** Deletes a stored picture; a url this store did not make (a sample illustration) is left alone. */
  remove(url: string): Promise<void>;
}

export interface UploadedImage extends StoredImage {
  mediaKey: string | null;
}

export type { AdminCategoryRow, AdminProductRow, ProductForEdit };

export type CatalogEditingService = ReturnType<typeof createCatalogEditingService>;

/**
 * The owner's catalogue (docs/product.md, Admin): products, their pictures and categories, every operation for admins
 * only. The admin module's API handlers and pages call it; stock and price are written through ./inventory.ts.
 */
export function createCatalogEditingService({
  database,
  changes,
  images,
}: {
  database: Pick<Database, "db" | "dialect">;
  changes: ChangeFeed;
  images: CatalogImages;
}) {
  const { db } = database;

  /**
   * Turns the form's uploads into stored pictures, outside any transaction (decoding is slow and must not hold
   * the write lock). On a failure the ones already made are removed again before the error goes on.
   */
  async function storeUploads(tokens: ImageToken[], admin: SessionUser): Promise<Map<string, UploadedImage>> {
    const stored = new Map<string, UploadedImage>();
    try {
      for (const token of tokens) {
        if (token.kind === "upload" && !stored.has(token.id)) stored.set(token.id, await images.fromUpload(token.id, admin));
      }
    } catch (error) {
      await removeQuietly([...stored.values()].map((image) => image.url));
      throw error;
    }
    return stored;
  }

  async function removeQuietly(urls: string[]): Promise<void> {
    // A file left behind costs disk space, never a wrong page: the save itself has already been decided.
    await Promise.allSettled(urls.map((url) => images.remove(url)));
  }

  /** After a commit: the form's raw uploads are done with (one left behind expires after a day). */
  async function removeUploadsQuietly(uploadIds: string[]): Promise<void> {
    await Promise.allSettled(uploadIds.map((uploadId) => images.removeUpload(uploadId)));
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

  /** Replaces a product's pictures with the form's list, in its order; returns the urls no longer used. */
  async function writeImages(trx: Kysely<DB>, productId: string, tokens: ImageToken[], uploads: Map<string, UploadedImage>): Promise<{ dropped: string[]; changed: boolean }> {
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
   * Creates (no productId) or updates a product from the form, in one transaction with a new category if the
   * form names one. Nothing is half-saved: on any failure the transaction rolls back and the pictures made
   * from this form's uploads are removed, while the uploads themselves stay for the next attempt; after a
   * commit the uploads are removed.
   */
  async function saveProduct(viewer: SessionUser | null, rawInput: unknown, productId?: string): Promise<{ productId: string; categoryId: string }> {
    const admin = requireAdmin(viewer);
    const input = parseInput(productId ? productFormSchema : newProductFormSchema, rawInput);
    const tokens = [...input.images, ...(input.categoryImage ? [input.categoryImage] : [])];
    // One upload makes one set of files. Shared by a product's picture and a new category's, removing either (an edit,
    // a deletion, a new category image) would break the other; twice in one product it is one picture shown twice.
    const uploadIds = tokens.flatMap((token) => (token.kind === "upload" ? [token.id] : []));
    if (new Set(uploadIds).size !== uploadIds.length) throw new InvalidInputError(m.productForm.pictureTwice, { images: m.productForm.pictureTwice });
    const uploads = await storeUploads(tokens, admin);
    const usedUploads = new Set<string>();
    try {
      const outcome = await inWriteTransaction(database, async (trx) => {
        const category = await resolveCategory(trx, input, uploads);
        if (category.created && input.categoryImage) usedUploads.add(input.categoryImage.id);
        const now = new Date().toISOString();
        // An edit that leaves the stock as the form showed it writes no stock: orders placed meanwhile keep theirs.
        const keepsStock = productId !== undefined && input.stock === input.stockBefore;
        const fields = {
          name: capitaliseFirst(input.name),
          description: input.description,
          price_paise: input.price,
          ...(keepsStock ? {} : { stock: input.stock }),
          category_id: category.id,
          updated_at: now,
        };
        let id: string;
        const aspects: ProductAspect[] = keepsStock ? ["details", "images"] : ["details", "stock", "images"];
        if (productId) {
          await updateProductUnlessStockMoved(trx, productId, fields, keepsStock ? undefined : input.stockBefore);
          id = productId;
        } else {
          id = randomUUID();
          await insertProduct(trx, { id, ...fields, stock: input.stock, created_at: now });
        }
        const { dropped } = await writeImages(trx, id, input.images, uploads);
        for (const token of input.images) if (token.kind === "upload") usedUploads.add(token.id);
        changes.publish(trx, { type: "product", productId: id, aspects });
        if (category.created) changes.publish(trx, { type: "category", categoryId: category.id });
        return { productId: id, categoryId: category.id, dropped };
      });
      const unused = [...uploads].filter(([uploadId]) => !usedUploads.has(uploadId)).map(([, image]) => image.url);
      await removeQuietly([...outcome.dropped, ...unused]);
      await removeUploadsQuietly([...uploads.keys()]);
      return { productId: outcome.productId, categoryId: outcome.categoryId };
    } catch (error) {
      await removeQuietly([...uploads.values()].map((image) => image.url));
      if (isUniqueViolation(error)) throw duplicateName(error);
      throw error;
    }
  }

  return {
    requireAdmin,
    createProduct: (viewer: SessionUser | null, input: unknown) => saveProduct(viewer, input),

    updateProduct(viewer: SessionUser | null, idInput: unknown, input: unknown) {
      requireAdmin(viewer);
      const { productId } = parseInput(productIdParamSchema, idInput);
      return saveProduct(viewer, input, productId);
    },

    /** The edit form's values. */
    async getProductForEdit(viewer: SessionUser | null, idInput: unknown): Promise<ProductForEdit> {
      requireAdmin(viewer);
      const { productId } = parseInput(productIdParamSchema, idInput);
      const product = await db
        .selectFrom("products as p")
        .innerJoin("categories as c", "c.id", "p.category_id")
        .select(["p.id", "p.name", "p.description", "p.price_paise", "p.stock", "c.name as category_name"])
        .where("p.id", "=", productId)
        .executeTakeFirst();
      if (!product) throw new NotFoundError(messages.product.notFound);
      const pictures = await db.selectFrom("product_images").select(["id", "url", "width", "height"]).where("product_id", "=", productId).orderBy("position").execute();
      return {
        id: product.id,
        name: product.name,
        description: product.description,
        pricePaise: product.price_paise,
        stock: product.stock,
        categoryName: product.category_name,
        images: pictures,
      };
    },

    /** Sets the stock alone (the in-place field of /admin/products). */
    async setStock(viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ productId: string; stock: number }> {
      requireAdmin(viewer);
      const { productId } = parseInput(productIdParamSchema, idInput);
      const { stock, stockBefore } = parseInput(stockUpdateSchema, input);
      return inWriteTransaction(database, async (trx) => {
        await setStockInPlace(trx, productId, stock, stockBefore);
        changes.publish(trx, { type: "product", productId, aspects: ["stock"] });
        return { productId, stock };
      });
    },

    /**
     * Deletes a product: its pictures go with it, cart lines keep a row without a product (shown as no longer
     * sold), order lines keep their copied name and price (both foreign keys are ON DELETE SET NULL).
     */
    async deleteProduct(viewer: SessionUser | null, idInput: unknown): Promise<{ productId: string }> {
      requireAdmin(viewer);
      const { productId } = parseInput(productIdParamSchema, idInput);
      const urls = await inWriteTransaction(database, async (trx) => {
        const pictures = await trx.selectFrom("product_images").select("url").where("product_id", "=", productId).execute();
        const deleted = await trx.deleteFrom("products").where("id", "=", productId).executeTakeFirst();
        if (deleted.numDeletedRows === 0n) throw new NotFoundError(messages.product.notFound);
        changes.publish(trx, { type: "product", productId, aspects: ["deleted"] });
        return pictures.map((picture) => picture.url);
      });
      await removeQuietly(urls);
      return { productId };
    },

    /** One page of /admin/products: lowest stock first, by key (stock, id), optionally names containing `q`. */
    async listProducts(viewer: SessionUser | null, input: unknown): Promise<{ items: AdminProductRow[]; next: { afterStock: number; afterId: string } | null; q: string | undefined }> {
      requireAdmin(viewer);
      const query = parseInput(adminProductListSchema, input);
      let rows = db
        .selectFrom("products as p")
        .innerJoin("categories as c", "c.id", "p.category_id")
        .leftJoin("product_images as img", (join) => join.onRef("img.product_id", "=", "p.id").on("img.position", "=", 0))
        .select(["p.id", "p.name", "p.price_paise", "p.stock", "p.category_id", "c.name as category_name", "img.url", "img.width", "img.height"]);
      if (query.q) {
        const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        // How many names the pattern matches decides between the (stock, id) index and a scan: planned per run.
        rows = rows.where(sql<boolean>`${plannedPerRun} lower(p.name) like ${pattern} escape '\\'`);
      }
      if (query.afterStock !== undefined && query.afterId) {
        const { afterStock, afterId } = query;
        // A row-value comparison, which both databases answer as a range of the (stock, id) index; the same
        // condition spelt with OR is read from the start of the index (measured: 50 ms a page at 50,000 products).
        rows = rows.where((eb) => eb(eb.refTuple("p.stock", "p.id"), ">", eb.tuple(afterStock, afterId)));
      }
      const found = await rows.orderBy("p.stock").orderBy("p.id").limit(ADMIN_PAGE_SIZE + 1).execute();
      const page = found.slice(0, ADMIN_PAGE_SIZE);
      const last = page.at(-1);
      return {
        items: page.map((row) => ({
          id: row.id,
          name: row.name,
          categoryId: row.category_id,
          categoryName: row.category_name,
          pricePaise: row.price_paise,
          stock: row.stock,
          image: row.url ? { url: row.url, width: row.width ?? 800, height: row.height ?? 800 } : null,
        })),
        next: found.length > ADMIN_PAGE_SIZE && last ? { afterStock: last.stock, afterId: last.id } : null,
        q: query.q,
      };
    },

    /** One page of /admin/categories, by name ignoring case. */
    async listCategories(viewer: SessionUser | null, input: unknown = {}): Promise<{ items: AdminCategoryRow[]; next: string | null }> {
      requireAdmin(viewer);
      const { after } = parseInput(adminCategoryListSchema, input);
      let rows = db.selectFrom("categories").select(["id", "name", "description", "image_url", "image_width", "image_height"]);
      if (after) rows = rows.where(sql<string>`lower(name)`, ">", after.toLowerCase());
      const found = await rows.orderBy(sql`lower(name)`).limit(ADMIN_PAGE_SIZE + 1).execute();
      const page = found.slice(0, ADMIN_PAGE_SIZE);
      return {
        items: page.map((row) => ({
          id: row.id,
          name: row.name,
          description: row.description,
          image: { url: row.image_url, width: row.image_width, height: row.image_height },
        })),
        next: found.length > ADMIN_PAGE_SIZE ? (page.at(-1)?.name ?? null) : null,
      };
    },

    /** Category names for the product form's suggestions (the few the shop has; capped). */
    async categoryNames(viewer: SessionUser | null): Promise<string[]> {
      requireAdmin(viewer);
      const rows = await db.selectFrom("categories").select("name").orderBy(sql`lower(name)`).limit(200).execute();
      return rows.map((row) => row.name);
    },

    async renameCategory(viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string; name: string }> {
      requireAdmin(viewer);
      const { categoryId } = parseInput(categoryIdParamSchema, idInput);
      const { name } = parseInput(categoryRenameSchema, input);
      try {
        return await inWriteTransaction(database, async (trx) => {
          const updated = await trx.updateTable("categories").set({ name }).where("id", "=", categoryId).executeTakeFirst();
          if (updated.numUpdatedRows === 0n) throw new NotFoundError(m.category.notFound);
          changes.publish(trx, { type: "category", categoryId });
          return { categoryId, name };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw fieldConflict("name", m.category.nameTaken);
        throw error;
      }
    },

    async setCategoryImage(viewer: SessionUser | null, idInput: unknown, input: unknown): Promise<{ categoryId: string }> {
      const admin = requireAdmin(viewer);
      const { categoryId } = parseInput(categoryIdParamSchema, idInput);
      const { image: token } = parseInput(categoryImageSchema, input);
      if (token.kind !== "upload") throw new InvalidInputError(m.productForm.newCategoryNeedsImage, { image: m.productForm.newCategoryNeedsImage });
      const image = await images.fromUpload(token.id, admin);
      let previous: string | undefined;
      try {
        previous = await inWriteTransaction(database, async (trx) => {
          const row = await trx.selectFrom("categories").select("image_url").where("id", "=", categoryId).executeTakeFirst();
          if (!row) throw new NotFoundError(m.category.notFound);
          await trx.updateTable("categories").set({ image_url: image.url, image_width: image.width, image_height: image.height, image_media_key: image.mediaKey }).where("id", "=", categoryId).execute();
          changes.publish(trx, { type: "category", categoryId });
          return row.image_url;
        });
      } catch (error) {
        await removeQuietly([image.url]);
        throw error;
      }
      await removeQuietly([previous]);
      await removeUploadsQuietly([token.id]);
      return { categoryId };
    },

    /** Refused while any product is in the category (the foreign key refuses it too, should one arrive meanwhile). */
    async deleteCategory(viewer: SessionUser | null, idInput: unknown): Promise<{ categoryId: string }> {
      requireAdmin(viewer);
      const { categoryId } = parseInput(categoryIdParamSchema, idInput);
      let imageUrl: string;
      try {
        imageUrl = await inWriteTransaction(database, async (trx) => {
          const row = await trx.selectFrom("categories").select("image_url").where("id", "=", categoryId).executeTakeFirst();
          if (!row) throw new NotFoundError(m.category.notFound);
          const used = await trx.selectFrom("products").select("id").where("category_id", "=", categoryId).limit(1).executeTakeFirst();
          if (used) throw new ConflictError(m.category.inUse);
          await trx.deleteFrom("categories").where("id", "=", categoryId).execute();
          changes.publish(trx, { type: "category", categoryId });
          return row.image_url;
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new ConflictError(m.category.inUse);
        throw error;
      }
      await removeQuietly([imageUrl]);
      return { categoryId };
    },
  };
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
  return fieldConflict("name", m.productForm.nameTaken);
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
