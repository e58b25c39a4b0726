import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { CloseIcon, LoginIcon, LogoutIcon, MenuIcon, PlusIcon } from "../ui/icons.tsx";
import { linkClass, PersonalPart, usePersonal } from "./personal-parts.tsx";

interface NavItem {
  to: string;
  label: string;
}

function MenuItem({ item }: { item: NavItem }) {
  return (
    <li>
      <NavLink to={item.to} end className={({ isActive }) => `flex items-center gap-2 ${linkClass({ isActive })}`}>
        {item.label}
      </NavLink>
    </li>
  );
}

function navItems(signedIn: boolean, isAdmin: boolean): NavItem[] {
  return [
    { to: "/", label: "Home" },
    // The Shop link shows only when logged in (docs/product.md, Whole shop), as the shop always did.
    ...(signedIn ? [{ to: "/shop", label: "Shop" }, { to: "/orders", label: "Orders" }, { to: "/wishlist", label: messages.wishlist.navLink }] : []),
    // The owner's pages start at the overview, which links to each admin list (docs/product.md, Admin overview).
    ...(isAdmin ? [{ to: "/admin", label: "Admin" }] : []),
  ];
}

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

/**
 * The top bar. What every signed-in shopper sees alike (their links, Logout) is part of the page; who they are and
 * their cart's count are personal parts, which a page shared by every shopper has filled in per person.
 */
export function NavBar({ shopName }: { shopName: string }) {
  const menu = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const loginTo = `/login?redirectTo=${encodeURIComponent(location.pathname + location.search)}`;

  // A navigation from inside the menu closes it.
  useEffect(() => {
    menu.current?.close();
  }, [location.pathname, location.search]);

  const { signedIn, isAdmin } = usePersonal();
  const items = navItems(signedIn, isAdmin);
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
        <PersonalPart part="nav-avatar" />
        <PersonalPart part="nav-cart" />
        {isAdmin ? (
          <Link to="/add-product" className="rounded-md p-2 text-stone-700 hover:bg-leaf-50 hover:text-leaf-800" aria-label="Add Products">
            <PlusIcon />
          </Link>
        ) : null}
        {signedIn ? (
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
          {[...items, ...(isAdmin ? [{ to: "/add-product", label: "Add Products" }] : [])].map((item) => (
            <MenuItem key={item.label} item={item} />
          ))}
          {signedIn ? (
            <li>
              <PersonalPart part="menu-profile" />
            </li>
          ) : null}
          {[{ to: "/cart", label: "Cart" }, ...(signedIn ? [] : [{ to: loginTo, label: "Login" }])].map((item) => (
            <MenuItem key={item.label} item={item} />
          ))}
          {signedIn ? (
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
