import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalChangeFeed } from "../../platform/change-feed/change-feed.ts";
import { createProductEvents, liveStreamClient, liveStreamsAllowed } from "./product-events.ts";

const watcher = { changed: () => undefined, heartbeat: () => undefined, end: () => undefined };

/** listen() for a stream that was admitted (the test fails if it was refused). */
function admitted(hub: ReturnType<typeof createProductEvents>, productId: string, client: string) {
  const listener = hub.listen(productId, client);
  if (listener.refused) throw new Error(`refused: ${listener.refused}`);
  listener.deliverTo(watcher);
  return listener;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the live streams' caps", () => {
  it("refuses a client past its cap whatever the product, and other clients until the process's cap", () => {
    const hub = createProductEvents(createLocalChangeFeed(), { perClient: 2, total: 3 });
    admitted(hub, "a", "address 1");
    admitted(hub, "b", "address 1");
    expect(hub.listen("c", "address 1")).toEqual({ refused: "client" });
    admitted(hub, "a", "address 2");
    expect(hub.listen("a", "address 3")).toEqual({ refused: "server" });
    // A client at its own cap hears about its own cap first.
    expect(hub.listen("a", "address 1")).toEqual({ refused: "client" });
    expect(hub.size).toBe(3);
  });

  it("gives a stream's slot back once, however many times it is stopped, and forgets a client with no stream", () => {
    const hub = createProductEvents(createLocalChangeFeed(), { perClient: 2, total: 10 });
    const first = admitted(hub, "a", "address 1");
    admitted(hub, "a", "address 1");
    first.stop();
    first.stop();
    expect(hub.heldBy("address 1")).toBe(1);
    expect(hub.size).toBe(1);
    admitted(hub, "a", "address 1");
    expect(hub.listen("a", "address 1")).toEqual({ refused: "client" });
  });

  it("frees every slot when the server ends its streams; a stream stopped afterwards counts nothing twice", () => {
    const hub = createProductEvents(createLocalChangeFeed(), { perClient: 2, total: 10 });
    const stream = admitted(hub, "a", "address 1");
    hub.close();
    expect(hub.heldBy("address 1")).toBe(0);
    expect(hub.size).toBe(0);
    stream.stop();
    expect(hub.heldBy("address 1")).toBe(0);
    expect(hub.size).toBe(0);
  });

  it("counts a signed-in person by account and anyone else by address", () => {
    expect(liveStreamClient({ accountId: "u1", clientIp: "203.0.113.7" })).toBe(liveStreamClient({ accountId: "u1", clientIp: "198.51.100.1" }));
    expect(liveStreamClient({ accountId: "u1", clientIp: "203.0.113.7" })).not.toBe(liveStreamClient({ accountId: null, clientIp: "203.0.113.7" }));
    expect(liveStreamClient({ accountId: null, clientIp: "203.0.113.7" })).not.toBe(liveStreamClient({ accountId: null, clientIp: "203.0.113.8" }));
  });

  it("allows streams half the open files, at most the ceiling and at least one", () => {
    expect(liveStreamsAllowed(20_000, 10_000)).toBe(10_000);
    expect(liveStreamsAllowed(20_000, 50_000)).toBe(10_000);
    expect(liveStreamsAllowed(1_048_576, 10_000)).toBe(10_000);
    expect(liveStreamsAllowed(1024, 10_000)).toBe(512);
    expect(liveStreamsAllowed(Number.POSITIVE_INFINITY, 10_000)).toBe(10_000);
    expect(liveStreamsAllowed(1, 10_000)).toBe(1);
  });
});

describe("reclaiming the memory of closed streams", () => {
  it("asks for it once, a delay after the closes reached the threshold, and again only after as many more", () => {
    vi.useFakeTimers();
    const reclaim = vi.fn();
    const hub = createProductEvents(createLocalChangeFeed(), { reclaim, reclaimAfterClosed: 3, reclaimDelayMs: 1000 });
    const streams = Array.from({ length: 7 }, (_, i) => admitted(hub, "a", `address ${i}`));
    for (const stream of streams.slice(0, 2)) stream.stop();
    vi.advanceTimersByTime(5000);
    expect(reclaim).not.toHaveBeenCalled();
    for (const stream of streams.slice(2, 5)) stream.stop(); // the third reaches it; the two after join the same one
    vi.advanceTimersByTime(999);
    expect(reclaim).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(reclaim).toHaveBeenCalledTimes(1);
    for (const stream of streams.slice(5)) stream.stop();
    vi.advanceTimersByTime(5000);
    expect(reclaim).toHaveBeenCalledTimes(1);
  });
});
