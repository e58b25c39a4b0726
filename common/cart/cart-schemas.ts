import { z } from "zod";
import { MAX_CART_QUANTITY } from "../shared/constants.ts";
import { messages } from "../shared/messages.ts";
import { addressSchema, idSchema, phoneSchema, requiredText } from "../shared/fields.ts";

const c = messages.cart;

/** A whole number of plants; too many gets its own message, not the spec's 'at least 1'. */
const quantity = z.coerce.number({ error: c.quantityAtLeastOne }).int(c.quantityAtLeastOne).max(MAX_CART_QUANTITY, c.quantityAtMost(MAX_CART_QUANTITY));

export const addToCartSchema = z.object({
  productId: z.string({ error: c.idsRequired }).min(1, c.idsRequired).pipe(idSchema),
  quantity: quantity.min(1, c.quantityAtLeastOne).default(1),
});

/** From the cart screen: a quantity at or below 0 removes the line (spec section 4). */
export const setQuantitySchema = z.object({
  quantity,
});

export const checkoutSchema = z.object({
  name: requiredText(messages.validation.nameRequired, 100),
  phone: phoneSchema,
  address: addressSchema,
  saveToProfile: z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean()).default(false),
  /** Made by the checkout page once per attempt; the same key never makes a second order. */
  idempotencyKey: z.string().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/),
});
