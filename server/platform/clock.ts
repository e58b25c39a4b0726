import { readFileSync, unwatchFile, watchFile } from "node:fs";

/**
 * The shop's clock: what "now" is for rules that change by themselves with time (a sale window's start and end).
 * It is the system's clock, moved only by the test clock below, which the server turns on solely when
 * TEST_CLOCK_ENABLED is set (a browser test proving that a page changes at a boundary with no edit of the catalogue).
 */
export interface ShopClock {
  now(): number;
}

let offsetMs = 0;
const listeners = new Set<() => void>();

export const shopClock: ShopClock = { now: () => Date.now() + offsetMs };

/** Test only: moves the shop's clock to `at` (milliseconds) and tells whoever waits on it (the sale boundaries). */
export function setTestClock(at: number): void {
  offsetMs = at - Date.now();
  for (const listener of listeners) listener();
}

/**
 * Test only: follows `file`, which holds an ISO instant, moving the shop's clock to it whenever it changes (polled
 * every 50 ms; nothing is read per request). Returns the stop.
 */
export function followTestClock(file: string, onError: (error: unknown) => void): () => void {
  const read = () => {
    try {
      const at = Date.parse(readFileSync(file, "utf8").trim());
      if (!Number.isNaN(at)) setTestClock(at);
    } catch (error) {
      // No file (never written, or removed): the system's clock again.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") setTestClock(Date.now());
      else onError(error);
    }
  };
  read();
  watchFile(file, { interval: 50, persistent: false }, read);
  return () => unwatchFile(file, read);
}

/** Called after the test clock moved: timers set for a moment of the shop's clock must be set again. */
export function onClockMoved(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
