import { describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import type { OrderDetail } from "#common/orders/order-types.ts";
import { orderMail } from "./order-mails.ts";

const shop = { shopName: "Plant Shop", publicUrl: new URL("http://127.0.0.1:4999"), timeZone: "Asia/Kolkata" };
const order = (fields: Partial<OrderDetail>): OrderDetail & { customer: { email: string } } => ({
  id: "order-1",
  number: "PS-7K3M-Q9XD-2HWA",
  status: "pending",
  totalPaise: 90_000 + 2000,
  itemCount: 1,
  createdAt: "2030-01-01T10:00:00.000Z",
  userId: "user-1",
  lines: [{ productId: "p1", variantId: "p1", variantLabel: null, sku: "FERN-1", name: "Fern", unitPricePaise: 100_000, quantity: 1, lineTotalPaise: 100_000 }],
  subtotalPaise: 100_000,
  discountPaise: 10_000,
  couponCode: "TENOFF",
  shippingPaise: 2000,
  shipName: "Asha",
  shipPhone: "+91 98765 43210",
  shipAddress: "12 Garden Road",
  shipPin: "411001",
  paymentMethod: "Cash on Delivery",
  payment: { method: "cod", state: "awaiting", reference: null, payBy: null },
  paymentReference: null,
  gift: null,
  ...fields,
  customer: { name: "Asha", email: "asha@example.com" },
});

describe("order mails", () => {
  it("show the discount with its code between the subtotal and the shipping, in text and HTML", () => {
    const mail = orderMail(shop, "placed", order({}));
    expect(mail.text).toContain("Subtotal: Rs. 1,000.00\nDiscount (TENOFF): −Rs. 100.00\nShipping: Rs. 20.00\nTotal: Rs. 920.00");
    expect(mail.html).toContain("Discount (TENOFF): −Rs. 100.00");
  });

  it("show no discount line without a code, and shipping as 'Free' when the order shipped free", () => {
    const mail = orderMail(shop, "placed", order({ discountPaise: 0, couponCode: null, shippingPaise: 0, totalPaise: 100_000 }));
    expect(mail.text).not.toContain("Discount");
    expect(mail.text).toContain("Shipping: Free\nTotal: Rs. 1,000.00");
  });

  it("show a gift's recipient, message and hidden prices after the delivery address, in text and HTML (escaped)", () => {
    const gift = { recipientName: "Meera <Iyer>", recipientPhone: "+91 99887 76655", message: "Happy birthday!\nLove, Asha", hidePrices: true };
    const mail = orderMail(shop, "placed", order({ gift }));
    expect(mail.text).toContain(`Delivery address:\nAsha\n12 Garden Road\n411001\n+91 98765 43210\n\nGift for Meera <Iyer>, +91 99887 76655\nGift message: Happy birthday!\nLove, Asha\n${messages.gifts.pricesHidden}`);
    expect(mail.html).toContain("Gift for Meera &lt;Iyer&gt;, +91 99887 76655");
    expect(mail.html).toContain("Happy birthday!<br>");
    expect(mail.html).toContain(messages.gifts.pricesHidden);
  });

  it("say when a gift's prices are shown to the recipient, leave out a message it has none of, and show nothing of a gift for an order that is none", () => {
    const shown = orderMail(shop, "shipped", order({ gift: { recipientName: "Meera", recipientPhone: "98765 12345", message: null, hidePrices: false } }));
    expect(shown.text).toContain(`Gift for Meera, 98765 12345\n${messages.gifts.pricesShown}`);
    expect(shown.text).not.toContain(messages.gifts.message);
    expect(orderMail(shop, "placed", order({})).text).not.toContain("Gift");
  });

  it("ask a UPI order's customer to pay its total by its time, in the shop's time zone, and say how", () => {
    const upi = order({ status: "awaiting_payment", paymentMethod: "UPI", payment: { method: "upi", state: "awaiting", reference: null, payBy: "2030-01-01T10:30:00.000Z" } });
    const mail = orderMail(shop, "awaiting", upi);
    expect(mail.subject).toBe("Order PS-7K3M-Q9XD-2HWA is placed: please pay by UPI");
    // 10:30 UTC is 4:00 pm in India.
    expect(mail.text).toContain(messages.payments.payBy("Rs. 920.00", "1 Jan 2030, 4:00 pm"));
    expect(mail.text).toContain(messages.payments.openOrderToPay);
    expect(mail.html).toContain("http://127.0.0.1:4999/orders/order-1");
  });

  it("tell the customer of an unpaid order cancelled why, and of a payment received that it was", () => {
    expect(orderMail(shop, "unpaid", order({ status: "cancelled" })).text).toContain("We did not receive your UPI payment in time");
    expect(orderMail(shop, "paid", order({})).subject).toBe("Payment received for order PS-7K3M-Q9XD-2HWA");
  });
});
