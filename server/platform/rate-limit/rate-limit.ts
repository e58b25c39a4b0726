import { sql, type Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { TooManyRequestsError } from "../errors.ts";
import type { EventLog } from "../event-log.ts";

export interface RateRule {
  /** What is limited, e.g. "contact". */
  name: string;
  limit: number;
  windowMs: number;
  /** What went over, e.g. "Too many searches." The refusal adds when to try again. */
  message: string;
  /** Not multiplied by RATE_LIMIT_SCALE: a limit that is a rule, not a rate (e.g. one use of a key). */
  fixed?: boolean;
}

export interface RateLimiterOptions {
  now?: () => number;
  /**
   * Multiplies every rule's limit (RATE_LIMIT_SCALE): 1 in production; the browser tests' server runs with a
   * large one so a long suite never trips a limit by accident, while each limit's own test runs at 1.
   */
  scale?: number;
  /** Where a refusal is logged as a `limit.hit` event. */
  events?: EventLog;
  /** Every how many hits the counters whose window has ended are deleted. */
  pruneEvery?: number;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Fixed-window counters kept in the database, so a limit holds across every server process. */
export function createRateLimiter(db: Kysely<DB>, { now = Date.now, scale = 1, events, pruneEvery = 1000 }: RateLimiterOptions = {}) {
  const limitOf = (rule: RateRule) => (rule.fixed ? rule.limit : Math.max(1, Math.ceil(rule.limit * scale)));
  let hitsSincePrune = 0;

  /** Now and then, counters whose window has ended are deleted, so the table holds only live ones. */
  async function pruneNowAndThen(at: number) {
    if (++hitsSincePrune < pruneEvery) return;
    hitsSincePrune = 0;
    await db.deleteFrom("rate_limits").where("resets_at", "<=", at).execute();
  }

  /** Counts one request atomically (one upsert; the counter restarts when its window has ended). */
  async function count(rule: RateRule, subject: string, at: number) {
    const resetsAt = at + rule.windowMs;
    await pruneNowAndThen(at);
    const row = await db
      .insertInto("rate_limits")
      .values({ key: keyOf(rule, subject), hits: 1, resets_at: resetsAt })
      .onConflict((oc) =>
        oc.column("key").doUpdateSet({
          hits: sql`case when rate_limits.resets_at <= ${at} then 1 else rate_limits.hits + 1 end`,
          resets_at: sql`case when rate_limits.resets_at <= ${at} then ${resetsAt} else rate_limits.resets_at end`,
        }),
      )
      .returning(["hits", "resets_at"])
      .executeTakeFirstOrThrow();
    const hits = Number(row.hits);
    const over = hits > limitOf(rule);
    // Logged once, when the limit is first reached in a window, not for every refused request after it.
    if (hits === limitOf(rule) + 1) events?.warn("limit.hit", { limit: rule.name, subject, max: limitOf(rule), windowSeconds: rule.windowMs / 1000 });
    return { over, resetsAt: Number(row.resets_at) };
  }

  return {
    /** Counts one request and refuses it when it goes over the limit. */
    async hit(rule: RateRule, subject: string): Promise<void> {
      const at = now();
      const { over, resetsAt } = await count(rule, subject, at);
      if (over) throw refusal(rule, resetsAt, at);
    },

    /** Counts one request; false when it goes over the limit (for work to skip quietly, e.g. a courtesy e-mail). */
    async tryHit(rule: RateRule, subject: string): Promise<boolean> {
      return !(await count(rule, subject, now())).over;
    },

    /** Takes one counted request back (a sign-in that proved the password right is no failure). */
    async undo(rule: RateRule, subject: string): Promise<void> {
      await db
        .updateTable("rate_limits")
        .set({ hits: sql`hits - 1` })
        .where("key", "=", keyOf(rule, subject))
        .where("hits", ">", 0)
        .where("resets_at", ">", now())
        .execute();
    },
  };
}

const keyOf = (rule: RateRule, subject: string) => `${rule.name}:${subject}`;

function refusal(rule: RateRule, resetsAt: number, at: number): TooManyRequestsError {
  const seconds = Math.max(1, Math.ceil((resetsAt - at) / 1000));
  return new TooManyRequestsError(`${rule.message} ${tryAgainIn(seconds)}`, seconds);
}

/** "Please try again in 3 minutes." (whole minutes, rounded up; hours from two hours on). */
export function tryAgainIn(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes >= 120) return `Please try again in ${Math.ceil(minutes / 60)} hours.`;
  return `Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
