import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { ProductAspect } from "./changes.ts";

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
  /** Streams one client (an address, or a signed-in account) may hold open at once; more are refused. */
  perClient?: number;
  /** Streams the whole process holds open at once; more are refused. */
  total?: number;
  /**
   * Called once `reclaimAfterClosed` streams have closed since it was last called, `reclaimDelayMs` after the one
   * that reached it (a burst of closes is over by then): the server asks V8 for a full collection, so that the
   * memory of a flood of streams comes back although no further traffic comes to make V8 collect (decision 033).
   */
  reclaim?: () => void;
  reclaimAfterClosed?: number;
  reclaimDelayMs?: number;
}

/** Why a stream was not opened: its client holds its share already, or the process holds all it may. */
export type LiveStreamRefusal = { refused: "client" | "server" };

/**
 * The most streams a process with `openFiles` file descriptors may hold: half of them. Each stream is one socket;
 * the other half stays for what the shop must keep serving while its streams are full: ordinary requests and the
 * idle keep-alive connections of browsers (one descriptor each, not capped elsewhere), the database (the
 * PostgreSQL pool and change-feed connection, or SQLite's file, journal and shared memory), pictures and uploads
 * being read or written, log output and Node's own descriptors. A fixed reserve would be too small for a large
 * limit (thousands of browsers between pages) or bigger than a small one; half keeps /healthz and the pages
 * answering at any limit. `ceiling` (LIVE_STREAMS_MAX) bounds it further, for memory: a limit of a million is
 * common in containers, and streams cost memory as well as descriptors.
 */
export function liveStreamsAllowed(openFiles: number, ceiling: number): number {
  return Math.max(1, Math.min(ceiling, Math.floor(openFiles / 2)));
}

/** Who a stream counts against: an account's streams are counted apart from its address's anonymous ones. */
export function liveStreamClient(caller: { accountId: string | null; clientIp: string | null }): string {
  return caller.accountId ? `account ${caller.accountId}` : `address ${caller.clientIp ?? "unknown"}`;
}

export type ProductEvents = ReturnType<typeof createProductEvents>;

/**
 * Fans the change feed out to the live product pages open on this process (decision 019): one feed subscription
 * and one heartbeat timer for the whole process, whatever the number of connections, and a map from product id
 * to its watchers, so a change costs work in proportion to that product's watchers only.
 */
export function createProductEvents(
  changes: ChangeFeed,
  { heartbeatMs = 25_000, perClient = 32, total = 10_000, reclaim, reclaimAfterClosed = 500, reclaimDelayMs = 10_000 }: ProductEventsOptions = {},
) {
  const watchers = new Map<string, Set<ProductWatcher>>();
  let count = 0;
  /** Open streams by client; a client leaves the map with its last stream, so it holds no memory of who came. */
  const byClient = new Map<string, number>();
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  let closedSinceReclaim = 0;
  let reclaimTimer: NodeJS.Timeout | undefined;

  /** Counts a closed stream; enough of them since the last time, and memory is reclaimed once the burst is over. */
  function noteClosed() {
    if (!reclaim || ++closedSinceReclaim < reclaimAfterClosed || reclaimTimer) return;
    reclaimTimer = setTimeout(() => {
      reclaimTimer = undefined;
      closedSinceReclaim = 0;
      reclaim();
    }, reclaimDelayMs);
    reclaimTimer.unref();
  }

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
  function watch(productId: string, client: string, watcher: ProductWatcher): (() => void) | false {
    if (closed) {
      watcher.end();
      return false;
    }
    if (!unsubscribe) start();
    let set = watchers.get(productId);
    if (!set) watchers.set(productId, (set = new Set()));
    set.add(watcher);
    count++;
    byClient.set(client, (byClient.get(client) ?? 0) + 1);
    return () => {
      const current = watchers.get(productId);
      // Only the first call counts: a stream that ends in two ways at once (its client went as the route
      // finished) gives its slot back once.
      if (!current?.delete(watcher)) return;
      count--;
      const held = (byClient.get(client) ?? 1) - 1;
      if (held > 0) byClient.set(client, held);
      else byClient.delete(client);
      noteClosed();
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
     *
     * The stream counts against `client` (liveStreamClient) until stop(): past `perClient` streams of one client,
     * or `total` of the process, it is refused instead, before any work is done for it.
     */
    listen(productId: string, client: string) {
      if (!closed) {
        if ((byClient.get(client) ?? 0) >= perClient) return { refused: "client" } satisfies LiveStreamRefusal;
        if (count >= total) return { refused: "server" } satisfies LiveStreamRefusal;
      }
      let target: ProductWatcher | undefined;
      const heldAspects = new Set<ProductAspect | "resync">();
      let ended = false;
      const unwatch = watch(productId, client, {
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
        refused: false as const,
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
    /** How many connections `client` holds open (tests read it). */
    heldBy(client: string): number {
      return byClient.get(client) ?? 0;
    },
    /** The caps this hub enforces. */
    limits: { perClient, total },
    /** Ends every connection and refuses new ones (server shutdown: they must not hold it up). */
    close() {
      closed = true;
      const all = [...watchers.values()].flatMap((set) => [...set]);
      watchers.clear();
      byClient.clear();
      count = 0;
      stop();
      clearTimeout(reclaimTimer);
      for (const watcher of all) watcher.end();
    },
  };
}
