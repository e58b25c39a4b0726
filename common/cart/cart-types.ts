import type { ImageRef } from "../catalog/catalog-types.ts";

export interface CartLine {
  id: string;
  /** Null when the product is gone; the line stays, unavailable, until the shopper removes it. */
  productId: string | null;
  name: string;
  image: ImageRef | null;
  /** Today's price: the cart always shows current prices. */
  unitPricePaise: number;
  quantity: number;
  stock: number;
  /** False when the plant sold out, is gone, or fewer are left than the line asks for; such lines are not counted. */
  available: boolean;
  /** Why the line cannot be ordered as it stands (what checkout would answer); null when it can. */
  problem: string | null;
  lineTotalPaise: number;
}

export interface Cart {
  lines: CartLine[];
  /** Units of the available lines: 'Items (n)' in the summary and the count on the navigation's cart icon. */
  itemCount: number;
  /** Of the available lines. */
  subtotalPaise: number;
  /** The flat fee whenever there is something to order (itemCount > 0); 0 otherwise. */
  shippingPaise: number;
  totalPaise: number;
  /** Every line can be ordered as it stands: only then does checkout offer Place Order. */
  canCheckOut: boolean;
}
