import { formatPriceExact } from "../shared/money.ts";
import { messages } from "../shared/messages.ts";
import type { DeliveryZone } from "./delivery-schemas.ts";

/**
 * Why Cash on Delivery is refused for an order of `totalPaise` to `pin` in `zone`, or null when it is allowed
 * (docs/decisions/053). One pure rule for the checkout's server and its page; kept apart from the checkout so that
 * another payment method can be offered where this one is refused.
 */
export function codRefusal(zone: Pick<DeliveryZone, "codAllowed" | "codLimitPaise">, totalPaise: number, pin: string): string | null {
  if (!zone.codAllowed) return messages.delivery.codRefusedHere(pin);
  if (zone.codLimitPaise !== null && totalPaise > zone.codLimitPaise) return messages.delivery.codOverLimit(formatPriceExact(zone.codLimitPaise));
  return null;
}
