import { describe, expect, it } from "vitest";
import { instantToWallTime, wallTimeToInstant } from "./dates.ts";

describe("wall-clock times of a form's date-and-time field", () => {
  it("reads a time typed in the shop's zone as the instant it names there, and writes it back as typed", () => {
    expect(wallTimeToInstant("2026-12-01T09:00", "Asia/Kolkata")).toBe("2026-12-01T03:30:00.000Z");
    expect(instantToWallTime("2026-12-01T03:30:00.000Z", "Asia/Kolkata")).toBe("2026-12-01T09:00");
  });

  it("follows a zone's clock change: summer and winter times in Berlin differ by an hour in UTC", () => {
    expect(wallTimeToInstant("2026-07-01T12:00", "Europe/Berlin")).toBe("2026-07-01T10:00:00.000Z");
    expect(wallTimeToInstant("2026-12-01T12:00", "Europe/Berlin")).toBe("2026-12-01T11:00:00.000Z");
  });

  it("refuses what is no time: a day past the month's end, an hour past 23, another format", () => {
    for (const wall of ["2026-02-30T09:00", "2026-12-01T24:00", "2026-12-01 09:00", "tomorrow"]) expect(wallTimeToInstant(wall, "Asia/Kolkata")).toBeNull();
  });
});
