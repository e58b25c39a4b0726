import { PIN_PATTERN } from "#common/delivery/pin-areas.ts";

// The PIN code a shopper last checked or shipped to (docs/decisions/053), remembered so the checkout can fill it in.
// Not a secret and tied to no account: a plain cookie, read only by the server (pages shared between shoppers
// never read it, so no shared render depends on it).

const NAME = "plant-shop.pin";
const YEAR = 365 * 24 * 60 * 60;

/** The remembered PIN code, or null (none, or not a PIN code). */
export function rememberedPin(request: Request): string | null {
  const header = request.headers.get("Cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === NAME && value && PIN_PATTERN.test(value)) return value;
  }
  return null;
}

/** The Set-Cookie header remembering `pin` for a year. */
export function rememberPin(pin: string, request: Request): string {
  const secure = new URL(request.url).protocol === "https:" ? "; Secure" : "";
  return `${NAME}=${pin}; Path=/; Max-Age=${YEAR}; SameSite=Lax; HttpOnly${secure}`;
}
