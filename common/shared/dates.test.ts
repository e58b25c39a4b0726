import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDay, isKnownTimeZone, shopDay } from "./dates.ts";

describe("the shop's dates", () => {
  it("shows one instant as two different local times in two zones (06:19 UTC: 11:49 am in Kolkata, 1:19 am in New York)", () => {
    const instant = "2026-11-27T06:19:00.000Z";
    expect(formatDateTime(instant, "Asia/Kolkata")).toBe("27 Nov 2026, 11:49 am");
    expect(formatDateTime(instant, "America/New_York")).toBe("27 Nov 2026, 1:19 am");
  });

  it("moves the date with the zone: an evening in New York is the next morning in Kolkata", () => {
    const instant = "2026-11-26T23:30:00.000Z";
    expect([formatDate(instant, "America/New_York"), shopDay(instant, "America/New_York")]).toEqual(["26 Nov 2026", "2026-11-26"]);
    expect([formatDate(instant, "Asia/Kolkata"), shopDay(instant, "Asia/Kolkata")]).toEqual(["27 Nov 2026", "2026-11-27"]);
  });

  it("follows daylight saving time where the zone has it (Berlin: +1 in winter, +2 in summer)", () => {
    expect(formatDateTime("2026-01-15T12:00:00.000Z", "Europe/Berlin")).toBe("15 Jan 2026, 1:00 pm");
    expect(formatDateTime("2026-07-15T12:00:00.000Z", "Europe/Berlin")).toBe("15 Jul 2026, 2:00 pm");
  });

  it("writes midnight and noon as 12 am and 12 pm, and the minutes with two digits", () => {
    expect(formatDateTime("2026-03-01T00:05:00.000Z", "UTC")).toBe("1 Mar 2026, 12:05 am");
    expect(formatDateTime("2026-03-01T12:00:00.000Z", "UTC")).toBe("1 Mar 2026, 12:00 pm");
    expect(formatDateTime("2026-03-01T23:59:00.000Z", "UTC")).toBe("1 Mar 2026, 11:59 pm");
  });

  it("writes what the runtime's Indian English medium date and short time write, for every month and every hour", () => {
    const intlDateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" });
    const intlDate = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeZone: "America/New_York" });
    for (let month = 0; month < 12; month++) {
      for (let hour = 0; hour < 24; hour++) {
        const instant = new Date(Date.UTC(2026, month, 9, hour, 7));
        expect(formatDateTime(instant, "America/New_York"), instant.toISOString()).toBe(intlDateTime.format(instant));
        expect(formatDate(instant, "America/New_York"), instant.toISOString()).toBe(intlDate.format(instant));
      }
    }
  });

  it("writes a day of the shop's calendar as day and month, with no zone applied", () => {
    expect(["2026-11-03", "2026-09-30", "2027-01-01"].map(formatDay)).toEqual(["3 Nov", "30 Sept", "1 Jan"]);
  });

  it("knows the IANA zones and refuses a name that is none", () => {
    expect(["Asia/Kolkata", "America/New_York", "UTC"].map(isKnownTimeZone)).toEqual([true, true, true]);
    expect(["Mars/Olympus_Mons", "", "+05:30x"].map(isKnownTimeZone)).toEqual([false, false, false]);
  });

  it("refuses a text that is no instant rather than printing NaN", () => {
    expect(() => formatDateTime("yesterday", "UTC")).toThrow(RangeError);
  });
});
