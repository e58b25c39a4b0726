import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { readServerSentEvents } from "./server-sent-events.ts";
import { reconnectDelayMs } from "./reconnect-delay.ts";

/** The live connection opens shortly after the page, not while it is still hydrating, so it never delays the page. */
const OPEN_AFTER_MS = 50;

/**
 * The server's answers that refuse a stream for its caps (too many from this client, or on the server): the page
 * is not made live and does not ask again, as a realtime connection refused by policy is not reconnected.
 */
const REFUSED = new Set([429, 503]);

/**
 * Keeps a product page current (decision 019): listens to the product's Server-Sent Events and re-reads the
 * page's data (React Router revalidation: stock, reviews, average) when the product changed, when the data
 * the page was rendered with is older than the product at the moment of subscribing, and after every
 * reconnect, since changes may have been missed while disconnected. A dropped connection is retried on the
 * shop's schedule (reconnectDelayMs) rather than the browser's own.
 *
 * Read with fetch rather than EventSource, which hides the answer's status: a stream the server refuses (429, 503:
 * decision 033) leaves the page as an ordinary page, current as of its last load, with nothing logged and no
 * retries; every other failure is retried.
 */
export function useLiveProduct(productId: string, loadedUpdatedAt: string): void {
  const revalidator = useRevalidator();
  const latest = useRef({ revalidator, loadedUpdatedAt });
  latest.current = { revalidator, loadedUpdatedAt };
  /** A change arrived while a re-read was under way: one more re-read once it is done. */
  const pending = useRef(false);

  const refresh = useRef(() => {
    const { revalidator } = latest.current;
    if (revalidator.state === "idle") void revalidator.revalidate();
    else pending.current = true;
  }).current;

  useEffect(() => {
    if (revalidator.state !== "idle" || !pending.current) return;
    pending.current = false;
    void revalidator.revalidate();
  }, [revalidator]);

  useEffect(() => {
    const stop = new AbortController();
    let failedAttempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let everOpened = false;

    const onReady = (data: string) => {
      const reconnected = everOpened || failedAttempts > 0;
      everOpened = true;
      failedAttempts = 0;
      let updatedAt: unknown;
      try {
        updatedAt = (JSON.parse(data) as { updatedAt?: unknown }).updatedAt;
      } catch {
        updatedAt = undefined;
      }
      if (reconnected || updatedAt !== latest.current.loadedUpdatedAt) refresh();
    };

    /** One connection, until it ends: "refused" when the server said not to come back, else "ended". */
    const listen = async (): Promise<"refused" | "ended"> => {
      let response: Response;
      try {
        response = await fetch(`/api/products/${encodeURIComponent(productId)}/events`, {
          headers: { Accept: "text/event-stream" },
          cache: "no-store",
          signal: stop.signal,
        });
      } catch {
        return "ended"; // the server is unreachable (or the page went): the schedule decides
      }
      if (REFUSED.has(response.status)) {
        void response.body?.cancel().catch(() => undefined);
        return "refused";
      }
      if (response.status !== 200 || !response.body) {
        void response.body?.cancel().catch(() => undefined);
        return "ended";
      }
      try {
        for await (const event of readServerSentEvents(response.body)) {
          if (event.type === "ready") onReady(event.data);
          else if (event.type === "change") refresh();
        }
      } catch {
        // The connection broke (the server stopped, the network went, or the page did): as an end.
      }
      return "ended";
    };

    const connect = () => {
      void listen().then((outcome) => {
        if (stop.signal.aborted || outcome === "refused") return;
        timer = setTimeout(connect, reconnectDelayMs(failedAttempts++));
      });
    };
    timer = setTimeout(connect, OPEN_AFTER_MS);
    return () => {
      clearTimeout(timer);
      stop.abort();
    };
  }, [productId, refresh]);
}
