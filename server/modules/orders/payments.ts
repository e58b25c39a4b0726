import QRCode from "qrcode";
import { messages } from "#common/shared/messages.ts";

/** What a payment method holds for an order until the order is stored (or let go when it is not). */
export interface PaymentHold {
  orderId: string;
  /** The provider's id for the hold; null when nothing is held (Cash on Delivery, UPI). */
  reference: string | null;
}

/**
 * How an order is paid (docs/decisions/054). Checkout knows methods only through this interface: a gateway
 * (Razorpay, PhonePe) would be one more implementation, holding the amount in `authorize`, placing the order as
 * 'awaiting_payment', and confirming it through the same `confirmPayment` the owner's "Mark paid" uses, from its
 * webhook. `authorize` and `release` are made outside the order's database transaction (docs/decisions/009): a
 * provider is a network call and must never run under the write lock.
 */
export interface PaymentMethod {
  /** 'cod' or 'upi' for the shop's own; what a shopper chooses at checkout. */
  id: string;
  label: string;
  /**
   * The status an order placed with this method starts in: 'pending' when the shop may start on it at once (the
   * courier collects the cash), 'awaiting_payment' when its money must arrive first (its stock is held meanwhile).
   */
  placesAs: "pending" | "awaiting_payment";
  /** For a method placing orders as 'awaiting_payment': how long an order waits for its money before the shop cancels it. */
  payWithinMinutes?: number;
  /**
   * True for a method that holds nothing (authorize and release do nothing): checkout then skips pricing the cart
   * before its transaction, which prices it anyway (docs/decisions/009).
   */
  holdsNothing?: boolean;
  /** Holds the order's amount before the order is stored; throws (a ServiceError for the shopper) when refused. */
  authorize(order: { id: string; totalPaise: number }): Promise<PaymentHold>;
  /** Lets a hold go whose order was not stored: a plant ran short, a price changed, or a retry found the first order. */
  release(hold: PaymentHold): Promise<void>;
}

const holdNothing = {
  holdsNothing: true,
  authorize: async (order: { id: string }) => ({ orderId: order.id, reference: null }),
  release: async () => undefined,
} as const;

/** Paid to the courier: nothing to hold now, nothing to let go; the shop starts on the order at once. */
export const cashOnDelivery: PaymentMethod = { id: "cod", label: messages.checkout.paymentCod, placesAs: "pending", ...holdNothing };

/** Who a UPI transfer goes to (SHOP_UPI_ID, SHOP_UPI_NAME) and how long a shopper has to pay (UPI_PAYMENT_MINUTES). */
export interface UpiPayee {
  /** The shop's UPI ID (virtual payment address), e.g. greenleaf@okaxis. */
  id: string;
  /** The name a UPI app shows the payer before they confirm. */
  name: string;
  minutesToPay: number;
}

/**
 * A transfer from the shopper's UPI app straight to the shop's UPI ID: no gateway, so nothing is held before the
 * order is stored. The order waits, its stock held, until the owner sees the money arrive and marks it paid, or
 * the shop cancels it once its time is up.
 */
export function upiTransfer(payee: UpiPayee): PaymentMethod & { payee: UpiPayee } {
  return { id: "upi", label: messages.checkout.paymentUpi, placesAs: "awaiting_payment", payWithinMinutes: payee.minutesToPay, payee, ...holdNothing };
}

/** The methods the shop offers: Cash on Delivery always (its rules permitting), UPI when configured. */
export interface PaymentMethods {
  cod: PaymentMethod;
  upi: (PaymentMethod & { payee: UpiPayee }) | null;
}

/**
 * The deep link every UPI app opens (NPCI's UPI linking specification): payee address and name, the exact amount in
 * rupees with two decimals, INR, the order number as the transaction reference and in the note, so the owner finds
 * the order in their bank's list. Encoded with %20, not '+': some apps show a '+' literally.
 */
export function upiPaymentLink(payee: Pick<UpiPayee, "id" | "name">, order: { number: string; totalPaise: number }, shopName: string): string {
  const amount = `${Math.floor(order.totalPaise / 100)}.${String(order.totalPaise % 100).padStart(2, "0")}`;
  const parameters = { pa: payee.id, pn: payee.name, am: amount, cu: "INR", tr: order.number, tn: `${shopName} order ${order.number}` };
  return `upi://pay?${Object.entries(parameters)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join("&")}`;
}

/** The link as a QR code, an SVG document made here (no outside service sees the shop's payments). */
export function upiQrSvg(link: string): Promise<string> {
  return QRCode.toString(link, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}
