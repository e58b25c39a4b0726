/** Paise as a person types rupees in the product form: '1500', '1499.50' (no grouping, so parseRupees reads it back). */
export function rupeesFromPaise(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`Not a whole number of paise: ${paise}`);
  const rupees = Math.trunc(paise / 100);
  const rest = paise % 100;
  return rest === 0 ? String(rupees) : `${rupees}.${String(rest).padStart(2, "0")}`;
}
