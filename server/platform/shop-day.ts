/**
 * The shop's calendar (docs/decisions/024-admin-overview.md): "today" and "the last 30 days" are days in the
 * shop's time zone (SHOP_TIME_ZONE, India's by default, as prices are in rupees), written as YYYY-MM-DD so
 * that comparing the strings compares the days. The zone arithmetic is the one every shown date uses.
 */
export { isKnownTimeZone, shopDay } from "#common/shared/dates.ts";

export const DEFAULT_SHOP_TIME_ZONE = "Asia/Kolkata";

/** The day `days` after (or, negative, before) `day`; plain calendar arithmetic, the same in every zone. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
