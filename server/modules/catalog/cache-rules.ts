import { scopeKey, type CacheRules } from "../../platform/http/cache-rules.ts";
import type { ProductAspect } from "./changes.ts";

/** A product page. */
const PRODUCT_PAGE = /^\/product\/([^/]+?)$/;
/** A product page's data (`/product/ID.data`): what the page re-reads when its live stream says the product changed. */
const PRODUCT_DATA = /^\/product\/([^/]+?)\.data$/;
/** One product's JSON answers: itself, its reviews (its change events are an event stream, never stored). */
const PRODUCT_JSON = /^\/api\/products\/(?!suggestions$)([^/]+)(?:\/|$)/;

/** A change of the stock alone, with or without the product going in or out of stock. */
const STOCK_ONLY = (aspect: ProductAspect) => aspect === "stock" || aspect === "availability";

/**
 * What the catalog's changes drop from the anonymous caches: a product's change drops its page and its JSON, and
 * every answer that shows no single thing (lists, searches and categories may show the product); another product's
 * answers stay. A category's change is left to the default, which drops everything (every page shows the menu).
 *
 * A change of the stock alone is lighter on the pages (docs/decisions/044): no list page shows a stock, only whether
 * a plant can be bought, so lists go only when the product went in or out of stock (`availability`); and the
 * product page is kept, stale, and made again by one request at a time while the others get the copy one change
 * behind, as it reads its stock live anyway. Its data (`.data`), which the live page re-reads on every change, goes
 * at once, as does every JSON answer (they carry the exact stock). A product going out of stock drops its page too:
 * a stale copy would offer "Add to cart" for a plant nobody can buy.
 */
export function registerCatalogCacheRules(rules: CacheRules) {
  rules.scope("pages", "product-data", PRODUCT_DATA);
  rules.scope("pages", "product", PRODUCT_PAGE);
  rules.scope("json", "product", PRODUCT_JSON);
  rules.onChange("product", (change, answers) => {
    const page = scopeKey("product", change.productId);
    const data = scopeKey("product-data", change.productId);
    if (answers === "json") return { scopes: [page], unscoped: true };
    if (!change.aspects.every(STOCK_ONLY)) return { scopes: [page, data], unscoped: true };
    if (change.aspects.includes("availability")) return { scopes: [page, data], unscoped: true };
    return { scopes: [data], refresh: [page], unscoped: false };
  });
}
