// Order confirmation and status e-mails, on the shared layout.
import { sellableName } from "#common/catalog/variant-names.ts";
import { formatPriceExact } from "#common/shared/money.ts";
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
}

const ORDER_NEWS = {
  placed: { subject: "Order {n} is placed", headline: "Thank you for your order! We will pack your plants with care." },
  shipped: { subject: "Order {n} has shipped", headline: "Good news: your plants are on their way." },
  cancelled: { subject: "Order {n} is cancelled", headline: "Your order has been cancelled. Nothing will be delivered or charged." },
} as const;

/** An order's news for its customer — placed, shipped or cancelled — with its lines and totals. */
export function orderEmail(kind: keyof typeof ORDER_NEWS, order: OrderMailDetails): MailContent {
  const news = ORDER_NEWS[kind];
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
export function orderMail(shop: { shopName: string; publicUrl: URL }, kind: keyof typeof ORDER_NEWS, order: OrderDetail & { customer: { email: string } }): OutboxMail {
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
      gift: order.gift && {
        giftFor: messages.gifts.giftFor(order.gift.recipientName, order.gift.recipientPhone),
        message: order.gift.message,
        prices: order.gift.hidePrices ? messages.gifts.pricesHidden : messages.gifts.pricesShown,
      },
    }),
  };
}
