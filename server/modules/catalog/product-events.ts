import type { ChangeFeed, ProductAspect } from "../../platform/change-feed/change-feed.ts";

/** One open live page's connection, as the hub sees it: what to tell it, and how to end it. */
export interface ProductWatcher {
  /** The product changed in these ways ("resync": anything may have; re-read everything). */
  changed(aspects: readonly (ProductAspect | "resync")[]): void;
  /** Something to send so that proxies and the browser keep an idle connection open. */
  heartbeat(): void;
  /** The server is shutting down: end the connection now. */
  end(): void;
}

export interface ProductEventsOptions {
  /** How often every idle connection gets a comment; proxies commonly drop connections silent for 30–60 s. */
  heartbeatMs?: number;
}

export type ProductEvents = ReturnType<typeof createProductEvents>;

/**
 * Fans the change feed out to the live product pages open on this process (decision 019): one feed subscription
 * and one heartbeat timer for the whole process, whatever the number of connections, and a map from product id
 * to its watchers, so a change costs work in proportion to that product's watchers only.
 */
export function createProductEvents(changes: ChangeFeed, { heartbeatMs = 25_000 }: ProductEventsOptions = {}) {
  const watchers = new Map<string, Set<ProductWatcher>>();
  let count = 0;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;

  const tell = (watcher: ProductWatcher, aspects: readonly (ProductAspect | "resync")[]) => {
    try {
      watcher.changed(aspects);
    } catch {
      // A connection that broke while being written to is cleaned up by its own close; the others still hear.
    }
  };

  function start() {
    unsubscribe = changes.subscribe((change) => {
      if (change.type === "product") {
        for (const watcher of watchers.get(change.productId) ?? []) tell(watcher, change.aspects);
      } else if (change.type === "resync") {
        for (const set of watchers.values()) for (const watcher of set) tell(watcher, ["resync"]);
      }
    });
    heartbeat = setInterval(() => {
      for (const set of watchers.values()) for (const watcher of set) watcher.heartbeat();
    }, heartbeatMs);
    heartbeat.unref();
  }

  function stop() {
    unsubscribe?.();
    unsubscribe = undefined;
    clearInterval(heartbeat);
    heartbeat = undefined;
  }

  /**
   * Starts telling `watcher` about `productId`'s changes; answers the function that stops it. After close()
   * the watcher is ended at once (a request that arrived during shutdown) and false is answered.
   */
  function watch(productId: string, watcher: ProductWatcher): (() => void) | false {
    if (closed) {
      watcher.end();
      return false;
    }
    if (!unsubscribe) start();
    let set = watchers.get(productId);
    if (!set) watchers.set(productId, (set = new Set()));
    set.add(watcher);
    count++;
    return () => {
      const current = watchers.get(productId);
      if (!current?.delete(watcher)) return;
      count--;
      if (!current.size) watchers.delete(productId);
      // Nobody is watching: no timer and no subscription left behind (tests, idle servers).
      if (!count) stop();
    };
  }

  return {
    /**
     * Starts hearing `productId`'s changes now and holds them until `deliverTo` names the watcher: for a route that
     * must subscribe before it reads the product's version (so that a change committed after the read is never
     * missed) but can only write once its response has begun. What is held stays small: the aspects heard, merged,
     * and whether the hub ended the connection; heartbeats before delivery are dropped, the stream is not open yet.
     */
    listen(productId: string) {
      let target: ProductWatcher | undefined;
      const heldAspects = new Set<ProductAspect | "resync">();
      let ended = false;
      const unwatch = watch(productId, {
        changed: (aspects) => {
          if (target) target.changed(aspects);
          else for (const aspect of aspects) heldAspects.add(aspect);
        },
        heartbeat: () => target?.heartbeat(),
        end: () => {
          if (target) target.end();
          else ended = true;
        },
      });
      return {
        /** True when the hub has ended this connection already (the server is shutting down). */
        get ended() {
          return ended;
        },
        /** From now on `watcher` hears the changes; what was held is told to it first, merged into one change. */
        deliverTo(watcher: ProductWatcher) {
          target = watcher;
          if (heldAspects.size) tell(watcher, [...heldAspects]);
          heldAspects.clear();
          if (ended) watcher.end();
        },
        /** Stops hearing (the client went, or the route answered without a stream). */
        stop() {
          if (unwatch) unwatch();
        },
      };
    },
    /** How many connections are open (the benchmark and tests read it). */
    get size() {
      return count;
    },
    /** Ends every connection and refuses new ones (server shutdown: they must not hold it up). */
    close() {
      closed = true;
      const all = [...watchers.values()].flatMap((set) => [...set]);
      watchers.clear();
      count = 0;
      stop();
      for (const watcher of all) watcher.end();
    },
  };
}
