import { sellableName } from "#common/catalog/variant-names.ts";
import { Link } from "react-router";
import { formatDay } from "#common/shared/dates.ts";
import { formatPrice, formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { AdminNav } from "../components/admin-nav.tsx";
import { SalesChart } from "../components/sales-chart.tsx";
import { requireAdmin } from "../../../shared/lib/session.ts";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Overview (admin)");

export function loader({ context, request }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  return loadOrRefuse(() => context.services.overview.getOverview(admin));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Figure({ label, value, detail, link }: { label: string; value: string; detail?: string; link: { to: string; label: string } }) {
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
      <dt className="text-sm font-medium text-stone-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-stone-900">{value}</dd>
      {detail ? <dd className="text-sm text-stone-600">{detail}</dd> : null}
      <dd className="mt-2">
        <Link to={link.to} className="text-sm font-medium text-leaf-800 underline underline-offset-4">
          {link.label}
        </Link>
      </dd>
    </div>
  );
}

export default function AdminOverview({ loaderData: overview }: Route.ComponentProps) {
  const { today, lastDays, lowStock, unhandledMessages } = overview;
  const unhandled = unhandledMessages.atLeast ? `${unhandledMessages.count}+` : String(unhandledMessages.count);
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">Overview</h1>
      <AdminNav />
      <p className="mb-6 text-sm text-stone-600">
        Days are counted in the shop&apos;s time zone ({overview.timeZone}); today is {formatDay(today.day)}. Revenue is the total of orders not
        cancelled, shipping included.
      </p>

      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Figures">
        <Figure
          label="Orders today"
          value={String(today.orders)}
          detail={`${formatPrice(today.revenuePaise)} revenue${today.cancelled ? `, ${today.cancelled} cancelled` : ""}`}
          link={{ to: "/admin/orders", label: "See the orders" }}
        />
        <Figure
          label="Orders, last 30 days"
          value={String(lastDays.orders)}
          detail={`${formatPrice(lastDays.revenuePaise)} revenue${lastDays.cancelled ? `, ${lastDays.cancelled} cancelled` : ""}`}
          link={{ to: "/admin/orders", label: "See the orders" }}
        />
        <Figure
          label="Unhandled messages"
          value={unhandled}
          link={{ to: "/admin/messages?filter=unhandled", label: "Read the messages" }}
        />
        <Figure
          label={`Products with ${lowStock.threshold} or fewer in stock`}
          value={lowStock.more ? `${lowStock.products.length}+` : String(lowStock.products.length)}
          link={{ to: "/admin/products", label: "See the products" }}
        />
      </dl>

      <section aria-labelledby="sales-heading" className="mt-10">
        <h2 id="sales-heading" className="text-xl font-semibold text-stone-900">
          Revenue per day
        </h2>
        <p className="mb-3 text-sm text-stone-600">
          {formatDay(lastDays.from)} to {formatDay(lastDays.to)}: {plural(lastDays.orders, "order", "orders")}, {formatPrice(lastDays.revenuePaise)}
        </p>
        <SalesChart days={overview.days} />
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-leaf-800">The numbers by day</summary>
          <table className="data-table mt-2 w-full max-w-lg text-left text-sm">
            <caption className="sr-only">Orders and revenue per day, newest first</caption>
            <thead className="border-b border-stone-300 text-stone-600">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Day
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Orders
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Cancelled
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Revenue
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200">
              {[...overview.days].reverse().map((d) => (
                <tr key={d.day}>
                  <th scope="row" className="py-1 font-normal">
                    <time dateTime={d.day}>{formatDay(d.day)}</time>
                  </th>
                  <td className="py-1 text-right">{d.orders}</td>
                  <td className="py-1 text-right">{d.cancelled}</td>
                  <td className="py-1 text-right">{formatPriceExact(d.revenuePaise)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>

      <section aria-labelledby="low-stock-heading" className="mt-10">
        <h2 id="low-stock-heading" className="text-xl font-semibold text-stone-900">
          Low in stock
        </h2>
        {lowStock.products.length ? (
          <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
            {lowStock.products.map((product) => (
              <li key={product.variantId} className="flex items-center justify-between gap-4 px-4 py-2">
                <Link to={`/product/${product.id}`} className="font-medium text-leaf-800 underline underline-offset-4">
                  {sellableName(product.name, product.label)}
                </Link>
                <span className="flex items-center gap-3">
                  {product.waiting.count > 0 ? (
                    <span className="rounded-full bg-leaf-50 px-2 py-0.5 text-sm font-medium text-leaf-800" data-testid="waiting">
                      {messages.alerts.waiting(product.waiting.count, product.waiting.atLeast)}
                    </span>
                  ) : null}
                  <span className={product.stock === 0 ? "font-semibold text-red-700" : "text-stone-700"}>
                    {product.stock === 0 ? "Out of stock" : `${product.stock} left`}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-stone-700">Every product has more than {lowStock.threshold} in stock.</p>
        )}
        {lowStock.more ? (
          <p className="mt-2 text-sm">
            <Link to="/admin/products" className="text-leaf-800 underline underline-offset-4">
              More products are low in stock: see them all
            </Link>
          </p>
        ) : null}
      </section>
    </section>
  );
}
