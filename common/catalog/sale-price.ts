// A product's price at a moment: the one rule for what a shopper pays and what a page shows (docs/decisions/047).
// Everything that prices or shows a product (cards, the product page, cart lines, checkout, the order's snapshot,
// the /sale list's cache lifetime) asks this module, so the rule can move with the prices (say onto sizes) in one piece.

/** What the rule reads of a product: its price, its optional compare-at price and its optional sale window. */
export interface SalePricing {
  pricePaise: number;
  /** The regular price, shown struck through while on sale; null when the product has none. */
  compareAtPaise: number | null;
  /** ISO instants; either may be null (open on that side). */
  saleStartsAt: string | null;
  saleEndsAt: string | null;
}

/** What a shopper sees and pays at one moment. */
export interface PriceNow {
  /** What the shopper pays now, per unit. */
  chargedPaise: number;
  /** The regular price shown struck through beside it; null when not on sale now. */
  regularPaise: number | null;
  /** The saving as a whole percent, rounded down and at least 1; null when not on sale now or when under 1 %. */
  savingPercent: number | null;
  /** The saving in paise; 0 when not on sale now. */
  savingPaise: number;
}

const instant = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** Whether the product has a compare-at price above its price (a sale, whatever its window). */
export function hasSalePrice(p: SalePricing): boolean {
  return p.compareAtPaise !== null && p.compareAtPaise > p.pricePaise;
}

/** Whether `now` is inside the window: from its start (included) to its end (excluded); an open side always is. */
export function insideSaleWindow(p: Pick<SalePricing, "saleStartsAt" | "saleEndsAt">, now: number): boolean {
  const starts = instant(p.saleStartsAt);
  const ends = instant(p.saleEndsAt);
  return (starts === null || starts <= now) && (ends === null || now < ends);
}

/**
 * The price at `now` (milliseconds). On sale (a compare-at price above the price, and now inside the window or no
 * window): the price is paid and the compare-at price is shown struck through. With a compare-at price but outside
 * its window, the compare-at price is the regular price: shown alone and paid. Without one: the price.
 *
 * The saving is rounded down to a whole percent, so it never promises more than is taken off; a saving under 1 %
 * shows no percent (the page then says the saving in rupees), never 'Save 0%'.
 */
export function priceAt(p: SalePricing, now: number): PriceNow {
  if (!hasSalePrice(p)) return { chargedPaise: p.pricePaise, regularPaise: null, savingPercent: null, savingPaise: 0 };
  const regular = p.compareAtPaise!;
  if (!insideSaleWindow(p, now)) return { chargedPaise: regular, regularPaise: null, savingPercent: null, savingPaise: 0 };
  const savingPaise = regular - p.pricePaise;
  const percent = Math.floor((savingPaise * 100) / regular);
  return { chargedPaise: p.pricePaise, regularPaise: regular, savingPercent: percent >= 1 ? percent : null, savingPaise };
}

/**
 * The next instant after `now` at which this product's price or display changes by itself (its window's start or
 * end), or null when none is ahead: what a cached page showing it may live until.
 */
export function nextSaleBoundary(p: SalePricing, now: number): number | null {
  if (!hasSalePrice(p)) return null;
  const ahead = [instant(p.saleStartsAt), instant(p.saleEndsAt)].filter((at): at is number => at !== null && at > now);
  return ahead.length ? Math.min(...ahead) : null;
}
