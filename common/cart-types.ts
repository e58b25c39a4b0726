import type { ImageRef } from "./catalog-types.ts";

export interface CartLine {
  id: string;
  productId: string;
  name: string;
  image: ImageRef | null;
  /** Today's price: the cart always shows current prices. */
  unitPricePaise: number;
  quantity: number;
  stock: number;
  /** False when the plant sold out or fewer are left than the line asks for; such lines are not counted. */
  available: boolean;
  lineTotalPaise: number;
}

export interface Cart {
  lines: CartLine[];
  /** Units of the available lines. */
  itemCount: number;
  subtotalPaise: number;
  shippingPaise: number;
  totalPaise: number;
}
