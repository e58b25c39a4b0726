/** A product counts as low in stock at this many or fewer (the overview lists them, fewest first). */
export const LOW_STOCK_THRESHOLD = 5;
/** How many low-stock products the overview lists; the products page has the rest. */
export const LOW_STOCK_LIST_SIZE = 10;
/** Unhandled messages are counted up to this; more shows as "99+". */
export const UNHANDLED_COUNT_CAP = 100;
/** The chart's span: today and the days before it. */
export const OVERVIEW_DAYS = 30;

/** Orders of one day in the shop's time zone. */
export interface DaySales {
  /** YYYY-MM-DD in the shop's time zone. */
  day: string;
  /** Orders placed that day and not cancelled since. */
  orders: number;
  cancelled: number;
  /** Their totals, shipping included, in paise. */
  revenuePaise: number;
}

export interface SalesSummary {
  orders: number;
  cancelled: number;
  revenuePaise: number;
}

export interface Overview {
  /** The IANA time zone "today" is measured in (SHOP_TIME_ZONE). */
  timeZone: string;
  today: SalesSummary & { day: string };
  lastDays: SalesSummary & { from: string; to: string };
  /** Every day of the span, oldest first, days without orders included (as zeros). */
  days: DaySales[];
  lowStock: { threshold: number; products: { id: string; name: string; stock: number }[]; more: boolean };
  /** Capped at UNHANDLED_COUNT_CAP; `atLeast` says the real number may be higher. */
  unhandledMessages: { count: number; atLeast: boolean };
}
