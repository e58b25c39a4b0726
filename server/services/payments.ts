/**
 * How an order is paid. Cash on Delivery is the only method for now (decisions.md); a card provider would
 * implement the same interface, authorising the amount before the order is stored.
 */
export interface PaymentMethod {
  id: string;
  label: string;
  authorize(order: { id: string; totalPaise: number }): Promise<void>;
}

export const cashOnDelivery: PaymentMethod = {
  id: "cod",
  label: "Cash on Delivery",
  // Paid to the courier: nothing to authorise now.
  authorize: async () => undefined,
};
