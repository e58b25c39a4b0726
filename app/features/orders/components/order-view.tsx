import { Link } from "react-router";
import { sizeLine } from "#common/catalog/variant-names.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import type { Customer, Gift, OrderDetail, OrderStatus } from "#common/orders/order-types.ts";
import { messages } from "#common/shared/messages.ts";
import { ORDER_STATUS_LABELS } from "#common/orders/order-schemas.ts";
import { ShopTime } from "../../../shared/ui/shop-time.tsx";
import { OrderSummary, orderSummary } from "./order-summary.tsx";

const STATUS_STYLES: Record<OrderStatus, string> = {
  awaiting_payment: "bg-orange-100 text-orange-900",
  pending: "bg-amber-100 text-amber-900",
  processing: "bg-sky-100 text-sky-900",
  shipped: "bg-indigo-100 text-indigo-900",
  delivered: "bg-leaf-100 text-leaf-900",
  cancelled: "bg-stone-200 text-stone-800",
  refused: "bg-red-100 text-red-900",
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`inline-block rounded-full px-3 py-1 text-sm font-semibold capitalize ${STATUS_STYLES[status]}`}>{ORDER_STATUS_LABELS[status]}</span>;
}

/** Who placed an order, for the admins: name and a mail link (none once the customer deleted their account). */
export function CustomerContact({ customer }: { customer: Customer }) {
  if (customer.email === null) return <span>{customer.name} · account deleted</span>;
  return (
    <span>
      {customer.name} ·{" "}
      <a href={`mailto:${customer.email}`} className="text-leaf-800 underline underline-offset-4">
        {customer.email}
      </a>
    </span>
  );
}

/** The top of an order's page: the way back to the list, the number, the status and when it was placed. */
export function OrderHeading({ order, back }: { order: OrderDetail; back: { to: string; label: string } }) {
  return (
    <>
      <Link to={back.to} className="text-sm text-leaf-800 underline underline-offset-4">
        {back.label}
      </Link>
      <div className="mb-6 mt-2 flex flex-wrap items-center gap-4">
        <h1 className="text-3xl font-bold text-stone-900">Order {order.number}</h1>
        <StatusBadge status={order.status} />
        <span className="text-stone-600">
          Placed <ShopTime instant={order.createdAt} />
        </span>
      </div>
    </>
  );
}

/** A gift order's recipient, message and whether the recipient sees prices (the buyer's and the owner's order pages). */
export function GiftDetails({ gift }: { gift: Gift }) {
  return (
    <section aria-labelledby="gift-heading" className="sm:col-span-2">
      <h2 id="gift-heading" className="font-semibold text-stone-900">
        {messages.gifts.giftFor(gift.recipientName, gift.recipientPhone)}
      </h2>
      {gift.message ? (
        <p className="mt-1 text-stone-700">
          {messages.gifts.message}: <span className="whitespace-pre-line">{gift.message}</span>
        </p>
      ) : null}
      <p className="mt-1 text-stone-700">{gift.hidePrices ? messages.gifts.pricesHidden : messages.gifts.pricesShown}</p>
    </section>
  );
}

/** An order as its customer and the admins see it: lines, totals, delivery address and payment. */
export function OrderView({ order }: { order: OrderDetail }) {
  return (
    <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
      <div>
        <table className="data-table w-full text-left">
          <caption className="sr-only">Order lines</caption>
          <thead className="border-b border-stone-300 text-sm text-stone-600">
            <tr>
              <th className="py-2 font-medium">Plant</th>
              <th className="py-2 font-medium">Price</th>
              <th className="py-2 font-medium">Quantity</th>
              <th className="py-2 text-right font-medium">Amount</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200">
            {order.lines.map((line, index) => (
              <tr key={index}>
                <td className="py-3">
                  <span className="font-medium text-stone-900">{line.name}</span>
                  {/* The size and SKU as ordered (docs/decisions/048), so the owner packs the right pot. */}
                  {line.variantLabel ? (
                    <span className="block text-sm text-stone-600">
                      {sizeLine(line.variantLabel)}
                      {line.sku ? ` · SKU ${line.sku}` : null}
                    </span>
                  ) : null}
                </td>
                <td className="whitespace-nowrap py-3">{formatPriceExact(line.unitPricePaise)}</td>
                <td className="py-3">{line.quantity}</td>
                <td className="whitespace-nowrap py-3 text-right">{formatPriceExact(line.lineTotalPaise)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="mt-8 grid gap-6 sm:grid-cols-2">
          <div>
            <h2 className="font-semibold text-stone-900">Delivery address</h2>
            <p className="mt-1 whitespace-pre-line text-stone-700">
              {order.shipName}
              {"\n"}
              {order.shipAddress}
              {order.shipPin ? `\n${order.shipPin}` : null}
              {"\n"}
              {order.shipPhone}
            </p>
          </div>
          <div>
            <h2 className="font-semibold text-stone-900">Payment</h2>
            <p className="mt-1 text-stone-700">
              {order.paymentMethod}
              {/* Paid before the shop starts (UPI): where the money stands; Cash on Delivery's is the order's status. */}
              {order.payment.method === "upi" ? ` · ${messages.payments.states[order.payment.state]}` : null}
            </p>
            {order.payment.method === "upi" ? (
              <p className="mt-1 text-sm text-stone-700">{order.payment.reference ? messages.payments.referenceGiven(order.payment.reference) : messages.payments.noReference}</p>
            ) : null}
          </div>
          {order.gift ? <GiftDetails gift={order.gift} /> : null}
        </div>
      </div>
      <OrderSummary {...orderSummary(order)} />
    </div>
  );
}
