/** What a payment method holds for an order until the order is stored (or let go when it is not). */
export interface PaymentHold {
  orderId: string;
  /** The provider's id for the hold; null when nothing is held (Cash on Delivery). */
  reference: string | null;
}

/**
 * How an order is paid. Cash on Delivery is the only method for now (docs/product.md, Checkout); a card provider would
 * implement the same interface. Both calls are made outside the order's database transaction
 * (docs/decisions/009): a provider is a network call and must never run under the write lock.
 */
export interface PaymentMethod {
  id: string;
  label: string;
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

export const cashOnDelivery: PaymentMethod = {
  id: "cod",
  label: "Cash on Delivery",
  holdsNothing: true,
  // Paid to the courier: nothing to hold now, nothing to let go.
  authorize: async (order) => ({ orderId: order.id, reference: null }),
  release: async () => undefined,
};
