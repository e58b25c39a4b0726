import { useEffect, type FormEvent, type ReactNode } from "react";
import { Form, useFetcher, useLocation } from "react-router";
import type { PersonalData } from "#common/accounts/personal-data.ts";
import { HEART_PART_NAME } from "#common/wishlist/heart-part.ts";
import { messages } from "#common/shared/messages.ts";
import { CardPartMarker, usePersonal } from "../../../shared/components/personal-parts.tsx";
import { toast } from "../../../shared/lib/toast.ts";
import { rememberHeart } from "../lib/heart-answers.ts";

/** The form fields the heart posts to /wishlist's action (app/pages/wishlist.tsx). */
export const HEART_INTENTS = { save: "wishlist-save", remove: "wishlist-remove" } as const;

function HeartIcon({ filled, size }: { filled: boolean; size: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false" fill={filled ? "currentColor" : "none"} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2 0 3.7 1.1 5 3 1.3-1.9 3-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4Z" />
    </svg>
  );
}

/** Where a heart sits: on a card, or larger on the plant's page. */
type HeartSize = "card" | "page";

const heartLook = (size: HeartSize) =>
  `grid ${size === "card" ? "h-10 w-10" : "h-12 w-12"} place-items-center rounded-full border border-stone-200 bg-white/90 text-clay-600 shadow-sm hover:bg-white hover:text-clay-700`;
const heartIconSize = (size: HeartSize) => (size === "card" ? 22 : 26);

/**
 * A signed-in shopper's heart button: pressed when the plant is saved, and the intent it posts (a submit button's
 * own name and value) the opposite. It uses no router, so the server can render it on its own as a personal part
 * of a page every signed-in shopper shares (docs/decisions/045 and 050), byte for byte as the page would.
 */
export function HeartToggle({ productName, size, pressed }: { productName: string; size: HeartSize; pressed: boolean }) {
  const label = pressed ? messages.wishlist.remove(productName) : messages.wishlist.save(productName);
  return (
    <button type="submit" name="intent" value={pressed ? HEART_INTENTS.remove : HEART_INTENTS.save} className={heartLook(size)} aria-pressed={pressed} aria-label={label} title={label}>
      <HeartIcon filled={pressed} size={heartIconSize(size)} />
    </button>
  );
}

/** A heart's marker props in a shared render: which plant, its name for the label, and where it sits. */
export interface HeartPartProps {
  productId: string;
  productName: string;
  size: HeartSize;
}

const isHeartPartProps = (props: Record<string, unknown> | undefined): props is Record<string, unknown> & HeartPartProps =>
  typeof props?.productId === "string" && typeof props.productName === "string" && (props.size === "card" || props.size === "page");

/**
 * The heart as a personal part of a shared page: the server renders it for the person from its marker's props,
 * pressed when they saved that plant (a marker it cannot read is left empty).
 */
export const HEART_PART = {
  name: HEART_PART_NAME,
  /** What of the person the part shows: whether this plant is among the page's saved ones (the render's cache key). */
  pressedFor: (personal: PersonalData, props: Record<string, unknown> | undefined): boolean | undefined =>
    isHeartPartProps(props) ? personal.saved.includes(props.productId) : undefined,
  render: (props: Record<string, unknown> | undefined, pressed: boolean): ReactNode =>
    isHeartPartProps(props) ? <HeartToggle productName={props.productName} size={props.size} pressed={pressed} /> : null,
  /** The plant a marker's heart is for, to read which of a page's plants the person saved. */
  productIdOf: (props: Record<string, unknown> | undefined): string | undefined => (isHeartPartProps(props) ? props.productId : undefined),
} as const;

/**
 * The heart that saves a plant to the signed-in shopper's wishlist (docs/product.md, Wishlist). A toggle button
 * (aria-pressed) named for the plant and what pressing it does. Before JavaScript it is a plain form posting to
 * /wishlist, which saves or removes and sends the browser back to this page; afterwards the same form goes
 * through a fetcher and the heart changes in place (at once, then as the page's loaders read it again).
 * In a page every signed-in shopper shares, the button is the person's part: the server fills it in, and the
 * browser renders it from the person's data until the page's loaders run for the person.
 * A visitor's heart asks for the login page, which brings them back to this page: the same for every visitor, so
 * a cached visitor's page holds nothing personal.
 */
export function HeartButton({ productId, productName, saved, signedIn, size = "card" }: { productId: string; productName: string; saved: boolean; signedIn: boolean; size?: HeartSize }) {
  const location = useLocation();
  const personal = usePersonal();
  const fetcher = useFetcher<{ ok: true; saved?: boolean } | { ok: false; message: string }>();
  const result = fetcher.data;
  const userId = personal.data === "marked" ? undefined : personal.data.user?.id;
  useEffect(() => {
    // A refusal (the list is full, the plant was deleted) is said in a toast; the heart stays as it was.
    if (fetcher.state === "idle" && result && !result.ok) toast.error(result.message);
    if (fetcher.state === "idle" && result?.ok && result.saved !== undefined && userId) rememberHeart(userId, productId, result.saved);
  }, [fetcher.state, result, userId, productId]);
  const here = location.pathname + location.search;
  if (!signedIn) {
    // A button of a form that asks for /login?redirectTo=<this page>, not a link: a card's only link is its name.
    return (
      <Form method="get" action="/login">
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className={heartLook(size)} aria-label={messages.wishlist.logInToSave(productName)} title={messages.wishlist.logInToSave(productName)}>
          <HeartIcon filled={false} size={heartIconSize(size)} />
        </button>
      </Form>
    );
  }
  // The loaders of a shared page read nobody's hearts: the person's data says which of its plants they saved.
  const { data } = personal;
  const savedNow = data === "marked" ? false : personal.shared ? data.saved.includes(productId) : saved;
  // While the change is on its way the heart already shows it; then it shows the answer, which the page's loaders
  // confirm for the plants they read (not for a card Load More kept from an earlier page: useGrowingList).
  const pending = fetcher.formData?.get("intent");
  const answered = fetcher.state === "idle" && result?.ok ? result.saved : undefined;
  const shown = pending === HEART_INTENTS.save ? true : pending === HEART_INTENTS.remove ? false : (answered ?? savedNow);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // No `returnTo`: the action answers the fetcher with the new state instead of sending the browser back.
    void fetcher.submit({ intent: shown ? HEART_INTENTS.remove : HEART_INTENTS.save, productId }, { method: "post", action: "/wishlist" });
  };
  return (
    <form method="post" action="/wishlist" onSubmit={submit}>
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="returnTo" value={here} />
      {data === "marked" ? (
        <CardPartMarker part={HEART_PART.name} props={{ productId, productName, size } satisfies HeartPartProps} />
      ) : (
        <HeartToggle productName={productName} size={size} pressed={shown} />
      )}
    </form>
  );
}
