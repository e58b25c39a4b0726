import { formatDate, formatDateTime } from "#common/shared/dates.ts";
import { useShopTimeZone } from "../lib/shop-time-zone.ts";

/**
 * An instant as people read it, in the shop's time zone: "27 Nov 2026, 11:49 am", or with `show="date"` the day
 * alone. The element carries the instant itself for machines.
 */
export function ShopTime({ instant, show = "dateTime", className }: { instant: string; show?: "dateTime" | "date"; className?: string }) {
  const timeZone = useShopTimeZone();
  return (
    <time dateTime={instant} className={className}>
      {show === "date" ? formatDate(instant, timeZone) : formatDateTime(instant, timeZone)}
    </time>
  );
}
