import { z } from "zod";
import { ORDER_NUMBER_PATTERN } from "./order-types.ts";

/**
 * Every status an order can have: the one list (the database's check constraint freezes it, as migration
 * 0032-upi-payments left it). 'awaiting_payment': placed and its stock held, until its UPI payment is confirmed;
 * 'refused': a shipped parcel the customer refused at the door (docs/decisions/054).
 */
export const ORDER_STATUSES = ["awaiting_payment", "pending", "processing", "shipped", "delivered", "cancelled", "refused"] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES).meta({ id: "OrderStatus" });

/** How a status reads to people: in badges, the admins' filter, messages. */
export const ORDER_STATUS_LABELS: Record<(typeof ORDER_STATUSES)[number], string> = {
  awaiting_payment: "awaiting payment",
  pending: "pending",
  processing: "processing",
  shipped: "shipped",
  delivered: "delivered",
  cancelled: "cancelled",
  refused: "refused on delivery",
};

/**
 * Where an order's money stands, whatever the method (docs/decisions/054): 'awaiting' until it arrives (a UPI
 * transfer the owner has not confirmed; cash the courier has not collected), 'paid', 'failed' (never arrived: not
 * received in time, or the parcel refused), 'refunded' (paid, then given back when the order was cancelled).
 */
export const PAYMENT_STATES = ["awaiting", "paid", "failed", "refunded"] as const;
export const paymentStateSchema = z.enum(PAYMENT_STATES).meta({ id: "PaymentState" });

/** The ways a shopper can pay: Cash on Delivery always (where the rules allow it), UPI when the shop set SHOP_UPI_ID. */
export const PAYMENT_METHOD_IDS = ["cod", "upi"] as const;
export const paymentMethodIdSchema = z.enum(PAYMENT_METHOD_IDS).meta({ id: "PaymentMethodId" });

/** The UPI ID format apps accept: a handle, '@', and the bank's name for it (SHOP_UPI_ID). */
export const UPI_ID_PATTERN = /^[A-Za-z0-9._-]{2,256}@[A-Za-z][A-Za-z0-9]{1,63}$/;

/** A UPI reference (UTR): the 12 digits a UPI app shows for a transfer. */
export const upiReferenceSchema = z.object({
  reference: z
    .string({ error: "Enter the 12-digit UPI reference (UTR) from your UPI app." })
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{12}$/, "Enter the 12-digit UPI reference (UTR) from your UPI app.")),
});

/** The owner turns Cash on Delivery off (or back on) for a shopper. */
export const codBlockSchema = z.object({ blocked: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]) });

// ---- What the JSON API takes.

/** GET /api/admin/orders and the admin orders page: a status that is not one shows every order, a bad page the first. */
export const adminOrdersQuerySchema = z.object({
  status: orderStatusSchema.optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});

/** An admin moves an order (the service checks that the move is allowed from where it is). */
export const setOrderStatusSchema = z.object({ status: z.enum(ORDER_STATUSES, { error: "Choose a status." }) });

// ---- What the JSON API answers (and the order pages show).

const paise = z.int().min(0).meta({ description: "In paise (1 rupee = 100 paise)" });

export const orderLineSchema = z
  .strictObject({
    productId: z.string().nullable().meta({ description: "Null once the product is no longer sold; name and price stay as ordered" }),
    variantId: z.string().nullable().meta({ description: "The size ordered; null once it is no longer sold" }),
    variantLabel: z.string().nullable().meta({ description: "The size's label as ordered; null for a plant sold in one size" }),
    sku: z.string().nullable().meta({ description: "The size's SKU as ordered; null for lines ordered before sizes existed" }),
    name: z.string(),
    unitPricePaise: paise,
    quantity: z.int().min(1),
    lineTotalPaise: paise,
  })
  .meta({ id: "OrderLine" });

/** Who placed an order (shown to admins; to a shopper it is themselves). */
export const customerSchema = z
  .strictObject({
    name: z.string(),
    email: z.string().nullable().meta({ description: "Null once the customer deleted their account; the name is then the one the order was delivered to" }),
  })
  .meta({ id: "Customer" });

export const orderSummarySchema = z
  .strictObject({
    id: z.string(),
    number: z
      .string()
      .regex(ORDER_NUMBER_PATTERN)
      .meta({ description: "What people quote: PS- and three groups of four letters or digits (PS-7K3M-Q9XD-2HWA); older orders keep PS- and eight hexadecimal digits", example: "PS-7K3M-Q9XD-2HWA" }),
    status: orderStatusSchema,
    totalPaise: paise,
    itemCount: z.int().min(0),
    createdAt: z.iso.datetime(),
    customer: customerSchema,
    paymentReference: z.string().nullable().meta({ description: "The UPI reference (UTR) the shopper gave for an order awaiting payment; null otherwise" }),
  })
  .meta({ id: "OrderSummary" });

/** A gift order's recipient, message and whether the packing slip hides the prices (docs/decisions/052). */
export const giftSchema = z
  .strictObject({
    recipientName: z.string(),
    recipientPhone: z.string(),
    message: z.string().nullable().meta({ description: "Up to 300 characters; null without one" }),
    hidePrices: z.boolean().meta({ description: "The packing slip shows no prices, totals or payment" }),
  })
  .meta({ id: "Gift" });

export const orderDetailSchema = orderSummarySchema
  .extend({
    userId: z.string().nullable().meta({ description: "Null once the customer deleted their account (the order stays for the shop's records)" }),
    lines: z.array(orderLineSchema),
    subtotalPaise: paise,
    discountPaise: paise.meta({ description: "Taken off by the discount code; totalPaise = subtotalPaise - discountPaise + shippingPaise" }),
    couponCode: z.string().nullable().meta({ description: "The discount code the order was placed with, as it was" }),
    shippingPaise: paise.meta({ description: "0 when the order shipped free" }),
    shipName: z.string(),
    shipPhone: z.string(),
    shipAddress: z.string(),
    shipPin: z.string().nullable().meta({ description: "The shipping address's PIN code; null for orders placed before the checkout asked for it" }),
    paymentMethod: z.string().meta({ description: "The method's name as the order was placed: 'Cash on Delivery' or 'UPI'" }),
    payment: z
      .strictObject({
        method: paymentMethodIdSchema,
        state: paymentStateSchema,
        reference: z.string().nullable().meta({ description: "The UPI reference (UTR) the shopper gave; null for none" }),
        payBy: z.iso.datetime().nullable().meta({ description: "Until when a UPI order awaits its payment before the shop cancels it; null otherwise" }),
      })
      .meta({ id: "Payment" }),
    gift: giftSchema.nullable().meta({ description: "Set when the order is a gift (shipped to its recipient at the shipping address); null otherwise" }),
  })
  .meta({ id: "OrderDetail" });

/** An order as one person sees it: may they cancel it themselves (its owner, while it is pending)? */
export const viewedOrderSchema = orderDetailSchema
  .extend({
    viewedByOwner: z.boolean().meta({ description: "False when an admin looks at someone else's order" }),
    canCancel: z.boolean(),
    upi: z
      .strictObject({
        link: z.string().meta({ description: "upi://pay?… with the payee, the exact amount and the order number: what a UPI app opens" }),
        qrSvg: z.string().meta({ description: "The same link as a QR code, an SVG document made by the shop" }),
      })
      .nullable()
      .meta({ description: "How to pay an order awaiting its UPI payment (shown to its owner only); null otherwise" }),
  })
  .meta({ id: "ViewedOrder" });

export const orderListSchema = z.strictObject({ items: z.array(orderSummarySchema) }).meta({ id: "OrderList" });

export const adminOrderPageSchema = z
  .strictObject({
    items: z.array(orderSummarySchema),
    page: z.int().min(1),
    status: orderStatusSchema.nullable().meta({ description: "The status listed; null for every order" }),
    total: z.int().min(0),
    pageCount: z.int().min(1),
  })
  .meta({ id: "AdminOrderPage" });

/**
 * One day's orders in the shop's time zone, as the orders module keeps them while orders are placed and cancelled:
 * those placed and not cancelled since, those cancelled, and the totals (shipping included) of the first.
 */
export const daySalesSchema = z
  .strictObject({
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description: "YYYY-MM-DD in the shop's time zone" }),
    orders: z.int().min(0),
    cancelled: z.int().min(0),
    revenuePaise: z.int().min(0),
  })
  .meta({ id: "DaySales" });

/** A shopper's record with Cash on Delivery, for the owner: parcels refused at the door, and whether COD is off for them. */
export const codStandingSchema = z
  .strictObject({
    refusedParcels: z.int().min(0),
    codBlocked: z.boolean().meta({ description: "True when the owner turned Cash on Delivery off for this shopper" }),
  })
  .meta({ id: "CodStanding" });

/** A way to pay offered at checkout, and why not when it cannot be used for this order. */
export const paymentOptionSchema = z
  .strictObject({
    id: paymentMethodIdSchema,
    label: z.string(),
    refusal: z.string().nullable().meta({ description: "Why this method cannot be used for this shopper or order; null when it can" }),
  })
  .meta({ id: "PaymentOption" });
