import { z } from "zod";
import { messages } from "../shared/messages.ts";

// PIN codes and the areas a delivery zone covers (docs/decisions/053): the owner types prefixes ('560'), ranges
// ('400001-400104') and single codes ('560001'); each is kept as the range of PIN codes it covers, and as the
// decimal prefixes that range is made of, which is what a lookup matches (at most six index seeks per PIN code).

const m = messages.delivery;

/** A PIN code: six digits, the first 1-9. */
export const PIN_PATTERN = /^[1-9]\d{5}$/;

/** A PIN code as typed (spaces around it forgiven), or a clear message. */
export const pinSchema = z
  .string({ error: m.pinRequired })
  .trim()
  .min(1, m.pinRequired)
  .regex(PIN_PATTERN, m.pinInvalid);

/** One area: the first and last PIN code it covers, and the entry as the owner wrote it. */
export type PinArea = { lo: number; hi: number; entry: string };

const LOWEST = 100_000;
const HIGHEST = 999_999;

/** One entry ('560', '400001-400104', '560001') as the range it covers, or the message naming the bad entry. */
export function parsePinArea(raw: string): PinArea | string {
  const entry = raw.trim();
  const range = /^(\d{6})\s*-\s*(\d{6})$/.exec(entry);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    if (lo < LOWEST || hi < LOWEST) return m.areaInvalid(entry);
    if (hi < lo) return m.areaBackwards(entry);
    return { lo, hi, entry: `${range[1]}-${range[2]}` };
  }
  if (/^[1-9]\d{0,5}$/.test(entry)) {
    const width = 10 ** (6 - entry.length);
    const lo = Number(entry) * width;
    return { lo, hi: lo + width - 1, entry };
  }
  return m.areaInvalid(entry);
}

/** The list typed into the form (commas or new lines between entries), or the messages of the bad entries. */
export function parsePinAreas(text: string): { areas: PinArea[] } | { problems: string[] } {
  const entries = text.split(/[,\n\r]+/).map((e) => e.trim()).filter(Boolean);
  if (!entries.length) return { problems: [m.areasRequired] };
  const parsed = entries.map(parsePinArea);
  const problems = parsed.filter((p): p is string => typeof p === "string");
  if (problems.length) return { problems };
  return { areas: parsed as PinArea[] };
}

/**
 * The decimal prefixes whose PIN codes together are exactly [lo, hi]: '560000-599999' is 56, 57, 58, 59. At most
 * about a hundred for any range (nine at each length, on each side), so a zone's rows stay few.
 */
export function prefixesOf(lo: number, hi: number): string[] {
  const out: string[] = [];
  let at = lo;
  while (at <= hi) {
    // The widest aligned block starting at `at` that stays within hi.
    let width = 1;
    while (width < 100_000 && at % (width * 10) === 0 && at + width * 10 - 1 <= hi) width *= 10;
    const digits = 6 - Math.log10(width);
    out.push(String(at).slice(0, digits));
    at += width;
  }
  return out;
}

/** The prefixes that may hold a PIN code's zone: its first digit, first two, ... up to the whole code. */
export function prefixesOfPin(pin: string): string[] {
  return [1, 2, 3, 4, 5, 6].map((n) => pin.slice(0, n));
}

export { LOWEST as LOWEST_PIN, HIGHEST as HIGHEST_PIN };
