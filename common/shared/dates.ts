/**
 * Every date and time the shop shows people — its pages, e-mails and admin screens — is written here, in the shop's
 * time zone (SHOP_TIME_ZONE), which the caller always passes: a page is rendered by the server and hydrated by the
 * browser, and neither's own zone is the shop's.
 *
 * The look is Indian English's, as the shop's prices are in rupees ("5 Sept 2026, 6:30 pm"), but the words come
 * from the table below, not from the runtime's locale data: Node's and each browser's copies of that data differ
 * between versions (an older one writes "05-Sept-2026"), and a page whose hydrated text differs from the server's
 * is rendered again in the browser. Only the zone arithmetic is the runtime's (its time zone database).
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"] as const;

interface LocalTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  /** 0–23 */
  hour: number;
  minute: number;
}

/** One formatter per zone, made once: building an Intl.DateTimeFormat costs far more than using one. */
const partsByZone = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsByZone.get(timeZone);
  if (!format) {
    // Numbers only, in a 24-hour clock: their digits are the same in every runtime's locale data.
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
      numberingSystem: "latn",
    });
    partsByZone.set(timeZone, format);
  }
  return format;
}

/** The wall-clock reading of `instant` in `timeZone`. */
function localTime(instant: Date | string, timeZone: string): LocalTime {
  const date = typeof instant === "string" ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${String(instant)}`);
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of partsFormat(timeZone).formatToParts(date)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    // Some engines still write midnight as 24 in a 24-hour clock.
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
  };
}

const monthName = (month: number) => MONTHS[month - 1] ?? "";
const two = (n: number) => String(n).padStart(2, "0");

/** True when the runtime knows `timeZone` (an IANA name such as Asia/Kolkata or Europe/Berlin). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    partsFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** When something happened, to the minute: "27 Nov 2026, 11:49 am" (an order placed, a message sent). */
export function formatDateTime(instant: Date | string, timeZone: string): string {
  const t = localTime(instant, timeZone);
  const hour = t.hour % 12 === 0 ? 12 : t.hour % 12;
  return `${t.day} ${monthName(t.month)} ${t.year}, ${hour}:${two(t.minute)} ${t.hour < 12 ? "am" : "pm"}`;
}

/** The day something happened: "27 Nov 2026" (a review written). */
export function formatDate(instant: Date | string, timeZone: string): string {
  const t = localTime(instant, timeZone);
  return `${t.day} ${monthName(t.month)} ${t.year}`;
}

/** The calendar day `instant` falls on in `timeZone`, as YYYY-MM-DD (comparing the strings compares the days). */
export function shopDay(instant: Date | string, timeZone: string): string {
  const t = localTime(instant, timeZone);
  return `${String(t.year).padStart(4, "0")}-${two(t.month)}-${two(t.day)}`;
}

/** "3 Nov" from "2026-11-03", a day that is already the shop's (the overview's days): no zone to apply. */
export function formatDay(day: string): string {
  const [, month, date] = day.split("-").map(Number);
  return `${date ?? ""} ${monthName(month ?? 1)}`;
}

/** A wall-clock time as a form's date-and-time field writes it: "2026-11-27T18:30". */
export const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The instant a wall-clock time ("2026-11-27T18:30", a form's date-and-time field) names in `timeZone`, as an ISO
 * string; null when it is no real time. A time skipped by a clock change is read with the offset before it.
 */
export function wallTimeToInstant(wall: string, timeZone: string): string | null {
  const match = WALL_TIME.exec(wall);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offset at that moment, found by reading the guess back in the zone (twice: near a clock change the
  // first guess can fall on the other side of it).
  let instant = asUtc;
  for (let i = 0; i < 2; i++) {
    const t = localTime(new Date(instant), timeZone);
    const seen = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute);
    instant += asUtc - seen;
  }
  return new Date(instant).toISOString();
}

/** An instant as a form's date-and-time field shows it in `timeZone`: "2026-11-27T18:30". */
export function instantToWallTime(instant: Date | string, timeZone: string): string {
  const t = localTime(instant, timeZone);
  return `${String(t.year).padStart(4, "0")}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}`;
}
