import { describe, expect, it } from "vitest";
import { isServerInstant } from "./timestamps.ts";

describe("isServerInstant", () => {
  it("takes an instant as toISOString writes it, from year 0001 to 9999", () => {
    for (const text of ["2026-11-25T02:36:27.123Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", new Date().toISOString()]) {
      expect(isServerInstant(text), text).toBe(true);
    }
  });

  it("refuses what JavaScript reads but PostgreSQL does not, or reads otherwise", () => {
    for (const text of [
      "2030-02-30T00:00:00.000Z",
      "0000-01-01T00:00:00.000Z",
      "-000001-01-01T00:00:00.000Z",
      "+010000-01-01T00:00:00.000Z",
      "1",
      "hello 5",
      "2030-02-03",
      "2030-02-03T00:00:00Z",
      "2030-02-03T00:00:00.000+05:30",
      "2030-02-03T24:00:00.000Z",
    ]) {
      expect(isServerInstant(text), text).toBe(false);
    }
  });
});
