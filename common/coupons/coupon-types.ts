// Discount codes as the JSON API answers them and the owner's page shows them: inferred from the schemas that document them.
import type { z } from "zod";
import type { couponSchema } from "./coupon-schemas.ts";

export type Coupon = z.infer<typeof couponSchema>;
