import { PIN_PATTERN } from "#common/delivery/pin-areas.ts";

// The PIN code a shopper last checked or shipped to (docs/decisions/053), remembered so the checkout can fill it in.
// Not a secret and tied to no account: a plain cookie, read only by the server (pages shared between shoppers
// never read it, so no shared render depends on it).

/** Over https `__Host-`, as every cookie of the shop: kept by the browser only from this exact origin. */
const nameFor = (request: Request) => (new URL(request.url).protocol === "https:" ? "__Host-plant-shop.pin" : "plant-shop.pin");
const YEAR = 365 * 24 * 60 * 60;

/** The remembered PIN code, or null (none, or not a PIN code). */
export function rememberedPin(request: Request): string | null {
  const header = request.headers.get("Cookie") ?? "";
  const name = nameFor(request);
  for (const part of header.split(";")) {
    const [cookieName, value] = part.trim().split("=");
    if (cookieName === name && value && PIN_PATTERN.test(value)) return value;
  }
  return null;
}

/** The Set-Cookie header remembering `pin` for a year. */
export function rememberPin(pin: string, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${nameFor(request)}=${pin}; Path=/; Max-Age=${YEAR}; SameSite=Lax; HttpOnly${secure}`;
}
