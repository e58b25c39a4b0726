import { scopeKey, type CacheRules } from "../../platform/http/cache-rules.ts";

/** A person's public profile page, or its data. */
const PROFILE_PAGE = /^\/profile\/([^/]+?)(?:\.data)?$/;

/**
 * What a profile's change drops from the anonymous page cache: that person's profile page alone (no list shows a
 * profile). The pages showing the person's reviews are announced as those products' changes (profiles.ts).
 */
export function registerAccountsCacheRules(rules: CacheRules) {
  rules.scope("pages", "profile", PROFILE_PAGE);
  rules.onChange("profile", (change) => ({ scopes: [scopeKey("profile", change.userId)], unscoped: false }));
}
