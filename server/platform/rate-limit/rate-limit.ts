import { sql, type Kysely, type QueryCreator } from "kysely";
import type { Dialect } from "../db/client.ts";
import { compiledOnce } from "../db/compiled-once.ts";
import { insertValuesWhen, type SelectQuery } from "../db/insert-values-when.ts";
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
  /** PostgreSQL lets hitFirstTime count in one statement (data-modifying CTEs); elsewhere it takes two. */
  dialect?: Dialect;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Fixed-window counters kept in the database, so a limit holds across every server process. */
export function createRateLimiter(db: Kysely<DB>, { now = Date.now, scale = 1, events, pruneEvery = 1000, dialect = "sqlite" }: RateLimiterOptions = {}) {
  const limitOf = (rule: RateRule) => (rule.fixed ? rule.limit : Math.max(1, Math.ceil(rule.limit * scale)));
  let hitsSincePrune = 0;

  /** Now and then, counters whose window has ended are deleted, so the table holds only live ones. */
  async function pruneNowAndThen(at: number) {
    if (++hitsSincePrune < pruneEvery) return;
    hitsSincePrune = 0;
    await db.deleteFrom("rate_limits").where("resets_at", "<=", at).execute();
  }

  /** Counts one request atomically (one upsert). */
  async function count(rule: RateRule, subject: string, at: number) {
    await pruneNowAndThen(at);
    const row = await countOne.executeTakeFirstOrThrow(db, { key: keyOf(rule, subject), at, resetsAt: at + rule.windowMs });
    return judge(rule, subject, Number(row.hits), Number(row.resets_at));
  }

  /** What a count means: over the limit or not; logged once, when the limit is first passed in a window. */
  function judge(rule: RateRule, subject: string, hits: number, resetsAt: number) {
    if (hits === limitOf(rule) + 1) events?.warn("limit.hit", { limit: rule.name, subject, max: limitOf(rule), windowSeconds: rule.windowMs / 1000 });
    return { over: hits > limitOf(rule), resetsAt };
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

    /**
     * Counts one request against `rule` only the first time `first` is hit for `firstSubject` in its window (e.g.
     * a checkout once per idempotency key), and refuses it when that goes over. The same as
     * `if (await tryHit(first, …)) await hit(rule, …)`, in one statement on PostgreSQL (docs/decisions/009: a round trip
     * less per checkout): the second upsert runs only when the first one's count is within its limit.
     */
    async hitFirstTime(first: RateRule, firstSubject: string, rule: RateRule, subject: string): Promise<void> {
      if (dialect !== "postgres") {
        if (await this.tryHit(first, firstSubject)) await this.hit(rule, subject);
        return;
      }
      const at = now();
      await pruneNowAndThen(at);
      const row = await countFirstTime.executeTakeFirstOrThrow(db, {
        claimKey: keyOf(first, firstSubject),
        claimResetsAt: at + first.windowMs,
        claimLimit: limitOf(first),
        key: keyOf(rule, subject),
        resetsAt: at + rule.windowMs,
        at,
      });
      const firstCount = judge(first, firstSubject, Number(row.claimHits), 0);
      if (firstCount.over || row.hits === null) return;
      const { over, resetsAt } = judge(rule, subject, Number(row.hits), Number(row.resetsAt));
      if (over) throw refusal(rule, resetsAt, at);
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

/**
 * The upsert that counts one request at `at` on the counter `key` (which restarts when its window has ended, then
 * lasting until `resetsAt`); with `when`, only if that query has a row.
 */
function upsert(from: QueryCreator<DB>, key: string, at: number, resetsAt: number, when?: SelectQuery) {
  return insertValuesWhen(from.insertInto("rate_limits"), { key, hits: 1, resets_at: resetsAt }, when)
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        hits: sql`case when rate_limits.resets_at <= ${at} then 1 else rate_limits.hits + 1 end`,
        resets_at: sql`case when rate_limits.resets_at <= ${at} then ${resetsAt} else rate_limits.resets_at end`,
      }),
    )
    .returning(["hits", "resets_at"]);
}

/** One request counted (compiled once: most requests that count are a sign-in, a search or a checkout). */
const countOne = compiledOnce((db, { key, at, resetsAt }: { key: string; at: number; resetsAt: number }) => upsert(db, key, at, resetsAt));

/** hitFirstTime's statement on PostgreSQL: the claim counted, and the request counted only if the claim is within its limit. */
const countFirstTime = compiledOnce(
  (db, v: { claimKey: string; claimResetsAt: number; claimLimit: number; key: string; resetsAt: number; at: number }) =>
    db
      .with("claim", (q) => upsert(q, v.claimKey, v.at, v.claimResetsAt))
      .with("counted", (q) => upsert(q, v.key, v.at, v.resetsAt, q.selectFrom("claim").select("hits").where("hits", "<=", v.claimLimit)))
      .selectNoFrom((eb) => [
        eb.selectFrom("claim").select("hits").as("claimHits"),
        eb.selectFrom("counted").select("hits").as("hits"),
        eb.selectFrom("counted").select("resets_at").as("resetsAt"),
      ]),
);

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
