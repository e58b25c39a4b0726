import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { CartIcon, CloseIcon, LoginIcon, LogoutIcon, MenuIcon, PlusIcon } from "../ui/icons.tsx";

/** Who is looking, as far as the navigation cares (null means a visitor). */
export interface NavUser {
  id: string;
  name: string;
  isAdmin: boolean;
  /** The uploaded picture, else the initials avatar. */
  avatarUrl: string;
}

interface NavItem {
  to: string;
  label: string;
  icon?: React.ReactNode;
}

function navItems(user: NavUser | null): NavItem[] {
  return [
    { to: "/", label: "Home" },
    // The Shop link shows only when logged in (docs/product.md, Whole shop), as the shop always did.
    ...(user ? [{ to: "/shop", label: "Shop" }, { to: "/orders", label: "Orders" }] : []),
    // The owner's pages start at the overview, which links to each admin list (docs/product.md, Admin overview).
    ...(user?.isAdmin ? [{ to: "/admin", label: "Admin" }] : []),
  ];
}

/** The signed-in person's picture in the navigation (in the menu beside the word Profile, so there without alt text). */
function Avatar({ url, size, alt }: { url: string; size: number; alt: string }) {
  return <img src={url} width={size} height={size} alt={alt} className="aspect-square rounded-full object-cover" />;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 font-medium hover:bg-leaf-50 hover:text-leaf-800 ${isActive ? "text-leaf-800 underline decoration-2 underline-offset-8" : "text-stone-700"}`;

/** Tab and Shift+Tab cycle within the open menu instead of leaving for the browser's own controls. */
function keepFocusInside(event: React.KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const focusable = event.currentTarget.querySelectorAll<HTMLElement>("a[href], button:not([disabled])");
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

export function NavBar({ shopName, user, cartCount }: { shopName: string; user: NavUser | null; cartCount: number }) {
  const menu = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const loginTo = `/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`;

  // A navigation from inside the menu closes it.
  useEffect(() => {
    menu.current?.close();
  }, [location.pathname, location.search]);

  const items = navItems(user);
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/95 backdrop-blur">
      {/* On a phone the signed-in owner's four buttons leave the name little room: it is cut short, never overlapped. */}
      <nav aria-label="Main" className="container-page flex h-16 items-center gap-1 sm:gap-4">
        <Link to="/" className="mr-auto flex min-w-0 items-center gap-2 whitespace-nowrap text-xl font-bold text-leaf-800" title={shopName}>
          <img src="/illustrations/favicon.svg" width={32} height={32} alt="" className="shrink-0" />
          <span className="truncate">{shopName}</span>
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end className={linkClass}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        {user ? (
          <Link to={`/profile/${user.id}`} className="rounded-full p-1 hover:bg-leaf-50" title={user.name}>
            <Avatar url={user.avatarUrl} size={32} alt="Your profile" />
          </Link>
        ) : null}
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
        {user?.isAdmin ? (
          <Link to="/add-product" className="rounded-md p-2 text-stone-700 hover:bg-leaf-50 hover:text-leaf-800" aria-label="Add Products">
            <PlusIcon />
          </Link>
        ) : null}
        {user ? (
          <Form method="post" action="/logout" className="hidden md:block">
            <button type="submit" className="btn-outline">
              <LogoutIcon width={18} height={18} /> Logout
            </button>
          </Form>
        ) : (
          <Link to={loginTo} className="btn-primary hidden md:inline-flex">
            <LoginIcon width={18} height={18} /> Login
          </Link>
        )}
        <button
          type="button"
          className="rounded-md p-2 text-stone-700 hover:bg-leaf-50 md:hidden"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls="mobile-menu"
          // The browser opens the dialog itself (an invoker command), so the menu works before the scripts have
          // loaded, or without them; the click handler does it for a browser without commands.
          commandfor="mobile-menu"
          command="show-modal"
          onClick={() => {
            if (!menu.current?.open) menu.current?.showModal();
            setOpen(true);
          }}
        >
          <MenuIcon />
        </button>
      </nav>

      {/* The small-screen menu: a modal dialog, so focus stays inside, Escape closes it and focus returns. */}
      <dialog
        id="mobile-menu"
        ref={menu}
        aria-label="Menu"
        onClose={() => setOpen(false)}
        onClick={(event) => {
          if (event.target === menu.current) menu.current.close();
        }}
        onKeyDown={keepFocusInside}
        className="slide-in m-0 ml-auto h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-stone-900/50"
      >
        <div className="flex items-center justify-between border-b border-stone-200 px-4 py-3">
          <span className="font-bold text-leaf-800">{shopName}</span>
          <button type="button" className="rounded-md p-2 hover:bg-leaf-50" aria-label="Close menu" commandfor="mobile-menu" command="close" onClick={() => menu.current?.close()}>
            <CloseIcon />
          </button>
        </div>
        <ul className="flex flex-col gap-1 p-3">
          {[
            ...items,
            ...(user?.isAdmin ? [{ to: "/add-product", label: "Add Products" }] : []),
            ...(user ? [{ to: `/profile/${user.id}`, label: "Profile", icon: <Avatar url={user.avatarUrl} size={24} alt="" /> }] : []),
            { to: "/cart", label: "Cart" },
            ...(user ? [] : [{ to: loginTo, label: "Login" }]),
          ].map((item) => (
            <li key={item.label}>
              <NavLink to={item.to} end className={({ isActive }) => `flex items-center gap-2 ${linkClass({ isActive })}`}>
                {item.icon}
                {item.label}
              </NavLink>
            </li>
          ))}
          {user ? (
            <li>
              <Form method="post" action="/logout">
                <button type="submit" className="block w-full rounded-md px-3 py-2 text-left font-medium text-stone-700 hover:bg-leaf-50">
                  Logout
                </button>
              </Form>
            </li>
          ) : null}
        </ul>
      </dialog>
    </header>
  );
}
