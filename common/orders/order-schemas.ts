import { z } from "zod";
import { ORDER_NUMBER_PATTERN } from "./order-types.ts";

/** Every status an order can have: the one list (the database's check constraint froze it in migration 0003). */
export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES).meta({ id: "OrderStatus" });

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
    paymentMethod: z.string(),
    gift: giftSchema.nullable().meta({ description: "Set when the order is a gift (shipped to its recipient at the shipping address); null otherwise" }),
  })
  .meta({ id: "OrderDetail" });

/** An order as one person sees it: may they cancel it themselves (its owner, while it is pending)? */
export const viewedOrderSchema = orderDetailSchema
  .extend({
    viewedByOwner: z.boolean().meta({ description: "False when an admin looks at someone else's order" }),
    canCancel: z.boolean(),
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
