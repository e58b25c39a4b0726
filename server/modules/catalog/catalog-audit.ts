import type { Kysely } from "kysely";
import { formatPriceExact } from "#common/shared/money.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { changedFields, recordAdminChange, type Actor, type FieldChanges } from "../audit/index.ts";

// What the owner's catalogue edits record in the activity (docs/decisions/057): a product as the owner sees it,
// read before and after the change in the change's own transaction, and only what differs.

interface SizeSnapshot {
  label: string;
  sku: string;
  pricePaise: number;
  compareAtPaise: number | null;
  stock: number;
}

export interface ProductSnapshot {
  id: string;
  name: string;
  description: string;
  category: string;
  saleStartsAt: string | null;
  saleEndsAt: string | null;
  sizes: Record<string, SizeSnapshot>;
}

/** The product with its sizes (bounded by the product's own sizes), or null when there is none. */
export async function productSnapshot(trx: Kysely<DB>, productId: string): Promise<ProductSnapshot | null> {
  const product = await trx
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.id", "p.name", "p.description", "p.sale_starts_at", "p.sale_ends_at", "c.name as category"])
    .where("p.id", "=", productId)
    .executeTakeFirst();
  if (!product) return null;
  const sizes = await trx
    .selectFrom("product_variants")
    .select(["id", "label", "sku", "price_paise", "compare_at_paise", "stock"])
    .where("product_id", "=", productId)
    .orderBy("position")
    .execute();
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    category: product.category,
    saleStartsAt: product.sale_starts_at === null ? null : toIsoString(product.sale_starts_at),
    saleEndsAt: product.sale_ends_at === null ? null : toIsoString(product.sale_ends_at),
    sizes: Object.fromEntries(
      sizes.map((s) => [s.id, { label: s.label, sku: s.sku, pricePaise: Number(s.price_paise), compareAtPaise: s.compare_at_paise === null ? null : Number(s.compare_at_paise), stock: Number(s.stock) }]),
    ),
  };
}

/** Records a product made (before null), changed, or deleted (after null); a save that changed nothing records nothing. */
export async function recordProductChange(trx: Kysely<DB>, actor: Actor, before: ProductSnapshot | null, after: ProductSnapshot | null): Promise<void> {
  const product = (after ?? before)!;
  const changes = changedFields(flatten(before), flatten(after));
  if (Object.keys(changes).length === 0) return;
  const summary = !before ? `Added product ${product.name}` : !after ? `Deleted product ${product.name}` : describeEdit(before, after, changes);
  await recordAdminChange(trx, actor, { thing: { kind: "product", id: product.id, label: product.name }, summary, changes });
}

/** Records a category's change (renamed, new picture, made by a product form, deleted). */
export async function recordCategoryChange(trx: Kysely<DB>, actor: Actor, category: { id: string; name: string }, summary: string, changes: FieldChanges): Promise<void> {
  await recordAdminChange(trx, actor, { thing: { kind: "category", id: category.id, label: category.name }, summary, changes });
}

function flatten(product: ProductSnapshot | null): Record<string, unknown> {
  if (!product) return {};
  const fields: Record<string, unknown> = {
    name: product.name,
    description: product.description,
    category: product.category,
    saleStartsAt: product.saleStartsAt,
    saleEndsAt: product.saleEndsAt,
  };
  for (const [id, size] of Object.entries(product.sizes)) {
    for (const [key, value] of Object.entries(size)) fields[`size ${id} ${key}`] = value;
  }
  return fields;
}

function describeEdit(before: ProductSnapshot, after: ProductSnapshot, changes: FieldChanges): string {
  const parts: string[] = [];
  if (changes.name) parts.push(`Name ${before.name} → ${after.name}`);
  if (changes.category) parts.push(`Category of ${after.name} ${before.category} → ${after.category}`);
  if (changes.description) parts.push(`Description of ${after.name} edited`);
  if (changes.saleStartsAt || changes.saleEndsAt) parts.push(`Sale dates of ${after.name} changed`);
  const ids = new Set([...Object.keys(before.sizes), ...Object.keys(after.sizes)]);
  for (const id of ids) {
    const was = before.sizes[id];
    const is = after.sizes[id];
    const named = (size: SizeSnapshot) => (size.label ? `${after.name} (${size.label})` : after.name);
    if (!was && is) parts.push(`Size ${named(is)} added at ${formatPriceExact(is.pricePaise)}`);
    else if (was && !is) parts.push(`Size ${named(was)} removed`);
    else if (was && is) {
      if (was.pricePaise !== is.pricePaise) parts.push(`Price of ${named(is)} ${formatPriceExact(was.pricePaise)} → ${formatPriceExact(is.pricePaise)}`);
      if (was.compareAtPaise !== is.compareAtPaise) parts.push(`Compare-at price of ${named(is)} ${money(was.compareAtPaise)} → ${money(is.compareAtPaise)}`);
      if (was.stock !== is.stock) parts.push(`Stock of ${named(is)} ${was.stock} → ${is.stock}`);
      if (was.label !== is.label) parts.push(`Size ${was.label || "(none)"} of ${after.name} renamed ${is.label || "(none)"}`);
      if (was.sku !== is.sku) parts.push(`SKU of ${named(is)} ${was.sku} → ${is.sku}`);
    }
  }
  return parts.join("; ");
}

const money = (paise: number | null) => (paise === null ? "none" : formatPriceExact(paise));
