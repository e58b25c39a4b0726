import type { Logger } from "pino";
import { parse } from "hono/utils/cookie";
import { navUser, PERSONAL_PART_MARKER, type PersonalData } from "#common/accounts/personal-data.ts";
import type { Services } from "./create-services.ts";
import type { PersonalParts } from "./pages.ts";
import { frontSharedPages } from "./platform/http/front-shared-pages.ts";
import { currentUser } from "./platform/http/request-context.ts";
import type { ResponseCache } from "./platform/http/response-cache.ts";
import { authCookieName, type SessionCookies } from "./platform/http/session-cookie.ts";
import { sharedPages } from "./platform/http/shared-pages.ts";
import type { SessionUser } from "./platform/session-user.ts";

/**
 * The catalogue's pages, which a signed-in shopper sees as every other shopper does but for the navigation's
 * personal parts: home, the shop with its searches and pages, a category, a product (captured: its id).
 * React Router's data requests (`.data`) are not among them: they carry the person's data itself.
 */
const SHARED_PAGES = /^\/(?:shop|sale|category\/[^/.]+|product\/([^/.]+))?$/;

/** Cookies that change nothing on those pages: the session's own, and the two-factor's trusted browser. */
const NEUTRAL_COOKIES = new Set(["session_token", "dont_remember", "trust_device"].flatMap((name) => [authCookieName(false, name), authCookieName(true, name)]));

/** Whether every cookie of a Cookie header is one the shared pages may ignore (a flash or a cart notice is not). */
function onlyNeutralCookies(header: string | undefined): boolean {
  if (!header) return true;
  return header.split(";").every((pair) => NEUTRAL_COOKIES.has(pair.slice(0, pair.indexOf("=")).trim()));
}

/** Whether a page, asked with these cookies, may be the one every shopper shares. */
const mayShare = (path: string, cookie: string | undefined) => SHARED_PAGES.test(path) && onlyNeutralCookies(cookie);

interface ShopperPagesOptions {
  cache: ResponseCache;
  services: Services;
  sessionCookies: SessionCookies;
  parts: PersonalParts;
  trustedProxies: number;
  logger: Logger;
}

/**
 * Signed-in shoppers' catalogue pages from one shared render (docs/decisions/045): answered before Hono when the
 * render is kept and the session needs no change (`front`), else through the chain (`middleware`), which renders
 * and keeps the shared page. Rendered for the person instead: the owner (whose pages differ and stay uncached),
 * an account still choosing its username, a request with any other cookie, the page of a product the person
 * has reviewed (their review fills the form) or saved, and the grid pages of a person with a wishlist (their hearts).
 */
export function shopperPages({ cache, services, sessionCookies, parts, trustedProxies, logger }: ShopperPagesOptions) {
  /** The person's parts on a page, or undefined when the page is to be theirs alone. */
  const personalFor = async (user: SessionUser | null, path: string): Promise<PersonalData | undefined> => {
    if (!user || user.isAdmin || !user.username) return undefined;
    const productId = SHARED_PAGES.exec(path)?.[1];
    // The wishlist's hearts are the person's too, and the shared render shows every heart empty: a product page
    // the person saved that product on, or a grid page of someone with any plant saved (one of the cards may be
    // theirs), is rendered for them instead. Each is one indexed read, run beside the cart's count.
    const [reviewed, hearts, cartCount] = await Promise.all([
      productId ? services.reviews.hasReviewed(user, productId) : false,
      productId ? services.wishlist.isSaved(user, productId) : services.wishlist.hasAny(user),
      services.cart.countItems(user),
    ]);
    if (reviewed || hearts) return undefined;
    return { user: navUser(user), cartCount };
  };
  const middleware = sharedPages<PersonalData>({
    cache,
    fill: parts.fill,
    personalFor: async (c) => (mayShare(c.req.path, c.req.header("cookie")) ? personalFor(await currentUser(c), c.req.path) : undefined),
  });
  const front = frontSharedPages<PersonalData>({
    cache,
    trustedProxies,
    logger,
    mayShare,
    marker: PERSONAL_PART_MARKER,
    renderParts: parts.render,
    personalFor: async ({ path, cookie, clientIp, userAgent }) => {
      const cookies = parse(cookie);
      const user = await services.accounts.liveSessionUser({
        clientIp,
        userAgent,
        sessionCredential: cookies[sessionCookies.name] || null,
        forgetOnClose: cookies[sessionCookies.forgetOnCloseName] || null,
      });
      const personal = user ? await personalFor(user, path) : undefined;
      return personal && user ? { personal, accountId: user.id } : undefined;
    },
  });
  return { middleware, front };
}
