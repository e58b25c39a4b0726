// The rate limiter's table as Kysely sees it (created by ./migrations), part of the database's type in ../db/schema.ts.
export interface RateLimitTable {
  key: string;
  hits: number;
  /** Milliseconds since the epoch when the current window ends. */
  resets_at: number;
}
