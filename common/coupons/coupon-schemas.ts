import { z } from "zod";
import { formCheckbox, idSchema } from "../shared/fields.ts";
import { parseRupees } from "../shared/money.ts";
import { couponMessages as m } from "./coupon-messages.ts";

// Discount codes: what the owner sends to make one, what a shopper sends to apply one, and what the API answers.

/** Codes are compared upper-cased (stored so), so 'summer10' and 'SUMMER10' are one code. */
export const couponCodeSchema = z
  .string({ error: m.codeRequired })
  .trim()
  .min(1, m.codeRequired)
  .max(32, m.codeInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, m.codeInvalid)
  .transform((code) => code.toUpperCase());

/** Empty form fields are 'not given'. */
const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
/** Rupees as a person types them ('500', '99.50') or JSON sends them (500), as paise. */
const rupees = (message: string) =>
  z.preprocess(blankToUndefined, z.union([z.string(), z.number()], { error: message }).transform((value, ctx) => {
    const paise = parseRupees(String(value));
    if (paise === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return paise;
  }).optional());
/** A wall-clock date and time in the shop's time zone, as a datetime-local field sends it; the service places it. */
const localDateTime = z.preprocess(
  blankToUndefined,
  z.string({ error: m.dateInvalid }).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, m.dateInvalid).optional(),
);

export const createCouponSchema = z
  .object({
    code: couponCodeSchema.pipe(z.string().min(3, m.codeInvalid)),
    kind: z.enum(["percent", "amount"], { error: m.kindInvalid }),
    /** A whole percentage (1–100) for 'percent'; rupees for 'amount'. */
    value: z.union([z.string(), z.number()], { error: m.amountInvalid }),
    minSubtotal: rupees(m.minimumInvalid),
    startsAt: localDateTime.meta({ description: "YYYY-MM-DDTHH:mm in the shop's time zone; empty for 'from now'" }),
    endsAt: localDateTime.meta({ description: "YYYY-MM-DDTHH:mm in the shop's time zone; empty for 'never ends'" }),
    maxUses: z.preprocess(
      (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : blankToUndefined(v)),
      z.int({ error: m.maxUsesInvalid }).min(1, m.maxUsesInvalid).max(1_000_000_000, m.maxUsesInvalid).optional(),
    ),
    oncePerCustomer: formCheckbox(),
    categoryIds: z.preprocess((v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(idSchema, { error: m.categoryUnknown }).max(100)),
  })
  .transform((input, ctx) => {
    const { value, ...rest } = input;
    let amount: number | null;
    if (input.kind === "percent") {
      const percent = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
      amount = Number.isInteger(percent) && percent >= 1 && percent <= 100 ? percent : null;
      if (amount === null) ctx.addIssue({ code: "custom", path: ["value"], message: m.percentInvalid });
    } else {
      amount = parseRupees(String(value));
      if (!amount) ctx.addIssue({ code: "custom", path: ["value"], message: m.amountInvalid });
    }
    if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) ctx.addIssue({ code: "custom", path: ["endsAt"], message: m.endsBeforeStart });
    return { ...rest, amount: amount ?? 0, categoryIds: [...new Set(input.categoryIds)] };
  });

/**
 * A code's new terms: the creation's schema and messages. Through the API, fields left out keep their stored value
 * (the service fills them in before parsing); the page's form sends every field.
 */
export const updateCouponSchema = createCouponSchema;

/** A page of the owner's list, newest first: `after` (older) or `before` (newer), the cursors a page answered. */
const listCursor = z.preprocess(blankToUndefined, z.string({ error: m.cursorInvalid }).max(200, m.cursorInvalid).regex(/^[A-Za-z0-9_-]+$/, m.cursorInvalid).optional());
export const couponListQuerySchema = z.object({ after: listCursor, before: listCursor });

export const applyCouponSchema = z.object({ code: couponCodeSchema });

export const setCouponPausedSchema = z.object({ paused: z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "Send paused: true or false." })) });

// ---- What the JSON API answers.

export const couponSchema = z
  .strictObject({
    id: z.string(),
    code: z.string(),
    kind: z.enum(["percent", "amount"]),
    amount: z.int().min(1).meta({ description: "The percentage for 'percent'; paise for 'amount'" }),
    minSubtotalPaise: z.int().nullable(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    maxUses: z.int().nullable(),
    oncePerCustomer: z.boolean(),
    paused: z.boolean(),
    usedCount: z.int().min(0).meta({ description: "Orders carrying the code, cancelled ones not counted" }),
    categories: z.array(z.strictObject({ id: z.string(), name: z.string() })).meta({ description: "Empty: the whole cart; else only lines of these categories" }),
  })
  .meta({ id: "Coupon" });

export const couponListSchema = z.strictObject({
  coupons: z.array(couponSchema).meta({ description: "One page, newest first" }),
  nextCursor: z.string().nullable().meta({ description: "Pass as `after` for the next (older) page; null on the last page" }),
  previousCursor: z.string().nullable().meta({ description: "Pass as `before` for the previous (newer) page; null on the first page" }),
});
