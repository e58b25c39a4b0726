import { sql, type Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { TooManyRequestsError } from "./errors.ts";

export interface RateRule {
  /** What is limited, e.g. "contact". */
  name: string;
  limit: number;
  windowMs: number;
  message: string;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Fixed-window counters kept in the database, so a limit holds across every server process.
 * One upsert per hit: the counter restarts when its window has ended.
 */
export function createRateLimiter(db: Kysely<DB>, now: () => number = Date.now) {
  return {
    /** Refuses when the limit is already used up, without counting this request (e.g. before a sign-in). */
    async check(rule: RateRule, subject: string): Promise<void> {
      const at = now();
      const row = await db
        .selectFrom("rate_limits")
        .select(["hits", "resets_at"])
        .where("key", "=", `${rule.name}:${subject}`)
        .executeTakeFirst();
      if (row && Number(row.resets_at) > at && row.hits >= rule.limit) throw refusal(rule, Number(row.resets_at), at);
    },

    /** Counts one request and refuses it when it goes over the limit. */
    async hit(rule: RateRule, subject: string): Promise<void> {
      const at = now();
      const resetsAt = at + rule.windowMs;
      const row = await db
        .insertInto("rate_limits")
        .values({ key: `${rule.name}:${subject}`, hits: 1, resets_at: resetsAt })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            hits: sql`case when rate_limits.resets_at <= ${at} then 1 else rate_limits.hits + 1 end`,
            resets_at: sql`case when rate_limits.resets_at <= ${at} then ${resetsAt} else rate_limits.resets_at end`,
          }),
        )
        .returning(["hits", "resets_at"])
        .executeTakeFirstOrThrow();
      if (row.hits > rule.limit) throw refusal(rule, Number(row.resets_at), at);
    },
  };
}

function refusal(rule: RateRule, resetsAt: number, at: number): TooManyRequestsError {
  return new TooManyRequestsError(rule.message, Math.max(1, Math.ceil((resetsAt - at) / 1000)));
}
