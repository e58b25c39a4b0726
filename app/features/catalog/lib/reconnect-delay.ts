/**
 * How long a live page waits before its next attempt to reconnect, after `failedAttempts` attempts in a row
 * have failed (0 for the first retry after a drop). The shop's schedule (docs/product.md, Product page): 1 s for
 * the first 5 attempts, 5 s up to the 15th, 10 s up to the 100th, then 60 s.
 */
export function reconnectDelayMs(failedAttempts: number): number {
  if (failedAttempts < 5) return 1_000;
  if (failedAttempts < 15) return 5_000;
  if (failedAttempts < 100) return 10_000;
  return 60_000;
}
