import type { Kysely } from "kysely";
import type { DB } from "../db/schema.ts";
import { afterCommit } from "../db/write-transaction.ts";

/**
 * What changed, as small as a listener needs to react: which product (or category) and which aspects of it.
 * Listeners re-read what they show; an event never carries the new values, so a missed or merged event
 * costs a re-read, never a wrong page.
 */
export type Change =
  | { type: "product"; productId: string; aspects: readonly ProductAspect[] }
  | { type: "category"; categoryId: string }
  /** What a person's public profile shows (name, username, location, picture) changed. */
  | { type: "profile"; userId: string }
  /**
   * The feed may have missed changes (on PostgreSQL: its LISTEN connection dropped and came back), or a change
   * touched too many products to name each (a reviewer of many products renamed): a listener re-reads, or
   * forgets, everything it holds.
   */
  | { type: "resync" };

/** stock: an order placed or cancelled, an admin edit; deleted: gone from the shop. */
export type ProductAspect = "stock" | "details" | "images" | "reviews" | "deleted";

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
