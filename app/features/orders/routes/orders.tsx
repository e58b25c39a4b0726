import { Link } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { StatusBadge } from "../components/order-view.tsx";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { requireUser } from "../../../shared/lib/session.ts";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import type { Route } from "./+types/orders";
import { privatePageMeta } from "../../../shared/lib/seo.ts";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Your orders");

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { orders: await loadOrRefuse(() => context.services.orders.listMyOrders(user)) };
}

export default function Orders({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container-page py-10">
      <h1 className="mb-8 text-3xl font-bold text-stone-900">Your orders</h1>
      {loaderData.orders.length === 0 ? (
        <p className="text-stone-700">{messages.orders.none}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-2xl border border-stone-200">
          {loaderData.orders.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center gap-4 p-4">
              <Link to={`/orders/${order.id}`} className="font-semibold text-leaf-800 underline underline-offset-4">
                {order.number}
              </Link>
              <ShopTime instant={order.createdAt} className="text-stone-600" />
              <StatusBadge status={order.status} />
              <span className="ml-auto font-semibold">
                {order.itemCount} item{order.itemCount === 1 ? "" : "s"} · {formatPriceExact(order.totalPaise)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
