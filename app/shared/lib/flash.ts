import type { AppLoadContext } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { shopCookie } from "./cookies.ts";

// A toast to show after a redirect ('User logged in successfully' and the like). Only these keys can be
// carried, so a planted cookie can never put arbitrary words on the page.
const FLASH_TEXTS = {
  loggedIn: messages.auth.loggedIn,
  loggedOut: messages.auth.loggedOut,
  accountCreated: messages.auth.accountCreated,
  emailVerified: messages.auth.emailVerified,
  passwordReset: messages.auth.passwordReset,
  passwordChanged: messages.auth.passwordChanged,
  orderPlaced: messages.orders.placed,
  orderCancelled: messages.orders.cancelled,
  emailChanged: messages.accountChanges.emailChanged,
  accountDeleted: messages.accountChanges.accountDeleted,
  wishlistSaved: messages.wishlist.savedFlash,
  wishlistRemoved: messages.wishlist.removedFlash,
} as const;
export type FlashKey = keyof typeof FLASH_TEXTS;

const flashCookie = shopCookie("plant-shop.flash", { httpOnly: true, sameSite: "lax", maxAge: 60 });

export interface Flash {
  /** Names this one flash: pages that read it twice (two loads in flight at once) show one toast. */
  id: string;
  text: string;
}

export function setFlash(context: AppLoadContext, key: FlashKey): Promise<string> {
  return flashCookie(context).serialize(`${key}.${crypto.randomUUID()}`);
}

/** The toast waiting for this request, and the header that clears it. */
export async function takeFlash(context: AppLoadContext, request: Request): Promise<{ flash: Flash | null; clear: string | null }> {
  const cookie = flashCookie(context);
  const value: unknown = await cookie.parse(request.headers.get("cookie"));
  const [key = "", id = ""] = typeof value === "string" ? value.split(".") : [];
  if (!(key in FLASH_TEXTS) || !id) return { flash: null, clear: null };
  return { flash: { id, text: FLASH_TEXTS[key as FlashKey] }, clear: await cookie.serialize("", { maxAge: 0 }) };
}
