import { shopDay } from "../shared/dates.ts";

// When a parcel arrives (docs/decisions/053): the shop dispatches on its dispatch days only, so the estimate counts
// the zone's most days to deliver in dispatch days, from the day after today on the shop's calendar, skipping the
// weekdays the shop does not dispatch and its holidays. "By" is the day that count ends on.

/** The most days a count may walk past closed days before it gives up: a shop closed for months delivers nothing. */
const MAX_WALK = 400;

export type DispatchDays = {
  /** Weekdays the shop does not dispatch, 0 = Sunday … 6 = Saturday. */
  closedWeekdays: readonly number[];
  /** Holidays, YYYY-MM-DD in the shop's time zone. */
  holidays: readonly string[];
};

const weekdayOf = (day: string) => new Date(`${day}T12:00:00Z`).getUTCDay();
const nextDay = (day: string) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
};

/** Whether the shop dispatches on `day` (YYYY-MM-DD). */
export function isDispatchDay(day: string, closed: DispatchDays): boolean {
  return !closed.closedWeekdays.includes(weekdayOf(day)) && !closed.holidays.includes(day);
}

/**
 * The day a parcel ordered at `now` arrives by: `days` dispatch days after today (in `timeZone`). Null when the
 * shop has no dispatch day within a year (every weekday closed).
 */
export function deliveredBy(now: number, timeZone: string, days: number, closed: DispatchDays): string | null {
  let day = shopDay(new Date(now), timeZone);
  let counted = 0;
  for (let walked = 0; counted < days; walked++) {
    if (walked > MAX_WALK) return null;
    day = nextDay(day);
    if (isDispatchDay(day, closed)) counted++;
  }
  return day;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Thu, 3 Dec" from "2026-12-03". */
export function formatDeliveryDay(day: string): string {
  const [, month, date] = day.split("-").map(Number);
  return `${WEEKDAYS[weekdayOf(day)]}, ${date ?? ""} ${MONTHS[(month ?? 1) - 1]}`;
}

export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
