import { useEffect, type FormEvent } from "react";
import { Form, useFetcher, useLocation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { toast } from "../../../shared/lib/toast.ts";

/** The form fields the heart posts to /wishlist's action (app/pages/wishlist.tsx). */
export const HEART_INTENTS = { save: "wishlist-save", remove: "wishlist-remove" } as const;

function HeartIcon({ filled, size }: { filled: boolean; size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false" fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2 0 3.7 1.1 5 3 1.3-1.9 3-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4Z" />
    </svg>
  );
}

/**
 * The heart that saves a plant to the signed-in shopper's wishlist (docs/product.md, Wishlist). A toggle button
 * (aria-pressed) named for the plant and what pressing it does. Before JavaScript it is a plain form posting to
 * /wishlist, which saves or removes and sends the browser back to this page; afterwards the same form goes
 * through a fetcher and the heart changes in place (at once, then as the page's loaders read it again).
 * A visitor's heart asks for the login page, which brings them back to this page: the same for every visitor, so
 * a cached visitor's page holds nothing personal.
 */
export function HeartButton({ productId, productName, saved, signedIn, size = "card" }: { productId: string; productName: string; saved: boolean; signedIn: boolean; size?: "card" | "page" }) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: true } | { ok: false; message: string }>();
  const result = fetcher.data;
  useEffect(() => {
    // A refusal (the list is full, the plant was deleted) is said in a toast; the heart stays as it was.
    if (fetcher.state === "idle" && result && !result.ok) toast.error(result.message);
  }, [fetcher.state, result]);
  const here = location.pathname + location.search;
  const box = size === "card" ? "h-10 w-10" : "h-12 w-12";
  const look = `grid ${box} place-items-center rounded-full border border-stone-200 bg-white/90 text-clay-600 shadow-sm hover:bg-white hover:text-clay-700`;
  const iconSize = size === "card" ? 22 : 26;
  if (!signedIn) {
    // A button of a form that asks for /login?redirectTo=<this page>, not a link: a card's only link is its name.
    return (
      <Form method="get" action="/login">
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className={look} aria-label={messages.wishlist.logInToSave(productName)} title={messages.wishlist.logInToSave(productName)}>
          <HeartIcon filled={false} size={iconSize} />
        </button>
      </Form>
    );
  }
  // While the change is on its way the heart already shows it; the loaders' answer then confirms it.
  const pending = fetcher.formData?.get("intent");
  const shown = pending === HEART_INTENTS.save ? true : pending === HEART_INTENTS.remove ? false : saved;
  const intent = shown ? HEART_INTENTS.remove : HEART_INTENTS.save;
  const label = shown ? messages.wishlist.remove(productName) : messages.wishlist.save(productName);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // No `returnTo`: the action answers the fetcher with the new state instead of sending the browser back.
    void fetcher.submit({ intent, productId }, { method: "post", action: "/wishlist" });
  };
  return (
    <form method="post" action="/wishlist" onSubmit={submit}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="returnTo" value={here} />
      <button type="submit" className={look} aria-pressed={shown} aria-label={label} title={label}>
        <HeartIcon filled={shown} size={iconSize} />
      </button>
    </form>
  );
}
