import { navUser, type PersonalData } from "#common/shared/personal-data.ts";
import type { Services } from "./create-services.ts";
import { currentUser } from "./platform/http/request-context.ts";
import type { ResponseCache } from "./platform/http/response-cache.ts";
import { authCookieName } from "./platform/http/session-cookie.ts";
import { sharedPages } from "./platform/http/shared-pages.ts";

/**
 * The catalogue's pages, which a signed-in shopper sees as every other shopper does but for the navigation's
 * personal parts: home, the shop with its searches and pages, a category, a product (captured: its id).
 * React Router's data requests (`.data`) are not among them: they carry the person's data itself.
 */
const SHARED_PAGES = /^\/(?:shop|category\/[^/]+|product\/([^/]+))?$/;

/** Cookies that change nothing on those pages: the session's own, and the two-factor's trusted browser. */
const NEUTRAL_COOKIES = new Set(["session_token", "dont_remember", "trust_device"].flatMap((name) => [authCookieName(false, name), authCookieName(true, name)]));

/** Whether every cookie of a Cookie header is one the shared pages may ignore (a flash or a cart notice is not). */
function onlyNeutralCookies(header: string | undefined): boolean {
  if (!header) return true;
  return header.split(";").every((pair) => NEUTRAL_COOKIES.has(pair.slice(0, pair.indexOf("=")).trim()));
}

interface ShopperPagesOptions {
  cache: ResponseCache;
  services: Services;
  fill: (html: string, personal: PersonalData, url: string) => Promise<string>;
}

/**
 * Signed-in shoppers' catalogue pages from one shared render (docs/decisions/045). Rendered for the person
 * instead: the owner (whose pages differ and stay uncached), an account still choosing its username, a request
 * with any other cookie, and the page of a product the person has reviewed (their review fills the form).
 */
export function shopperPages({ cache, services, fill }: ShopperPagesOptions) {
  return sharedPages<PersonalData>({
    cache,
    fill,
    personalFor: async (c) => {
      const page = SHARED_PAGES.exec(c.req.path);
      if (!page || c.req.path.endsWith(".data") || !onlyNeutralCookies(c.req.header("cookie"))) return undefined;
      const user = await currentUser(c);
      if (!user || user.isAdmin || !user.username) return undefined;
      const productId = page[1];
      const [review, cartCount] = await Promise.all([productId ? services.reviews.getMyReview(user, productId) : null, services.cart.countItems(user)]);
      if (review) return undefined;
      return { user: navUser(user), cartCount };
    },
  });
}
