import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { afterCommit } from "../db/write-transaction.ts";

/**
 * The changes the feed carries, by type: each module adds its own by declaration merging (the catalog its
 * products and categories, accounts its profiles), so the feed knows none of them and every publisher and
 * listener is still type-checked against the module's declaration. Each entry is the fields besides `type`.
 */
export interface ChangeTypes {
  /**
   * The feed may have missed changes (on PostgreSQL: its LISTEN connection dropped and came back), or a change
   * touched too many things to name each: a listener re-reads, or forgets, everything it holds.
   */
  resync: Record<never, never>;
}

/**
 * What changed, as small as a listener needs to react: a type its module declares, and which thing of that
 * type. Listeners re-read what they show; an event never carries the new values, so a missed or merged event
 * costs a re-read, never a wrong page.
 */
export type Change = { [T in keyof ChangeTypes]: { type: T } & ChangeTypes[T] }[keyof ChangeTypes];

/**
 * Whether a value heard from another process has the one shape every change shares (an object with a string
 * `type`). Anything else (a damaged or foreign payload) is dropped; a type this version does not know, sent by
 * a newer server during a rolling upgrade, is delivered and passed over by every listener that declared none.
 */
export function isChange(value: unknown): value is Change {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

export type ChangeListener = (change: Change) => void;

/**
 * The server's one change feed (decision 019). Services publish after their transaction commits; live pages
 * and caches subscribe. On PostgreSQL every server process hears every change (LISTEN/NOTIFY); on SQLite the
 * feed is in-process, which is enough because one process owns the database.
 */
export interface ChangeFeed {
  /**
   * Announces `change` once what `db` wrote is committed: after the surrounding write transaction (never,
   * when it rolls back), or at once when `db` is the database itself.
   */
  publish(db: Kysely<DB>, change: Change): void;
  /** Calls `listener` for every change from now on, from this process and (on PostgreSQL) every other; returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void;
  /** Stops listening (server shutdown). */
  close(): Promise<void>;
}

/** The in-process feed: what SQLite needs, and what a PostgreSQL feed delivers locally before NOTIFY returns. */
export function createLocalChangeFeed(): ChangeFeed & { deliver(change: Change): void } {
  const listeners = new Set<ChangeListener>();
  const deliver = (change: Change) => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // One broken listener must not keep the change from the others.
      }
    }
  };
  return {
    deliver,
    publish(db, change) {
      afterCommit(db, () => deliver(change));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
    },
  };
}
