import { randomBytes } from "node:crypto";
import { ORDER_NUMBER_ALPHABET } from "#common/orders/order-types.ts";

/**
 * A new order number: PS- and twelve letters of the order-number alphabet in groups of four, 60 random bits.
 * At a million orders the odds that any two share a number are about 1 in 2.3 million; a collision is refused by
 * the unique index and drawn again (docs/decisions/036-order-numbers-and-repeated-messages.md).
 */
export function newOrderNumber(): string {
  // 32 letters divide 256 evenly, so the low five bits of each random byte pick a letter without bias.
  const letters = [...randomBytes(12)].map((byte) => ORDER_NUMBER_ALPHABET[byte & 31]!);
  return `PS-${letters.slice(0, 4).join("")}-${letters.slice(4, 8).join("")}-${letters.slice(8).join("")}`;
}

/** True when the database refused an order because its number is taken (the index orders_number_unique). */
export function isOrderNumberTaken(error: unknown): boolean {
  const { code, constraint, message } = (error ?? {}) as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === "23505") return constraint === "orders_number_unique";
  return code === "SQLITE_CONSTRAINT_UNIQUE" && typeof message === "string" && message.includes("orders.number");
}
