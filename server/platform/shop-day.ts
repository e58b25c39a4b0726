/**
 * The shop's calendar (docs/decisions/024-admin-overview.md): "today" and "the last 30 days" are days in the
 * shop's time zone (SHOP_TIME_ZONE, India's by default, as prices are in rupees), written as YYYY-MM-DD so
 * that comparing the strings compares the days.
 */
export const DEFAULT_SHOP_TIME_ZONE = "Asia/Kolkata";

const formats = new Map<string, Intl.DateTimeFormat>();

/** True when the runtime knows `timeZone` (an IANA name such as Asia/Kolkata or Europe/Berlin). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The calendar day `instant` falls on in `timeZone`, as YYYY-MM-DD. */
export function shopDay(instant: Date | string, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(timeZone, format);
  }
  return format.format(typeof instant === "string" ? new Date(instant) : instant);
}

/** The day `days` after (or, negative, before) `day`; plain calendar arithmetic, the same in every zone. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
