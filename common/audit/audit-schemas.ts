import { z } from "zod";
import { idSchema } from "#common/shared/fields.ts";

/** The things an admin changes, as the activity page names and filters them. */
export const AUDIT_THING_KINDS = ["product", "category", "coupon", "delivery", "order", "customer", "account"] as const;
export type AuditThingKind = (typeof AUDIT_THING_KINDS)[number];

export const AUDIT_THING_LABELS: Record<AuditThingKind, string> = {
  product: "Products",
  category: "Categories",
  coupon: "Coupons",
  delivery: "Delivery",
  order: "Orders",
  customer: "Customers (Cash on Delivery)",
  account: "Admin roles",
};

const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** The activity page's and GET /api/admin/activity's filters and cursor; an empty field is no filter. */
export const activityQuerySchema = z.object({
  actor: z.preprocess(blankIsAbsent, idSchema.optional()),
  kind: z.preprocess(blankIsAbsent, z.enum(AUDIT_THING_KINDS, { error: "Choose a kind of thing from the list." }).optional()),
  thing: z.preprocess(blankIsAbsent, idSchema.optional()),
  after: z.preprocess(blankIsAbsent, z.string().regex(/^[1-9][0-9]{0,17}$/, "That page link is not valid; start again from the newest.").optional()),
});

export const activityEntrySchema = z
  .strictObject({
    id: z.string(),
    at: z.string(),
    actor: z.strictObject({ id: z.string().nullable(), name: z.string(), email: z.string().nullable() }),
    clientIp: z.string().nullable(),
    thing: z.strictObject({ kind: z.string(), id: z.string().nullable(), label: z.string() }),
    summary: z.string(),
    changes: z.record(z.string(), z.strictObject({ before: z.unknown(), after: z.unknown() })),
  })
  .meta({ id: "ActivityEntry" });

export const activityPageSchema = z.strictObject({
  items: z.array(activityEntrySchema),
  /** The cursor of the next (older) page, or null on the last one. */
  next: z.string().nullable(),
});

export type ActivityEntry = z.infer<typeof activityEntrySchema>;
export type ActivityPage = z.infer<typeof activityPageSchema>;
