import type { ReactNode } from "react";
import { Link, NavLink, useRouteLoaderData } from "react-router";
import type { NavUser, PersonalData } from "#common/accounts/personal-data.ts";
import { CartIcon } from "../ui/icons.tsx";

// The parts of a page that belong to the person looking at it (docs/decisions/045). A page a signed-in shopper
// shares with every other shopper is rendered once with a marker in each part's place; the server fills each
// marker with the part rendered for the person (fillPersonalParts in entry.server.tsx), and adds their data for
// the browser, which renders the same parts from it when it hydrates the page: no flash, no other person's parts.


/** What the root loader says of the person (app/root.tsx). */
interface RootPersonal {
  user?: NavUser | null;
  cartCount?: number;
  /** The page is the one every signed-in shopper shares: the person's parts are filled in after the render. */
  sharedWithShoppers?: boolean;
}

const DATA_ID = "personal-data";

/** The signed-in person's picture in the navigation (in the menu beside the word Profile, so there without alt text). */
export function Avatar({ url, size, alt }: { url: string; size: number; alt: string }) {
  return <img src={url} width={size} height={size} alt={alt} className="aspect-square rounded-full object-cover" />;
}

export const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium hover:bg-leaf-50 hover:text-leaf-800 ${isActive ? "text-leaf-800 underline decoration-2 underline-offset-8" : "text-stone-700"}`;

/** JSON that can sit inside a script element: no `</script>` or `<!--` can end or change it. */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * Each part as rendered for a person. They use no data router (no forms or fetchers): the server renders them on
 * their own, inside a plain router at the page's address, to fill a shared page.
 */
export const PERSONAL_PARTS = {
  "nav-avatar": ({ user }: PersonalData): ReactNode =>
    user ? (
      <Link to={`/profile/${user.id}`} className="rounded-full p-1 hover:bg-leaf-50" title={user.name}>
        <Avatar url={user.avatarUrl} size={32} alt="Your profile" />
      </Link>
    ) : null,
  "nav-cart": ({ cartCount }: PersonalData): ReactNode => (
    <Link
      to="/cart"
      className="relative rounded-md p-2 text-stone-700 hover:bg-leaf-50 hover:text-leaf-800"
      aria-label={cartCount ? `Cart, ${cartCount} item${cartCount === 1 ? "" : "s"}` : "Cart"}
    >
      <CartIcon />
      {cartCount ? (
        <span aria-hidden="true" data-testid="cart-count" className="absolute -right-1 -top-1 grid min-w-5 place-items-center rounded-full bg-clay-500 px-1 text-xs font-bold text-white">
          {cartCount}
        </span>
      ) : null}
    </Link>
  ),
  "menu-profile": ({ user }: PersonalData): ReactNode =>
    user ? (
      <NavLink to={`/profile/${user.id}`} end className={({ isActive }) => `flex items-center gap-2 ${linkClass({ isActive })}`}>
        <Avatar url={user.avatarUrl} size={24} alt="" />
        Profile
      </NavLink>
    ) : null,
  /** The person's data, for the browser to render the same parts when it hydrates a shared page. */
  data: (personal: PersonalData): ReactNode => (
    <script type="application/json" id={DATA_ID} dangerouslySetInnerHTML={{ __html: jsonInHtml(personal) }} />
  ),
} satisfies Record<string, (personal: PersonalData) => ReactNode>;

export type PersonalPartName = keyof typeof PERSONAL_PARTS;


let dataOfSharedPage: PersonalData | undefined;

/** The person's data the server put into the shared page this browser loaded, read once. */
function personalDataOfSharedPage(): PersonalData {
  dataOfSharedPage ??= JSON.parse(document.getElementById(DATA_ID)?.textContent ?? "null") ?? { user: null, cartCount: 0, saved: [] };
  return dataOfSharedPage!;
}

/**
 * Whether the person is signed in, and their parts' data: "marked" while the server renders a shared page (each
 * part leaves its marker), else the data (from the root loader, or, while a shared page is hydrated and until
 * the root loader runs again, what the server put into the page).
 */
export function usePersonal(): { signedIn: boolean; isAdmin: boolean; data: PersonalData | "marked"; shared: boolean } {
  const root = useRouteLoaderData("root") as RootPersonal | undefined;
  if (root?.sharedWithShoppers) {
    const data = typeof document === "undefined" ? "marked" : personalDataOfSharedPage();
    return { signedIn: true, isAdmin: false, data, shared: true };
  }
  const user = root?.user ?? null;
  return { signedIn: user !== null, isAdmin: user?.isAdmin === true, data: { user, cartCount: root?.cartCount ?? 0, saved: [] }, shared: false };
}

/**
 * The marker of a part that belongs to one card of a shared render (a plant's heart): the server renders the part
 * for the person from these props (app/entry.server.tsx), and the component that left the marker renders the same
 * part itself in the browser. Only where `usePersonal` says "marked".
 */
export function CardPartMarker({ part, props }: { part: string; props: Record<string, string> }) {
  return <template data-personal-part={part} data-props={JSON.stringify(props)} />;
}

/** One personal part: rendered for the person, or its marker in a shared render. */
export function PersonalPart({ part }: { part: PersonalPartName }) {
  const { data, shared } = usePersonal();
  if (data === "marked") return <template data-personal-part={part} />;
  // The data travels only with a shared page, where the browser needs it to hydrate the parts.
  if (part === "data" && !shared) return null;
  return PERSONAL_PARTS[part](data);
}
