// The orders module's operator events (docs/decisions/014-abuse-limits-and-operator-logs.md), declared here, not in
// the platform's event log, so that the platform names no feature.

declare module "../../platform/event-log.ts" {
  interface EventNames {
    /** An order was placed (its id, number and total). */
    "order.placed": true;
    /** A shopper or the owner cancelled an order. */
    "order.cancelled": true;
    /** The owner moved an order along. */
    "order.status-changed": true;
    /** The shopper gave the UPI reference (UTR) of their payment for an order awaiting it. */
    "order.payment-reference": true;
    /** The shop cancelled an order whose UPI payment did not arrive in time. */
    "order.unpaid-cancelled": true;
    /** The owner turned Cash on Delivery off, or back on, for a shopper. */
    "cod.rule-changed": true;
  }
}

export {};
