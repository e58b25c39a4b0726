import { z } from "zod";
import { formCheckbox } from "../shared/fields.ts";
import { parseRupees } from "../shared/money.ts";
import { messages } from "../shared/messages.ts";
import { parsePinAreas, pinSchema, type PinArea } from "./pin-areas.ts";

// What the owner sends to make or change a zone and to set the dispatch days, what a shopper sends to check a
// PIN code, and what is answered (docs/decisions/053).

const m = messages.delivery;

/** Entries one zone may list: a state is a handful of prefixes, a city's odd streets a few hundred single codes. */
export const MAX_ZONE_AREAS = 500;
/** Zones a shop may keep: the owner's page lists them on one page. */
export const MAX_ZONES = 200;
/** Holidays kept at once (past ones included until the owner removes them). */
export const MAX_HOLIDAYS = 100;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
/** Rupees as typed ('20', '20.50') or sent as a number, as paise. */
const rupees = (message: string) =>
  z.union([z.string(), z.number()], { error: message }).transform((value, ctx) => {
    const paise = parseRupees(String(value));
    if (paise === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return paise;
  });
const days = z.preprocess(
  (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.int({ error: m.daysInvalid }).min(0, m.daysInvalid).max(60, m.daysInvalid),
);

export const zoneSchema = z
  .object({
    name: z.string({ error: m.nameRequired }).trim().min(1, m.nameRequired).max(100, m.nameRequired),
    areas: z
      .string({ error: m.areasRequired })
      .max(20_000, m.tooManyAreas(MAX_ZONE_AREAS))
      .meta({ description: "Prefixes (560), ranges (400001-400104) and single PIN codes (560001), separated by commas or new lines" })
      .transform((text, ctx): PinArea[] => {
        const parsed = parsePinAreas(text);
        if ("problems" in parsed) {
          ctx.addIssue({ code: "custom", message: parsed.problems.join(". ") });
          return z.NEVER;
        }
        if (parsed.areas.length > MAX_ZONE_AREAS) {
          ctx.addIssue({ code: "custom", message: m.tooManyAreas(MAX_ZONE_AREAS) });
          return z.NEVER;
        }
        return parsed.areas;
      }),
    fee: rupees(m.feeInvalid).meta({ description: "Shipping fee in rupees" }),
    freeAbove: z.preprocess(blankToUndefined, rupees(m.freeAboveInvalid).optional()).meta({ description: "Shipping is free from this subtotal (after any discount), in rupees; empty: never free" }),
    daysMin: days,
    daysMax: days,
    codAllowed: formCheckbox(),
    codLimit: z.preprocess(blankToUndefined, rupees(m.codLimitInvalid).optional()).meta({ description: "Cash on Delivery only up to this order total, in rupees; empty: no limit" }),
  })
  .superRefine((zone, ctx) => {
    if (zone.daysMax < zone.daysMin) ctx.addIssue({ code: "custom", path: ["daysMax"], message: m.daysBackwards });
  });

export type ZoneInput = z.output<typeof zoneSchema>;

/** The weekdays the shop does not dispatch (0 = Sunday) and its holidays (dates, commas or new lines between). */
export const dispatchDaysSchema = z.object({
  closedWeekdays: z.preprocess(
    (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.preprocess((d) => (typeof d === "string" && /^[0-6]$/.test(d) ? Number(d) : d), z.int({ error: m.weekdayInvalid }).min(0, m.weekdayInvalid).max(6, m.weekdayInvalid))).max(7, m.weekdayInvalid),
  ),
  holidays: z
    .preprocess((v) => (v === undefined || v === null ? "" : Array.isArray(v) ? v.join("\n") : v), z.string({ error: m.holidayInvalid("") }).max(5000, m.tooManyHolidays(MAX_HOLIDAYS)))
    .transform((text, ctx): string[] => {
      const entries = [...new Set(text.split(/[,\n\r]+/).map((e) => e.trim()).filter(Boolean))];
      const bad = entries.filter((e) => !isCalendarDay(e));
      if (bad.length) ctx.addIssue({ code: "custom", message: bad.map(m.holidayInvalid).join(". ") });
      else if (entries.length > MAX_HOLIDAYS) ctx.addIssue({ code: "custom", message: m.tooManyHolidays(MAX_HOLIDAYS) });
      return entries.sort();
    }),
});

/** YYYY-MM-DD naming a day that exists (not 2026-02-30). */
function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T12:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

export const checkDeliverySchema = z.object({ pin: pinSchema });

/** A zone as the owner's page and the checkout see it. */
export type DeliveryZone = {
  /** Null for the shop's default zone (no zone defined). */
  id: string | null;
  name: string;
  /** The entries as the owner wrote them, in order. */
  areas: string[];
  feePaise: number;
  freeAbovePaise: number | null;
  daysMin: number;
  daysMax: number;
  codAllowed: boolean;
  codLimitPaise: number | null;
};

/** What the check answers for a PIN code: the zone and the day it arrives by, or that the shop does not deliver there. */
export type DeliveryAnswer =
  | { pin: string; delivers: false; text: string }
  | { pin: string; delivers: true; zone: DeliveryZone; byDay: string | null; text: string };
