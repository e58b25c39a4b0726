import type { Logger } from "pino";
import { parse } from "hono/utils/cookie";
import { markedPartsOf, navUser, PERSONAL_PART_MARKER, readMarkedPart, type MarkedPart, type PersonalData } from "#common/accounts/personal-data.ts";
import { HEART_PART_NAME } from "#common/wishlist/heart-part.ts";
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

/** The person a shared page is for, and their parts' data but for the page's hearts (read once the page is known). */
interface Asker {
  user: SessionUser;
  personal: Omit<PersonalData, "saved">;
}

/** The plants whose hearts a page shows, from its markers (each card's heart carries its plant's id). */
function heartsOf(parts: readonly MarkedPart[]): string[] {
  const ids = new Set<string>();
  for (const { name, props } of parts) if (name === HEART_PART_NAME && typeof props?.productId === "string") ids.add(props.productId);
  return [...ids];
}

/**
 * Signed-in shoppers' catalogue pages from one shared render (docs/decisions/045): answered before Hono when the
 * render is kept and the session needs no change (`front`), else through the chain (`middleware`), which renders
 * and keeps the shared page. Rendered for the person instead: the owner (whose pages differ and stay uncached),
 * an account still choosing its username, a request with any other cookie, and the page of a product the person
 * has reviewed (their review fills the form). The wishlist's hearts are parts of the person (decision 050): the
 * render marks each card's heart, and the person's saved plants among the page's are read to fill them.
 */
export function shopperPages({ cache, services, sessionCookies, parts, trustedProxies, logger }: ShopperPagesOptions) {
  /** The person's parts on a page but its hearts, or undefined when the page is to be theirs alone. */
  const askerFor = async (user: SessionUser | null, path: string): Promise<Asker | undefined> => {
    if (!user || user.isAdmin || !user.username) return undefined;
    const productId = SHARED_PAGES.exec(path)?.[1];
    const [reviewed, cartCount] = await Promise.all([productId ? services.reviews.hasReviewed(user, productId) : false, services.cart.countItems(user)]);
    if (reviewed) return undefined;
    return { user, personal: { user: navUser(user), cartCount } };
  };
  const middleware = sharedPages<Asker>({
    cache,
    // Rendered (or taken from the cache) before its hearts are known: they are read from its markers.
    fill: async (html, { user, personal }) => parts.fill(html, { ...personal, saved: await services.wishlist.savedAmong(user, heartsOf(markedPartsOf(html))) }),
    personalFor: async (c) => (mayShare(c.req.path, c.req.header("cookie")) ? askerFor(await currentUser(c), c.req.path) : undefined),
  });
  const front = frontSharedPages<PersonalData, MarkedPart>({
    cache,
    trustedProxies,
    logger,
    mayShare,
    marker: PERSONAL_PART_MARKER,
    readPart: readMarkedPart,
    renderParts: parts.render,
    personalFor: async ({ path, cookie, clientIp, userAgent }, marked) => {
      const cookies = parse(cookie);
      const user = await services.accounts.liveSessionUser({
        clientIp,
        userAgent,
        sessionCredential: cookies[sessionCookies.name] || null,
        forgetOnClose: cookies[sessionCookies.forgetOnCloseName] || null,
      });
      if (!user) return undefined;
      // The page is known here (its kept render), so its hearts are read beside the rest.
      const [asker, saved] = await Promise.all([askerFor(user, path), services.wishlist.savedAmong(user, heartsOf(marked))]);
      return asker ? { personal: { ...asker.personal, saved }, accountId: user.id } : undefined;
    },
  });
  return { middleware, front };
}
