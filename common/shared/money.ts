// Money is integer paise (docs/product.md, Whole shop), so sums are exact; this is the one place that turns it into text.
const grouping = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });
const exact = new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const CURRENCY_LABEL = "Rs.";

/** 'Rs. 1,500' on cards and lists; paise are shown only when there are any ('Rs. 1,499.50'). */
export function formatPrice(paise: number): string {
  assertPaise(paise);
  return paise % 100 === 0
    ? `${CURRENCY_LABEL} ${grouping.format(paise / 100)}`
    : formatPriceExact(paise);
}

/** 'Rs. 20.00': always two decimals (cart summary, checkout, orders, category page). */
export function formatPriceExact(paise: number): string {
  assertPaise(paise);
  return `${CURRENCY_LABEL} ${exact.format(paise / 100)}`;
}

/**
 * '1520.00': two decimals, no grouping and no label, as schema.org's `price` wants it (a dot, not a comma).
 * Built from the integer digits, so no float rounding can shift a paisa.
 */
export function paiseToDecimal(paise: number): string {
  assertPaise(paise);
  const sign = paise < 0 ? "-" : "";
  const digits = String(Math.abs(paise)).padStart(3, "0");
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Paise as a person types rupees in the product form: '1500', '1499.50'. No grouping and no label, so
 * parseRupees reads it back to the same paise.
 */
export function paiseToRupeesInput(paise: number): string {
  assertPaise(paise);
  if (paise < 0) throw new RangeError(`A price is never below zero: ${paise}`);
  return paise % 100 === 0 ? String(paise / 100) : paiseToDecimal(paise);
}

/** Whole rupees (the sample catalogue's prices) as paise. */
export function paiseFromRupees(rupees: number): number {
  if (!Number.isSafeInteger(rupees)) throw new RangeError(`Not a whole number of rupees: ${rupees}`);
  const paise = rupees * 100;
  assertPaise(paise);
  return paise;
}

/**
 * Rupees as typed: plain digits ('150000'), or grouped the Indian way ('1,50,000': pairs before the last three
 * digits) or the international way ('150,000'). Any other comma is refused rather than guessed at: '10,00'
 * may mean ten rupees to someone used to decimal commas, and reading it as a thousand would price a plant at 100×.
 */
const RUPEES = /^\s*(\d+|\d{1,2}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+)(?:\.(\d{1,2}))?\s*$/;

/** Parses a rupee amount typed by a person ('1500', '1,499.5', '20.00') into paise without float arithmetic. */
export function parseRupees(text: string): number | null {
  const match = RUPEES.exec(text);
  if (!match?.[1]) return null;
  const rupees = Number(match[1].replaceAll(",", ""));
  const paise = Number((match[2] ?? "").padEnd(2, "0"));
  const total = rupees * 100 + paise;
  return Number.isSafeInteger(total) ? total : null;
}

export function sumPaise(amounts: readonly number[]): number {
  return amounts.reduce((total, amount) => total + amount, 0);
}

function assertPaise(paise: number): void {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`Not a whole number of paise: ${paise}`);
}
