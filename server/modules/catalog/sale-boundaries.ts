import type { Kysely } from "kysely";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import { onClockMoved, shopClock, type ShopClock } from "../../platform/clock.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";

/** A timer is set at most this far ahead; past it, the watcher simply looks again (timers cannot wait for weeks). */
const LONGEST_WAIT_MS = 60 * 60_000;

export interface SaleBoundaries {
  /** Publishes a change for every product whose window started or ended since the last look, then waits for the next. */
  check(): Promise<void>;
  close(): void;
}

/**
 * Turns each sale window's start and end into a change of the product on the change feed, at that moment, with
 * nobody touching the catalogue (docs/decisions/047): every cache that keeps a page, a list or JSON showing a
 * price drops it as for an owner's edit, and a live product page reads itself again. Costs nothing per request:
 * one timer per process, set for the next boundary found by two probes of the partial indexes of migration 0022,
 * and set again after any change of a product's details (a new or moved window) or a move of the test clock.
 *
 * Every server process runs its own, so each drops its own caches whether or not another has published; on
 * PostgreSQL each one's change also reaches the others, which only drop the same entries again.
 */
export function watchSaleBoundaries({
  db,
  changes,
  clock = shopClock,
  onError = () => {},
}: {
  db: Kysely<DB>;
  changes: ChangeFeed;
  clock?: ShopClock;
  onError?: (error: unknown) => void;
}): SaleBoundaries {
  let lookedUpTo = clock.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  /** One look at a time: a change heard during a look asks for one more after it. */
  let running: Promise<void> | undefined;
  let again = false;

  const look = async () => {
    const from = new Date(lookedUpTo).toISOString();
    const nowMs = clock.now();
    const to = new Date(nowMs).toISOString();
    if (nowMs > lookedUpTo) {
      const [started, ended] = await Promise.all([
        db.selectFrom("products").select("id").where("sale_starts_at", ">", from).where("sale_starts_at", "<=", to).execute(),
        db.selectFrom("products").select("id").where("sale_ends_at", ">", from).where("sale_ends_at", "<=", to).execute(),
      ]);
      for (const productId of new Set([...started, ...ended].map((row) => row.id))) {
        changes.publish(db, { type: "product", productId, aspects: ["details"] });
      }
    }
    // A clock moved back (the test clock) looks again from there.
    lookedUpTo = nowMs;
    const next = await nextBoundary(db, to);
    if (closed) return;
    clearTimeout(timer);
    if (next === null) return;
    timer = setTimeout(() => void check(), Math.min(Math.max(next - clock.now(), 0), LONGEST_WAIT_MS));
    timer.unref?.();
  };

  const check = async (): Promise<void> => {
    if (closed) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await look();
        } while (again && !closed);
      } catch (error) {
        onError(error);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const unsubscribe = changes.subscribe((change) => {
    // A product's details (its price, compare-at price or window among them) or a product deleted: the next boundary may have moved.
    if (change.type === "product" && change.aspects.some((aspect) => aspect === "details" || aspect === "deleted")) void check();
  });
  const unhook = onClockMoved(() => void check());
  void check();
  return {
    check,
    close() {
      closed = true;
      clearTimeout(timer);
      unsubscribe();
      unhook();
    },
  };
}

/** The first window start or end after `after` (ISO), from the partial indexes; null when none is ahead. */
async function nextBoundary(db: Kysely<DB>, after: string): Promise<number | null> {
  const [start, end] = await Promise.all([
    db.selectFrom("products").select("sale_starts_at as at").where("sale_starts_at", ">", after).orderBy("sale_starts_at").limit(1).executeTakeFirst(),
    db.selectFrom("products").select("sale_ends_at as at").where("sale_ends_at", ">", after).orderBy("sale_ends_at").limit(1).executeTakeFirst(),
  ]);
  const times = [start?.at, end?.at].flatMap((at) => (at === undefined || at === null ? [] : [Date.parse(toIsoString(at))]));
  return times.length ? Math.min(...times) : null;
}
