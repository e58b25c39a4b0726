import { isRouteErrorResponse, Link } from "react-router";
import { sellableName } from "#common/catalog/variant-names.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { NotFound } from "../shared/components/not-found.tsx";
import { OrderSummary, orderSummary } from "../features/orders/components/order-summary.tsx";
import { loadOr404 } from "../shared/lib/service-errors.ts";
import { requireAdmin } from "../shared/lib/session.ts";
import type { Route } from "./+types/admin-packing-slip";
import { privatePageMeta } from "../shared/lib/seo.ts";

// An order's packing slip, a page made to be printed and put in the box (docs/decisions/052). A gift whose buyer
// hid the prices shows none: no unit price, no total, no payment. The navigation and the Print button are left
// out of the print (app.css, @media print).

export const meta: Route.MetaFunction = ({ matches, data }) => (data ? privatePageMeta(matches, `Packing slip ${data.order.number}`) : []);

/** One person's order: no cache keeps it (the cache policy says so for every signed-in answer too). */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const order = await loadOr404(() => context.services.orders.getOrderForAdmin(admin, params.orderId));
  return { order, shopName: context.shop.name };
}

export default function PackingSlip({ loaderData: { order, shopName } }: Route.ComponentProps) {
  const gift = order.gift;
  const showPrices = !gift?.hidePrices;
  return (
    <section className="container-page max-w-3xl py-10">
      <div className="no-print mb-6 flex flex-wrap items-center gap-4">
        <Link to={`/admin/orders/${order.id}`} className="text-sm text-leaf-800 underline underline-offset-4">
          Order {order.number}
        </Link>
        {/* Does nothing without JavaScript, where the browser's own Print (Ctrl+P) prints the same page. */}
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          {messages.gifts.print}
        </button>
      </div>
      <p className="text-lg font-semibold text-stone-900">{shopName}</p>
      <h1 className="mt-1 text-2xl font-bold text-stone-900">
        {messages.gifts.slipHeading} · Order {order.number}
      </h1>
      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <div>
          <h2 className="font-semibold text-stone-900">{messages.gifts.shipTo}</h2>
          <p className="mt-1 whitespace-pre-line text-stone-800">
            {gift
              ? `${gift.recipientName}\n${order.shipAddress}${order.shipPin ? `\n${order.shipPin}` : ""}\n${gift.recipientPhone}`
              : `${order.shipName}\n${order.shipAddress}${order.shipPin ? `\n${order.shipPin}` : ""}\n${order.shipPhone}`}
          </p>
        </div>
        {gift?.message ? (
          <div>
            <h2 className="font-semibold text-stone-900">{messages.gifts.message}</h2>
            <p className="mt-1 whitespace-pre-line text-stone-800">{gift.message}</p>
          </div>
        ) : null}
      </div>
      <table className="data-table mt-8 w-full text-left">
        <caption className="sr-only">Plants in the box</caption>
        <thead className="border-b border-stone-300 text-sm text-stone-600">
          <tr>
            <th className="py-2 font-medium">Plant</th>
            <th className="py-2 font-medium">Quantity</th>
            {showPrices ? <th className="py-2 text-right font-medium">Amount</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200">
          {order.lines.map((line, index) => (
            <tr key={index}>
              <td className="py-2">{sellableName(line.name, line.variantLabel)}</td>
              <td className="py-2">{line.quantity}</td>
              {showPrices ? <td className="whitespace-nowrap py-2 text-right">{formatPriceExact(line.lineTotalPaise)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
      {showPrices ? (
        <div className="mt-8 grid items-start gap-6 sm:grid-cols-2">
          <div>
            <h2 className="font-semibold text-stone-900">Payment</h2>
            <p className="mt-1 text-stone-800">{order.paymentMethod}</p>
          </div>
          <OrderSummary {...orderSummary(order)} />
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.orders.notFound} />;
  throw error;
}
