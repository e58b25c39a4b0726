import { describe, expect, it } from "vitest";
import { createCacheRules, scopeKey } from "../../platform/http/cache-rules.ts";
import { registerCatalogCacheRules } from "./cache-rules.ts";

function catalogRules() {
  const rules = createCacheRules();
  registerCatalogCacheRules(rules);
  return rules;
}

const page = scopeKey("product", "p-1");
const data = scopeKey("product-data", "p-1");

describe("the catalog's cache rules", () => {
  it("scope a product's page and its data apart, so that a change can keep one and drop the other", () => {
    const rules = catalogRules();
    expect(rules.scopeOf("pages", "/product/p-1")).toBe(page);
    expect(rules.scopeOf("pages", "/product/p-1.data")).toBe(data);
    expect(rules.scopeOf("json", "/api/products/p-1")).toBe(scopeKey("product", "p-1"));
  });

  it("on a stock change that keeps the product in stock keep every list page, mark the product page stale and drop its data", () => {
    expect(catalogRules().invalidation({ type: "product", productId: "p-1", aspects: ["stock"] }, "pages")).toEqual({ scopes: [data], refresh: [page], unscoped: false });
  });

  it("on a stock change that takes the product in or out of stock drop its page, its data and every list page", () => {
    expect(catalogRules().invalidation({ type: "product", productId: "p-1", aspects: ["stock", "availability"] }, "pages")).toEqual({ scopes: [page, data], unscoped: true });
  });

  it("on any other product change drop its page, its data and every list page", () => {
    for (const aspects of [["details"], ["stock", "details", "images"], ["reviews"], ["deleted"]] as const) {
      expect(catalogRules().invalidation({ type: "product", productId: "p-1", aspects }, "pages")).toEqual({ scopes: [page, data], unscoped: true });
    }
  });

  it("drop the product's JSON and every JSON list on every change, a stock change too: they show the exact stock", () => {
    expect(catalogRules().invalidation({ type: "product", productId: "p-1", aspects: ["stock"] }, "json")).toEqual({ scopes: [scopeKey("product", "p-1")], unscoped: true });
  });
});
