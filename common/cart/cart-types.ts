// The cart as the service returns it and the pages and JSON API show it: inferred from the schemas that document it.
import type { z } from "zod";
import type { cartLineSchema, cartSchema } from "./cart-schemas.ts";

export type CartLine = z.infer<typeof cartLineSchema>;
export type Cart = z.infer<typeof cartSchema>;
