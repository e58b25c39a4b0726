import { NavLink } from "react-router";

/** The admin pages, in the order the owner works through them (docs/product.md, Admin overview). */
export const ADMIN_SECTIONS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/products", label: "Products", end: false },
  { to: "/admin/categories", label: "Categories", end: false },
  { to: "/admin/orders", label: "Orders", end: false },
  { to: "/admin/messages", label: "Messages", end: false },
  { to: "/admin/coupons", label: "Coupons", end: false },
  { to: "/admin/delivery", label: "Delivery", end: false },
  { to: "/admin/activity", label: "Activity", end: false },
] as const;

/** The one navigation every admin page shares; the current section is marked for screen readers too. */
export function AdminNav() {
  return (
    <nav aria-label="Admin" className="mb-6 border-b border-stone-200">
      <ul className="flex flex-wrap gap-1">
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive }) =>
                `inline-block rounded-t-md px-3 py-2 text-sm font-medium ${
                  isActive ? "border-b-2 border-leaf-700 text-leaf-800" : "text-stone-600 hover:text-leaf-800"
                }`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
