import { describe, expect, it } from "vitest";
import { reconnectDelayMs } from "./reconnect-delay.ts";

describe("the live page's reconnect delay", () => {
  it("waits 1 s for the first 5 attempts, 5 s up to the 15th, 10 s up to the 100th, then 60 s", () => {
    const schedule = Array.from({ length: 120 }, (_, attempt) => reconnectDelayMs(attempt));
    expect(schedule.slice(0, 5)).toEqual(Array(5).fill(1_000));
    expect(schedule.slice(5, 15)).toEqual(Array(10).fill(5_000));
    expect(schedule.slice(15, 100)).toEqual(Array(85).fill(10_000));
    expect(schedule.slice(100)).toEqual(Array(20).fill(60_000));
    expect(reconnectDelayMs(1_000_000)).toBe(60_000);
  });
});
