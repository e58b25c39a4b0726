import { z } from "zod";
import { WALL_TIME } from "../shared/dates.ts";
import { parseRupees } from "../shared/money.ts";
import { idSchema, plainText, requiredText } from "../shared/fields.ts";
import { searchTextSchema } from "../catalog/catalog-schemas.ts";
import { careProfileInputSchema, careProfileSchema } from "../catalog/care-schemas.ts";
import { adminMessages } from "./admin-messages.ts";
import { MAX_SIZE_LABEL, MAX_SIZES, MAX_SKU } from "./size-limits.ts";

const m = adminMessages.productForm;

export const MAX_PRODUCT_IMAGES = 10;
export const MAX_STOCK = 1_000_000;
/** Rs. 1 crore: far above any plant, far below where paise stop being exact. */
const MAX_PRICE_PAISE = 1_000_000_000;
/** A new category's description, as the product form takes it. */
const MAX_CATEGORY_DESCRIPTION = 500;

/**
 * One picture of the form, as the images field posts it: a finished upload not yet stored (`upload:<id>`) or
 * a picture the product already has (`image:<id>`). Their order is the order on the page; the first is the cover.
 */
export const imageTokenSchema = z
  .string()
  .regex(/^(upload|image):[A-Za-z0-9_-]{1,128}$/, m.notAPicture)
  .transform((token) => {
    const [kind, id] = token.split(":") as ["upload" | "image", string];
    return { kind, id };
  });
export type ImageToken = z.output<typeof imageTokenSchema>;

/**
 * A price in rupees → whole paise: typed in the form ('1500', '1,499.50'), or a JSON number from an API client
 * (read as the same decimal text, so 1499.5 is Rs. 1,499.50 and a float's long tail is refused, not rounded).
 * A plant is never free: a price of 0 would take an order through checkout with nothing to pay.
 */
const priceSchema = z
  .union([z.string(), z.number()], { error: m.priceRequired })
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1, m.priceRequired))
  .transform((text, ctx) => {
    const paise = parseRupees(text);
    if (paise === null || paise > MAX_PRICE_PAISE) {
      ctx.addIssue({ code: "custom", message: m.priceInvalid });
      return z.NEVER;
    }
    if (paise === 0) {
      ctx.addIssue({ code: "custom", message: m.priceZero });
      return z.NEVER;
    }
    return paise;
  });

/**
 * The optional compare-at price (decision 047): typed like the price, empty for none; it must be above the price,
 * checked with the whole form (`saleRules`).
 */
const compareAtSchema = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? "" : String(value).trim()))
  .transform((text, ctx) => {
    if (text === "") return null;
    const paise = parseRupees(text);
    if (paise === null || paise > MAX_PRICE_PAISE) {
      ctx.addIssue({ code: "custom", message: m.compareAtInvalid });
      return z.NEVER;
    }
    return paise;
  });

/**
 * A sale window's start or end: empty for none, a form's date-and-time field ("2026-12-01T09:00", in the shop's
 * time zone, which the service applies) or, from an API client, an ISO instant with its offset.
 */
const saleTimeSchema = z
  .union([z.string(), z.null()])
  .optional()
  .transform((value) => (value ?? "").trim())
  .transform((text, ctx) => {
    if (text === "") return null;
    if (WALL_TIME.test(text) && !Number.isNaN(Date.parse(`${text}:00Z`))) return text;
    if (z.iso.datetime({ offset: true }).safeParse(text).success) return new Date(text).toISOString();
    ctx.addIssue({ code: "custom", message: m.saleTimeInvalid });
    return z.NEVER;
  });

/**
 * Compare-at above the price; a window only with a compare-at price; an end after the start when both are of one kind.
 * With sizes, each size's compare-at price is above its own price, and the product's window needs one of them to have one.
 */
function saleRules(form: SellingForm, ctx: z.RefinementCtx): void {
  const sizes = form.variants ?? [{ price: form.price, compareAt: form.compareAt }];
  const where = (index: number) => (form.variants ? ["variants", index, "compareAt"] : ["compareAt"]);
  sizes.forEach((size, index) => {
    if (size.compareAt !== null && size.price !== undefined && size.compareAt <= size.price) ctx.addIssue({ code: "custom", path: where(index), message: m.compareAtNotAbove });
  });
  if (sizes.every((size) => size.compareAt === null) && (form.saleStartsAt !== null || form.saleEndsAt !== null)) {
    ctx.addIssue({ code: "custom", path: where(0), message: m.saleWithoutCompareAt });
  }
  const { saleStartsAt: starts, saleEndsAt: ends } = form;
  // Two wall times, or two instants, compare as text; a mix is checked by the service once both are instants.
  if (starts !== null && ends !== null && WALL_TIME.test(starts) === WALL_TIME.test(ends) && ends <= starts) {
    ctx.addIssue({ code: "custom", path: ["saleEndsAt"], message: m.saleEndsBeforeStart });
  }
}

/** A stock as typed or sent: a whole number, 0 or more. `stockWithinLimit` caps what an admin may set. */
const stockNumberSchema = z
  .union([z.string(), z.number()], { error: m.stockRequired })
  .transform((value) => String(value).trim())
  .pipe(z.string().min(1, m.stockRequired).regex(/^\d+$/, m.stockInvalid))
  .transform(Number)
  .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER, m.stockInvalid));

/**
 * An admin sets at most MAX_STOCK, but cancelled orders give their plants back, so a stock can pass it: saving a
 * form that leaves such a stock as it was (`stock` equal to `stockBefore`) is allowed, setting one is not.
 */
function stockWithinLimit(form: { stock?: number | undefined; stockBefore?: number | undefined }, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (form.stock !== undefined && form.stock > MAX_STOCK && form.stock !== form.stockBefore) {
    ctx.addIssue({ code: "custom", path: [...path, "stock"], message: m.stockTooLarge(MAX_STOCK) });
  }
}


/**
 * One size (variant) of the product form: its id when it is one the product has (none for a new one), its label,
 * SKU, price, compare-at price and stock, checked with the messages of the one-size form's fields. `stockBefore` is
 * the stock the form showed for this size: as for the one-size form, a sale made meanwhile is never undone.
 */
const sizeSchema = z.object({
  id: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(idSchema.optional()),
  label: z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim())
    .pipe(z.string().max(MAX_SIZE_LABEL, m.sizeLabelTooLong(MAX_SIZE_LABEL)).pipe(plainText())),
  sku: z
    .string({ error: m.skuRequired })
    .optional()
    .transform((value) => (value ?? "").trim())
    .pipe(z.string().min(1, m.skuRequired).regex(new RegExp(`^[A-Za-z0-9._-]{1,${MAX_SKU}}$`), m.skuInvalid(MAX_SKU))),
  price: priceSchema,
  compareAt: compareAtSchema,
  stock: stockNumberSchema,
  stockBefore: stockNumberSchema.optional(),
  /** One of the product's saved pictures (its id), shown first while this size is chosen; empty: none of its own. */
  image: z
    .string()
    .optional()
    .transform((value) => (value ? value : null))
    .pipe(idSchema.nullable()),
});
export type SizeInput = z.output<typeof sizeSchema>;

/** What the selling rules read of a form: its one price and stock, or its sizes, and the product's sale window. */
interface SellingForm {
  price?: number | undefined;
  compareAt: number | null;
  stock?: number | undefined;
  stockBefore?: number | undefined;
  saleStartsAt: string | null;
  saleEndsAt: string | null;
  variants?: SizeInput[] | undefined;
}

/**
 * A form with sizes sells them instead of its one price and stock, which it may then leave out; without sizes those
 * are required, with the messages they always had. With two sizes or more each has a label, and labels and SKUs differ
 * (ignoring case, as the shop's unique SKU index does).
 */
function sizeRules(form: SellingForm, ctx: z.RefinementCtx): void {
  if (!form.variants) {
    if (form.price === undefined) ctx.addIssue({ code: "custom", path: ["price"], message: m.priceRequired });
    if (form.stock === undefined) ctx.addIssue({ code: "custom", path: ["stock"], message: m.stockRequired });
    stockWithinLimit(form, ctx);
    return;
  }
  const labels = new Set<string>();
  const skus = new Set<string>();
  form.variants.forEach((size, index) => {
    stockWithinLimit(size, ctx, ["variants", index]);
    if (form.variants!.length > 1) {
      const label = size.label.toLowerCase();
      if (label === "") ctx.addIssue({ code: "custom", path: ["variants", index, "label"], message: m.sizeLabelRequired });
      else if (labels.has(label)) ctx.addIssue({ code: "custom", path: ["variants", index, "label"], message: m.sizeLabelTwice });
      labels.add(label);
    }
    const sku = size.sku.toLowerCase();
    if (skus.has(sku)) ctx.addIssue({ code: "custom", path: ["variants", index, "sku"], message: m.skuTwice });
    skus.add(sku);
  });
}

const categoryNameSchema = requiredText(m.categoryRequired, 60);

/**
 * The product form (create and edit). `category` is a name: an existing category's (any case) or a new one,
 * which then needs `categoryImage` (and takes `categoryDescription`, 'Default description' when empty).
 */
const productFields = z.object({
  name: requiredText(m.nameRequired, 100),
  description: requiredText(m.descriptionRequired, 5000, { multiLine: true }),
  // Optional only for a form with sizes (`sizeRules` requires them otherwise, with their own messages).
  price: priceSchema.optional(),
  stock: stockNumberSchema.optional(),
  category: categoryNameSchema,
  categoryImage: z
    .string()
    .optional()
    .transform((value) => (value ? value : undefined))
    .pipe(imageTokenSchema.optional()),
  categoryDescription: z
    .string()
    .trim()
    .max(MAX_CATEGORY_DESCRIPTION, m.categoryDescriptionTooLong(MAX_CATEGORY_DESCRIPTION))
    .pipe(plainText())
    .optional()
    .transform((value) => (value ? value : undefined)),
  images: z.array(imageTokenSchema).max(MAX_PRODUCT_IMAGES, m.tooManyImages(MAX_PRODUCT_IMAGES)).default([]),
  /** The stock the edit form was filled with: the same `stock` leaves it alone; another is set only if it is still this. */
  stockBefore: stockNumberSchema.optional(),
  compareAt: compareAtSchema,
  saleStartsAt: saleTimeSchema,
  saleEndsAt: saleTimeSchema,
  /** The product's sizes in the owner's order; when given they replace price, compareAt, stock and stockBefore. */
  variants: z.array(sizeSchema).min(1, m.sizesRequired).max(MAX_SIZES, m.tooManySizes(MAX_SIZES)).optional(),
  /**
   * The plant's care profile, every part optional ('' or null: not said). The form always sends it; an API client that
   * leaves it out keeps the profile the product has (a new product has none).
   */
  care: careProfileInputSchema.optional(),
});

export const productFormSchema = productFields.superRefine(sizeRules).superRefine(saleRules);
export type ProductFormInput = z.output<typeof productFormSchema>;

/** Creating needs a picture; an edit may keep none (docs/product.md, Product form: the message only when creating). */
export const newProductFormSchema = productFields
  .extend({ images: productFields.shape.images.refine((images) => images.length > 0, m.imagesRequired) })
  .superRefine(sizeRules)
  .superRefine(saleRules);

export const stockUpdateSchema = z.object({ stock: stockNumberSchema, stockBefore: stockNumberSchema.optional() }).superRefine((form, ctx) => stockWithinLimit(form, ctx));

/** A size of a product, as /api/admin/products/:productId/variants/:variantId/stock names it. */
export const variantIdParamSchema = z.object({ productId: idSchema, variantId: idSchema });

export const categoryRenameSchema = z.object({ name: requiredText(adminMessages.category.nameRequired, 60) });
export const categoryImageSchema = z.object({ image: imageTokenSchema });

/** /admin/products: a name search, and the key of the last row of the previous page (stock ascending). */
export const adminProductListSchema = z.object({
  q: searchTextSchema,
  // No upper bound: cancelled orders give their plants back, so a stock can pass what the form lets an admin type.
  afterStock: z.coerce.number().int().min(0).optional().catch(undefined),
  afterId: idSchema.optional().catch(undefined),
});
export type AdminProductListQuery = z.output<typeof adminProductListSchema>;

export const adminCategoryListSchema = z.object({
  after: z.string().max(60).pipe(plainText()).optional().catch(undefined),
});

// ---- What the admin JSON API answers (docs/decisions/021-contracts.md): the service's types are inferred from these.

const storedImage = z.strictObject({ url: z.string(), width: z.int(), height: z.int() });

export const adminProductRowSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    categoryId: z.string(),
    categoryName: z.string(),
    pricePaise: z.int().min(0),
    stock: z.int().min(0),
    image: storedImage.nullable(),
    /** The product's sizes in the owner's order, each with its own stock (one, with no label, for most plants). */
    variants: z.array(z.strictObject({ id: z.string(), label: z.string(), stock: z.int().min(0) })),
  })
  .meta({ id: "AdminProductRow" });

export const adminProductPageSchema = z
  .strictObject({
    items: z.array(adminProductRowSchema),
    next: z.strictObject({ afterStock: z.int(), afterId: z.string() }).nullable().meta({ description: "Pass as afterStock/afterId for the next page" }),
    q: z.string().optional(),
  })
  .meta({ id: "AdminProductPage" });

export const adminCategoryRowSchema = z
  .strictObject({ id: z.string(), name: z.string(), description: z.string(), image: storedImage })
  .meta({ id: "AdminCategoryRow" });

export const adminCategoryPageSchema = z
  .strictObject({ items: z.array(adminCategoryRowSchema), next: z.string().nullable().meta({ description: "Pass as `after` for the next page" }) })
  .meta({ id: "AdminCategoryPage" });

/** The product form prefilled for an edit. */
export const productForEditSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    pricePaise: z.int().min(0),
    stock: z.int().min(0),
    compareAtPaise: z.int().min(0).nullable(),
    saleStartsAt: z.string().nullable().meta({ description: "The sale's start in the shop's time zone, as a date-and-time field shows it" }),
    saleEndsAt: z.string().nullable().meta({ description: "The sale's end in the shop's time zone, as a date-and-time field shows it" }),
    categoryName: z.string(),
    images: z.array(storedImage.extend({ id: z.string() })),
    variants: z.array(
      z.strictObject({
        id: z.string(),
        label: z.string(),
        sku: z.string(),
        pricePaise: z.int().min(0),
        compareAtPaise: z.int().min(0).nullable(),
        stock: z.int().min(0),
        imageId: z.string().nullable().meta({ description: "The size's own picture, one of `images`; null: none" }),
      }),
    ),
    care: careProfileSchema,
  })
  .meta({ id: "ProductForEdit" });

export const savedProductSchema = z.strictObject({ productId: z.string(), categoryId: z.string() }).meta({ id: "SavedProduct" });
export const stockSetSchema = z.strictObject({ productId: z.string(), stock: z.int().min(0) }).meta({ id: "StockSet" });
export const variantStockSetSchema = z
  .strictObject({ productId: z.string(), variantId: z.string(), stock: z.int().min(0), productStock: z.int().min(0).meta({ description: "The product's total of its sizes now" }) })
  .meta({ id: "VariantStockSet" });
export const deletedProductSchema = z.strictObject({ productId: z.string() }).meta({ id: "DeletedProduct" });
export const categoryRenamedSchema = z.strictObject({ categoryId: z.string(), name: z.string() }).meta({ id: "CategoryRenamed" });
export const categoryChangedSchema = z.strictObject({ categoryId: z.string() }).meta({ id: "CategoryChanged" });

export type AdminProductRow = z.infer<typeof adminProductRowSchema>;
export type AdminCategoryRow = z.infer<typeof adminCategoryRowSchema>;
export type ProductForEdit = z.infer<typeof productForEditSchema>;
