// Order confirmation and status e-mails, on the shared layout.
import { sellableName } from "#common/catalog/variant-names.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { formatDateTime } from "#common/shared/dates.ts";
import { couponMessages } from "#common/coupons/coupon-messages.ts";
import { messages } from "#common/shared/messages.ts";
import type { OrderDetail } from "#common/orders/order-types.ts";
import { escapeHtml, escapeMultiline, type MailContent, oneLine, renderHtml, renderText } from "../../platform/mail/mail-layout.ts";
import type { OutboxMail } from "../../platform/mail/mail-outbox.ts";

export interface OrderMailDetails {
  shopName: string;
  name: string;
  orderNumber: string;
  url: string;
  lines: { name: string; quantity: number; lineTotal: string }[];
  subtotal: string;
  /** 'SUMMER10: −Rs. 50.00' when a discount code was used; null otherwise. */
  discount: string | null;
  shipping: string;
  total: string;
  address: string;
  /** A gift's lines: 'Gift for …, …', the message if any, and whether the recipient sees prices; null for no gift. */
  gift: { giftFor: string; message: string | null; prices: string } | null;
  /** For an order awaiting its UPI payment: how much to pay, by when, and how; null otherwise. */
  payNote?: string | null;
}

const ORDER_NEWS = {
  placed: { subject: "Order {n} is placed", headline: "Thank you for your order! We will pack your plants with care." },
  // A UPI order: the headline is completed with the amount and the time it must be paid by.
  awaiting: { subject: "Order {n} is placed: please pay by UPI", headline: "Thank you for your order! We hold your plants while you pay." },
  paid: { subject: "Payment received for order {n}", headline: "We received your payment, thank you. We will pack your plants with care." },
  unpaid: {
    subject: "Order {n} is cancelled: payment not received",
    headline: "We did not receive your UPI payment in time, so your order has been cancelled and its plants are back on sale. If you paid, reply to this mail with your UPI reference and we will sort it out.",
  },
  shipped: { subject: "Order {n} has shipped", headline: "Good news: your plants are on their way." },
  cancelled: { subject: "Order {n} is cancelled", headline: "Your order has been cancelled. Nothing will be delivered or charged." },
} as const;

export type OrderMailKind = keyof typeof ORDER_NEWS;

/** An order's news for its customer — placed, awaiting its payment, paid, shipped or cancelled — with its lines and totals. */
export function orderEmail(kind: OrderMailKind, order: OrderMailDetails): MailContent {
  const news = { ...ORDER_NEWS[kind], headline: [ORDER_NEWS[kind].headline, order.payNote].filter(Boolean).join(" ") };
  const reason = `you placed order ${order.orderNumber} at ${order.shopName}.`;
  const lineText = order.lines.map((line) => `${line.quantity} × ${line.name}: ${line.lineTotal}`);
  const gift = order.gift;
  const giftText = gift ? [gift.giftFor, ...(gift.message ? [`${messages.gifts.message}: ${gift.message}`] : []), gift.prices].join("\n") : null;
  const totals = [`Subtotal: ${order.subtotal}`, ...(order.discount ? [`${couponMessages.discount} ${order.discount}`] : []), `Shipping: ${order.shipping}`, `Total: ${order.total}`];
  return {
    subject: news.subject.replace("{n}", oneLine(order.orderNumber)),
    text: renderText(
      [`Hello ${order.name},`, news.headline, lineText.join("\n"), totals.join("\n"), `Delivery address:\n${order.address}`, ...(giftText ? [giftText] : []), order.url],
      reason,
      order.shopName,
    ),
    html: renderHtml({
      shopName: order.shopName,
      paragraphs: [
        `Hello ${escapeHtml(order.name)},`,
        escapeHtml(news.headline),
        lineText.map(escapeHtml).join("<br>\n"),
        totals.map(escapeHtml).join("<br>\n"),
        `<strong>Delivery address</strong><br>\n${escapeMultiline(order.address)}`,
        ...(gift
          ? [
              [
                `<strong>${escapeHtml(gift.giftFor)}</strong>`,
                ...(gift.message ? [`${escapeHtml(messages.gifts.message)}: ${escapeMultiline(gift.message)}`] : []),
                escapeHtml(gift.prices),
              ].join("<br>\n"),
            ]
          : []),
      ],
      button: { label: `See order ${order.orderNumber}`, url: order.url },
      reason,
    }),
  };
}

/** An order's news to its customer, as the outbox queues it. */
export function orderMail(shop: { shopName: string; publicUrl: URL; timeZone: string }, kind: OrderMailKind, order: OrderDetail & { customer: { email: string } }): OutboxMail {
  return {
    kind: `order-${kind}`,
    reference: order.id,
    to: order.customer.email,
    ...orderEmail(kind, {
      shopName: shop.shopName,
      name: order.customer.name,
      orderNumber: order.number,
      url: `${shop.publicUrl.origin}/orders/${order.id}`,
      // A size is named with its SKU, as the order keeps them (decision 048): 'Fiddle Leaf Fig (Large · 10" pot) · SKU FIG-L'.
      lines: order.lines.map((l) => ({ name: l.variantLabel ? `${sellableName(l.name, l.variantLabel)} · SKU ${l.sku}` : l.name, quantity: l.quantity, lineTotal: formatPriceExact(l.lineTotalPaise) })),
      subtotal: formatPriceExact(order.subtotalPaise),
      discount: order.discountPaise > 0 ? `(${order.couponCode ?? ""}): −${formatPriceExact(order.discountPaise)}` : null,
      shipping: order.shippingPaise === 0 ? couponMessages.free : formatPriceExact(order.shippingPaise),
      total: formatPriceExact(order.totalPaise),
      address: `${order.shipName}\n${order.shipAddress}${order.shipPin ? `\n${order.shipPin}` : ""}\n${order.shipPhone}`,
      payNote:
        kind === "awaiting" && order.payment.payBy
          ? `${messages.payments.payBy(formatPriceExact(order.totalPaise), formatDateTime(order.payment.payBy, shop.timeZone))} ${messages.payments.openOrderToPay}`
          : null,
      gift: order.gift && {
        giftFor: messages.gifts.giftFor(order.gift.recipientName, order.gift.recipientPhone),
        message: order.gift.message,
        prices: order.gift.hidePrices ? messages.gifts.pricesHidden : messages.gifts.pricesShown,
      },
    }),
  };
}
