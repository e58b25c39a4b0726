import type { Kysely, Selectable } from "kysely";
import { deliveredBy, formatDeliveryDay, type DispatchDays } from "#common/delivery/delivery-estimate.ts";
import type { DeliveryAnswer, DeliveryZone } from "#common/delivery/delivery-schemas.ts";
import { prefixesOfPin } from "#common/delivery/pin-areas.ts";
import { formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import type { DB } from "../../platform/db/schema.ts";
import type { DeliveryZoneTable } from "./delivery-tables.ts";

const m = messages.delivery;

/** The shop's flat shipping (SHIPPING_FEE_PAISE, FREE_SHIPPING_ABOVE_PAISE): the one zone while the owner defines none. */
export type ShopShipping = { shippingFeePaise: number; freeShippingAbovePaise: number | null };

/** Days to deliver of the default zone: India Post's and couriers' usual spread across the country. */
export const DEFAULT_DAYS = { min: 3, max: 7 } as const;

/** The zone every PIN code is in while no zone is defined: today's flat fee and threshold, COD without limit. */
export function allOfIndia(shop: ShopShipping): DeliveryZone {
  return {
    id: null,
    name: m.allOfIndia,
    areas: ["100000-999999"],
    feePaise: shop.shippingFeePaise,
    freeAbovePaise: shop.freeShippingAbovePaise,
    daysMin: DEFAULT_DAYS.min,
    daysMax: DEFAULT_DAYS.max,
    codAllowed: true,
    codLimitPaise: null,
  };
}

export function toZone(row: Selectable<DeliveryZoneTable>): DeliveryZone {
  return {
    id: row.id,
    name: row.name,
    areas: row.areas.split("\n").filter(Boolean),
    feePaise: Number(row.fee_paise),
    freeAbovePaise: row.free_above_paise === null ? null : Number(row.free_above_paise),
    daysMin: row.days_min,
    daysMax: row.days_max,
    codAllowed: row.cod_allowed === true || row.cod_allowed === 1,
    codLimitPaise: row.cod_limit_paise === null ? null : Number(row.cod_limit_paise),
  };
}

/**
 * The zone a PIN code (already checked: six digits) is in: of the zones whose entries cover it, the one whose
 * covering entry covers the fewest PIN codes (a city's '560' before its state's '560000-599999'); ties go to the
 * older zone. Null when zones exist and none covers it; the default zone when the owner defined none. Two indexed
 * reads at most: the six prefixes of the code, then (only on a miss) whether any zone exists.
 */
export async function deliveryZoneFor(db: Kysely<DB>, pin: string, shop: ShopShipping): Promise<DeliveryZone | null> {
  const row = await db
    .selectFrom("delivery_zone_prefixes as p")
    .innerJoin("delivery_zones as z", "z.id", "p.zone_id")
    .selectAll("z")
    .where("p.prefix", "in", prefixesOfPin(pin))
    .orderBy("p.span")
    .orderBy("z.created_at")
    .orderBy("z.id")
    .limit(1)
    .executeTakeFirst();
  if (row) return toZone(row);
  const any = await db.selectFrom("delivery_zones").select("id").limit(1).executeTakeFirst();
  return any ? null : allOfIndia(shop);
}

/** The shop's dispatch days: every closed weekday, and the holidays from `today` on (at most a year's worth). */
export async function readDispatchDays(db: Kysely<DB>, today: string): Promise<DispatchDays> {
  const [weekdays, holidays] = await Promise.all([
    db.selectFrom("delivery_closed_weekdays").select("weekday").execute(),
    db.selectFrom("delivery_holidays").select("day").where("day", ">=", today).orderBy("day").limit(400).execute(),
  ]);
  return { closedWeekdays: weekdays.map((w) => w.weekday), holidays: holidays.map((h) => h.day) };
}

/** The words the product page and the checkout show for a PIN code's zone (or its absence). */
export function describeDelivery(pin: string, zone: DeliveryZone | null, byDay: string | null): DeliveryAnswer {
  if (!zone) return { pin, delivers: false, text: m.notDelivered(pin) };
  const when = byDay ? m.deliversBy(pin, formatDeliveryDay(byDay)) : m.noDispatchDay(pin);
  const fee = zone.feePaise === 0 ? m.freeShipping : m.shipping(formatPriceExact(zone.feePaise));
  const free = zone.feePaise > 0 && zone.freeAbovePaise !== null ? ` (${m.freeAbove(formatPriceExact(zone.freeAbovePaise))})` : "";
  const cod = !zone.codAllowed ? m.codNotAvailable : zone.codLimitPaise === null ? m.codAvailable : m.codUpTo(formatPriceExact(zone.codLimitPaise));
  return { pin, delivers: true, zone, byDay, text: `${when} · ${fee}${free} · ${cod}` };
}

/** The arrival day for a zone, counted on the shop's dispatch days from `now`. */
export function arrivalDay(zone: DeliveryZone, now: number, timeZone: string, closed: DispatchDays): string | null {
  return deliveredBy(now, timeZone, zone.daysMax, closed);
}
