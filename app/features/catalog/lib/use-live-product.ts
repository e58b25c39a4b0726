import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";
import { reconnectDelayMs } from "./reconnect-delay.ts";

/** The spec's realtime connection opens shortly after the page, not while it is still hydrating. */
const OPEN_AFTER_MS = 50;

/**
 * Keeps a product page current (decision 019): listens to the product's Server-Sent Events and re-reads the
 * page's data (React Router revalidation: stock, reviews, average) when the product changed, when the data
 * the page was rendered with is older than the product at the moment of subscribing, and after every
 * reconnect, since changes may have been missed while disconnected. A dropped connection is retried on the
 * spec's schedule (reconnectDelayMs) rather than the browser's own.
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
    let source: EventSource | undefined;
    let failedAttempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let everOpened = false;

    const connect = () => {
      source = new EventSource(`/api/products/${encodeURIComponent(productId)}/events`);
      source.addEventListener("ready", (event) => {
        const reconnected = everOpened || failedAttempts > 0;
        everOpened = true;
        failedAttempts = 0;
        let updatedAt: unknown;
        try {
          updatedAt = (JSON.parse((event as MessageEvent<string>).data) as { updatedAt?: unknown }).updatedAt;
        } catch {
          updatedAt = undefined;
        }
        if (reconnected || updatedAt !== latest.current.loadedUpdatedAt) refresh();
      });
      source.addEventListener("change", refresh);
      source.onerror = () => {
        // The browser would retry on its own schedule; the spec's is used instead.
        source?.close();
        source = undefined;
        if (stopped) return;
        timer = setTimeout(connect, reconnectDelayMs(failedAttempts++));
      };
    };
    timer = setTimeout(connect, OPEN_AFTER_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [productId, refresh]);
}
