import { z } from "zod";
import { PAYMENT_METHOD_IDS } from "../orders/order-schemas.ts";
import { GIFT_MESSAGE_MAX, MAX_CART_QUANTITY } from "../shared/constants.ts";
import { messages } from "../shared/messages.ts";
import { addressSchema, formCheckbox, formNumber, idSchema, multiLineText, PHONE_PATTERN, phoneSchema, requiredText } from "../shared/fields.ts";
import { imageRefSchema, saleNowSchema } from "../catalog/catalog-schemas.ts";
import { pinSchema } from "../delivery/pin-areas.ts";

const c = messages.cart;

/** A whole number of plants; too many gets its own message, not 'Quantity must be at least 1.'. */
const quantity = z.number({ error: c.quantityAtLeastOne }).int(c.quantityAtLeastOne).max(MAX_CART_QUANTITY, c.quantityAtMost(MAX_CART_QUANTITY));

export const addToCartSchema = z.object({
  productId: z.string({ error: c.idsRequired }).min(1, c.idsRequired).pipe(idSchema),
  /** The size chosen (docs/decisions/048); none: the product's first. */
  variantId: z.preprocess((value) => (value === "" ? undefined : value), idSchema.optional()),
  quantity: formNumber(quantity.min(1, c.quantityAtLeastOne)).default(1),
});

/** From the cart screen: a quantity at or below 0 removes the line (docs/product.md, Cart). */
export const setQuantitySchema = z.object({
  quantity: formNumber(quantity),
});

/**
 * A gift's fields, checked only when the order is a gift: a checkout without the box ticked ignores them (the
 * page sends them empty). The address is the order's shipping address, which is the recipient's.
 */
const giftFieldsSchema = z.object({
  giftName: requiredText(messages.checkout.giftNameRequired, 100),
  giftPhone: requiredText(messages.checkout.giftPhoneRequired, 30).regex(PHONE_PATTERN, messages.validation.phoneInvalid),
  giftMessage: z.preprocess(
    (v) => (v === undefined || v === null ? "" : v),
    multiLineText()
      .trim()
      .refine((value) => [...value].length <= GIFT_MESSAGE_MAX, messages.checkout.giftMessageTooLong(GIFT_MESSAGE_MAX)),
  ),
});

export const checkoutSchema = z
  .object({
    name: requiredText(messages.validation.nameRequired, 100),
    phone: phoneSchema,
    address: addressSchema,
    pin: pinSchema.meta({ description: "The shipping address's PIN code (6 digits): its delivery zone decides the shipping and whether Cash on Delivery is offered" }),
    saveToProfile: formCheckbox(),
    gift: formCheckbox().meta({ description: "The order is a gift: giftName and giftPhone are then required, and the shipping address is the recipient's" }),
    giftName: z.string().optional().meta({ description: "The recipient's name (required when gift is true; up to 100 characters)" }),
    giftPhone: z.string().optional().meta({ description: "The recipient's phone number (required when gift is true)" }),
    giftMessage: z.string().optional().meta({ description: `A message for the recipient, printed on the packing slip: up to ${GIFT_MESSAGE_MAX} characters, optional` }),
    giftHidePrices: formCheckbox().meta({ description: "The packing slip shows no prices, totals or payment (only with gift)" }),
    payment: z
      .enum(PAYMENT_METHOD_IDS, { error: messages.checkout.choosePayment })
      .default("cod")
      .meta({ description: "'cod' (Cash on Delivery, the default) or 'upi' (when the shop takes UPI): the order then awaits its payment" }),
    /** Made by the checkout page once per attempt; the same key never makes a second order. */
    idempotencyKey: z
      .string({ error: messages.checkout.attemptKeyInvalid })
      .regex(/^[A-Za-z0-9_-]{8,100}$/, messages.checkout.attemptKeyInvalid),
    /** The checkout page always sends it (docs/decisions/009); only a raw API client may leave it out. */
    cartFingerprint: z
      .string({ error: messages.checkout.cartFingerprintInvalid })
      .regex(/^[A-Za-z0-9_-]{1,100}$/, messages.checkout.cartFingerprintInvalid)
      .optional()
      .meta({
        description:
          "The `fingerprint` of the cart (GET /api/cart) whose summary the shopper was shown. If the cart's lines, quantities or prices differ from it now, nothing is ordered: 409 with code CART_CHANGED, and the shopper should look at the cart again. Left out, the cart is ordered as it stands.",
      }),
    /** The shipping the checkout page showed for the PIN code it knew (docs/decisions/053). */
    shippingPaise: z
      .preprocess((v) => (typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v === "" ? undefined : v), z.int({ error: messages.delivery.shippingInvalid }).min(0, messages.delivery.shippingInvalid).optional())
      .meta({
        description:
          "The shipping (paise) the shopper was shown. If the PIN code's zone charges otherwise, nothing is ordered: 409 with code CART_CHANGED and a message naming the shipping. Left out, the zone's shipping is charged as it stands.",
      }),
  })
  .superRefine((details, ctx) => {
    // Each gift field's problem at its own field, as the other fields' are; checked only for a gift.
    if (!details.gift) return;
    const checked = giftFieldsSchema.safeParse(details);
    if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });

/** The gift of a checked checkout's details, as the order stores it; null when the order is no gift. */
export function giftOf(details: z.output<typeof checkoutSchema>): { recipientName: string; recipientPhone: string; message: string | null; hidePrices: boolean } | null {
  if (!details.gift) return null;
  const gift = giftFieldsSchema.parse(details);
  return { recipientName: gift.giftName, recipientPhone: gift.giftPhone, message: gift.giftMessage || null, hidePrices: details.giftHidePrices };
}

// ---- What the JSON API answers (and the cart and checkout pages show).

export const cartLineSchema = z
  .strictObject({
    id: z.string(),
    productId: z.string().nullable().meta({ description: "Null when the product (or its size) is gone; the line stays, unavailable, until the shopper removes it" }),
    variantId: z.string().nullable().meta({ description: "The size the line holds; null when it is gone" }),
    variantLabel: z.string().nullable().meta({ description: "The size's label ('Large · 8\" pot'); null for a plant sold in one size" }),
    name: z.string(),
    image: imageRefSchema.nullable(),
    unitPricePaise: z.int().min(0).meta({ description: "Today's price: the cart always shows current prices" }),
    sale: saleNowSchema.nullable().meta({ description: "Set while the plant is on sale: its regular price and the saving" }),
    quantity: z.int().min(1),
    stock: z.int().min(0),
    available: z.boolean().meta({ description: "False when the plant sold out, is gone, or fewer are left than the line asks for; such lines are not counted" }),
    problem: z.string().nullable().meta({ description: "Why the line cannot be ordered as it stands (what checkout would answer); null when it can" }),
    lineTotalPaise: z.int().min(0),
  })
  .meta({ id: "CartLine" });

export const cartSchema = z
  .strictObject({
    lines: z.array(cartLineSchema),
    itemCount: z.int().min(0).meta({ description: "Units of the available lines: 'Items (n)' in the summary and the count on the cart icon" }),
    subtotalPaise: z.int().min(0).meta({ description: "Of the available lines" }),
    shippingPaise: z.int().min(0).meta({ description: "The flat fee whenever there is something to order (itemCount > 0); 0 otherwise" }),
    totalPaise: z.int().min(0),
    coupon: z
      .strictObject({
        code: z.string(),
        problem: z.string().nullable().meta({ description: "Why the code gives no discount now (the checkout refuses the order until it is removed); null when it applies" }),
      })
      .nullable()
      .meta({ description: "The discount code applied to the cart (accounts only), or null" }),
    discountPaise: z.int().min(0).meta({ description: "Taken off the subtotal by the applied code; total = subtotal - discount + shipping" }),
    freeShippingMorePaise: z.int().min(1).nullable().meta({ description: "How much more (after the discount) ships free; null when it ships free already or the shop has no threshold" }),
    canCheckOut: z.boolean().meta({ description: "Every line can be ordered as it stands: only then does checkout offer Place Order" }),
    fingerprint: z.string().meta({
      description: "A digest of the lines, their quantities and prices, and the discount: send it as cartFingerprint with the order, which is then refused (409, CART_CHANGED) if the cart has changed since",
    }),
  })
  .meta({ id: "Cart" });
