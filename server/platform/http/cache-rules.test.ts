import { describe, expect, it } from "vitest";
import { createCacheRules, scopeKey } from "./cache-rules.ts";

describe("cache rules", () => {
  it("scopes an answer by the rule registered for its kind of answer, and leaves paths no rule claims unscoped", () => {
    const rules = createCacheRules();
    rules.scope("pages", "product", /^\/product\/([^/]+?)(?:\.data)?$/);
    rules.scope("json", "product", /^\/api\/products\/([^/]+)$/);
    expect(rules.scopeOf("pages", "/product/p-1.data")).toBe(scopeKey("product", "p-1"));
    expect(rules.scopeOf("json", "/api/products/p-1")).toBe(scopeKey("product", "p-1"));
    // A page rule says nothing of JSON at the same path, nor of other paths.
    expect(rules.scopeOf("json", "/product/p-1")).toBeUndefined();
    expect(rules.scopeOf("pages", "/shop")).toBeUndefined();
  });

  it("keeps the scopes of two rules apart though their ids are equal", () => {
    const rules = createCacheRules();
    rules.scope("pages", "product", /^\/product\/([^/]+)$/);
    rules.scope("pages", "profile", /^\/profile\/([^/]+)$/);
    expect(rules.scopeOf("pages", "/product/same")).not.toBe(rules.scopeOf("pages", "/profile/same"));
  });

  it("answers what a change drops by its type's rule, and nothing (so everything goes) for a type no rule claims", () => {
    const rules = createCacheRules();
    rules.onChange("profile", (change) => ({ scopes: [scopeKey("profile", change.userId)], unscoped: false }));
    expect(rules.invalidation({ type: "profile", userId: "u-1" }, "pages")).toEqual({ scopes: [scopeKey("profile", "u-1")], unscoped: false });
    expect(rules.invalidation({ type: "resync" }, "pages")).toBeUndefined();
    expect(rules.invalidation({ type: "category", categoryId: "c-1" }, "pages")).toBeUndefined();
  });

  it("refuses a second rule for one change type, which would silently replace the first", () => {
    const rules = createCacheRules();
    rules.onChange("profile", () => ({ scopes: [], unscoped: false }));
    expect(() => rules.onChange("profile", () => ({ scopes: [], unscoped: true }))).toThrow('the change type "profile" has its rule already');
  });
});
