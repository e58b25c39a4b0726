// Discount codes as the JSON API answers them and the owner's page shows them: inferred from the schemas that document them.
import type { z } from "zod";
import type { couponListSchema, couponSchema } from "./coupon-schemas.ts";

export type Coupon = z.infer<typeof couponSchema>;

/** One page of the owner's list, with the cursors of the pages around it. */
export type CouponPage = z.infer<typeof couponListSchema>;

/** A code's terms as the owner's form shows them: the fields of the creation's schema, as typed. */
export interface CouponFormValues {
  code: string;
  kind: "percent" | "amount";
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  maxUses: string;
  oncePerCustomer: boolean;
  categoryIds: string[];
}
