import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureLogs } from "../../tests/support/log-capture.ts";
import { closeWithin } from "./shutdown.ts";

// The clock is the test's: a close that never settles is abandoned when the test moves time past its deadline.
beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<void>(() => {});

describe("closeWithin", () => {
  it("abandons a close that never settles at its deadline, still closes what comes after it, and names what it abandoned", async () => {
    const logs = captureLogs();
    const order: string[] = [];
    const done = closeWithin(
      [
        { name: "mail", close: async () => void order.push("mail"), by: 700 },
        { name: "change feed", close: () => (order.push("change feed"), never()), by: 1000 },
        { name: "database", close: async () => void order.push("database"), by: 1000 },
      ],
      logs.logger,
    );
    let settled = false;
    void done.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    expect(order).toEqual(["mail", "change feed"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toEqual(["change feed"]);
    expect(order).toEqual(["mail", "change feed", "database"]);
    expect(logs.lines.map(({ level, msg, abandoned }) => ({ level, msg, abandoned }))).toEqual([
      { level: 40, msg: "shutdown budget spent: abandoned change feed", abandoned: ["change feed"] },
    ]);
  });

  it("waits for nothing once the deadline has passed: a hanging close is abandoned without holding up the rest", async () => {
    const logs = captureLogs();
    vi.setSystemTime(5000);
    const done = closeWithin(
      [
        { name: "database", close: never, by: 4000 },
        { name: "lock", close: async () => {}, by: 4000 },
      ],
      logs.logger,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(await done).toEqual(["database"]);
  });

  it("counts a close that fails as done, logging the failure, and abandons nothing", async () => {
    const logs = captureLogs();
    const done = closeWithin([{ name: "database", close: () => Promise.reject(new Error("already closed")), by: 1000 }], logs.logger);
    expect(await done).toEqual([]);
    expect(logs.lines.map(({ level, msg, closing }) => ({ level, msg, closing }))).toEqual([{ level: 50, msg: "shutdown: could not close", closing: "database" }]);
  });
});
