import { scopeKey, type CacheRules } from "../../platform/http/cache-rules.ts";

/** A product page, or its data (`/product/ID.data`). */
const PRODUCT_PAGE = /^\/product\/([^/]+?)(?:\.data)?$/;
/** One product's JSON answers: itself, its reviews (its change events are an event stream, never stored). */
const PRODUCT_JSON = /^\/api\/products\/(?!suggestions$)([^/]+)(?:\/|$)/;

/**
 * What the catalog's changes drop from the anonymous caches: a product's change drops its page and its JSON, and
 * every answer that shows no single thing (lists, searches and categories may show the product); another product's
 * answers stay. A category's change is left to the default, which drops everything (every page shows the menu).
 */
export function registerCatalogCacheRules(rules: CacheRules) {
  rules.scope("pages", "product", PRODUCT_PAGE);
  rules.scope("json", "product", PRODUCT_JSON);
  rules.onChange("product", (change) => ({ scopes: [scopeKey("product", change.productId)], unscoped: true }));
}
