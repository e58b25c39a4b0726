import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { navUser } from "#common/accounts/personal-data.ts";
import { messages } from "#common/shared/messages.ts";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { NavBar } from "./shared/components/nav-bar.tsx";
import { PersonalPart } from "./shared/components/personal-parts.tsx";
import { ErrorScreen } from "./shared/components/error-screen.tsx";
import { NotFound } from "./shared/components/not-found.tsx";
import { SiteFooter } from "./shared/components/site-footer.tsx";
import { Spinner } from "./shared/ui/spinner.tsx";
import { takeFlash } from "./shared/lib/flash.ts";
import { loadOrRefuse } from "./shared/lib/service-errors.ts";
import { useNonce } from "./shared/lib/nonce.tsx";
import { toast } from "./shared/lib/toast.ts";
import { LazyToaster } from "./shared/ui/lazy-toaster.tsx";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/illustrations/favicon.svg", type: "image/svg+xml" },
];

// Pages an account without a username may still open: choosing one, and logging out (docs/decisions/039).
const WITHOUT_USERNAME_PATHS = new Set(["/choose-username", "/logout"]);

export async function loader({ context, request }: Route.LoaderArgs) {
  // A page every signed-in shopper shares holds nothing of the person: their parts are filled in per request
  // (docs/decisions/045), and such a request carries no flash or cart notice to take.
  if (context.sharedWithShoppers) {
    return data({ shop: context.shop, user: null, cartCount: 0, flash: null, cartNotice: null, sharedWithShoppers: true });
  }
  // An account made by a provider sign-in chooses its username before anything else (docs/decisions/039).
  const { pathname, search } = new URL(request.url);
  if (context.user && !context.user.username && !WITHOUT_USERNAME_PATHS.has(pathname)) {
    throw redirect(`/choose-username?redirectTo=${encodeURIComponent(pathname + search)}`);
  }
  const user = context.user ? navUser(context.user) : null;
  const [{ flash, clear }, cart] = await Promise.all([takeFlash(context, request), loadOrRefuse(() => countCartItems(context))]);
  const headers = new Headers();
  if (clear) headers.append("Set-Cookie", clear);
  for (const cookie of cart.cookies) headers.append("Set-Cookie", cookie);
  // What a sign-in brought over from the visitor's cart ('2 plants from your visit were added to your cart…').
  const notice = context.visitorCart.notice();
  if (notice) headers.append("Set-Cookie", notice.clear);
  const cartNotice = notice?.text || null;
  return data({ shop: context.shop, user, cartCount: cart.count, flash, cartNotice, sharedWithShoppers: false }, { headers });
}

/** The cart icon's count: the account's cart, or a visitor's (whose unknown token is forgotten). */
async function countCartItems(context: Route.LoaderArgs["context"]): Promise<{ count: number; cookies: string[] }> {
  if (context.user) return { count: await context.services.cart.countItems(context.user), cookies: [] };
  const { count, outcome } = await context.services.cart.countVisitorItems(context.visitorCart.token);
  return { count, cookies: context.visitorCart.write(outcome) };
}

// The top bar is hidden on the login and register screens and on the password screens that share their card
// (docs/product.md, Whole shop).
const BARE_PATHS = new Set(["/login", "/register", "/forgot-password", "/reset-password", "/choose-username"]);

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const { pathname } = useLocation();
  const shopName = data?.shop.name ?? "Plant Shop";
  const bare = BARE_PATHS.has(pathname);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#25632e" />
        {/* With a precedence React sends the stylesheet before the script preloads it hoists into <head>, so the
            browser asks for it first (docs/decisions/028); <Links/>'s plain stylesheet came after all of them. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
          Skip to content
        </a>
        {bare ? null : <NavBar shopName={shopName} />}
        <PendingPage />
        {data?.cartNotice ? (
          <p role="status" className="container-page mt-4 rounded-2xl border border-leaf-200 bg-leaf-50 p-4 text-stone-800">
            {data.cartNotice}
          </p>
        ) : null}
        <main id="main" className="flex-1 pb-16">
          {children}
        </main>
        <SiteFooter shopName={shopName} author={data?.shop.author ?? ""} />
        {/* Below the 64 px top bar, so a toast never covers the navigation. */}
        <LazyToaster position="top-center" containerStyle={{ top: bare ? 16 : 72 }} />
        <PersonalPart part="data" />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

// What a client-side navigation says while it waits ('Loading Product...', 'Verifying…', the profile's spinner).
const PENDING_LABELS: [RegExp, string][] = [
  [/^\/product\//, messages.product.loading],
  [/^\/profile\//, messages.profile.loading],
  [/^\/verify$/, messages.auth.verifying],
];

function PendingPage() {
  const navigation = useNavigation();
  const label = navigation.state === "loading" ? PENDING_LABELS.find(([path]) => path.test(navigation.location.pathname))?.[1] : undefined;
  if (!label) return null;
  return (
    <div className="fixed inset-x-0 top-16 z-20 flex justify-center">
      <p className="mt-4 rounded-full bg-white px-5 py-2 text-leaf-800 shadow-lg">
        <Spinner label={label} visibleLabel />
      </p>
    </div>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // A toast carried across a redirect ('User logged in successfully', 'Email verified!').
  const { flash } = loaderData;
  useEffect(() => {
    if (flash) toast.success(flash.text, { id: flash.id });
  }, [flash]);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    // A refusal that says why (a form from another site, an admin without two-factor) says so; an owner's page
    // refused to a shopper says whose it is.
    const detail = (error.data as { message?: unknown } | null)?.message;
    const why = typeof detail === "string" && detail !== messages.auth.forbidden ? detail : "This page is for the shop's admins.";
    return <ErrorScreen title={messages.auth.forbidden}>{why}</ErrorScreen>;
  }
  if (isRouteErrorResponse(error) && error.status === 503) {
    // The database is away for a moment (a restart, a failover): nothing is wrong with the request.
    return <ErrorScreen title={messages.briefOutage.title}>{messages.briefOutage.message}</ErrorScreen>;
  }
  if (isRouteErrorResponse(error) && error.status < 500) {
    // A request the page refused (a search too long, a form that is not a form): say why, never a 500.
    const detail = (error.data as { message?: unknown } | null)?.message;
    return (
      <ErrorScreen title={messages.refusedRequest[error.status] ?? messages.refusedRequest[400]!}>
        {typeof detail === "string" ? detail : "The request could not be handled."}
      </ErrorScreen>
    );
  }
  return <ErrorScreen title={messages.unexpectedError}>Please reload the page or try again in a moment.</ErrorScreen>;
}
