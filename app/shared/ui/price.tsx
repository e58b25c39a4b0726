import { formatPrice, formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import type { ProductSummary } from "#common/catalog/catalog-types.ts";

/**
 * A price as the shop shows it: alone, or on sale with the regular price struck through and the saving
 * (docs/decisions/047). The struck price is a <del> with the words a screen reader needs ("Regular price",
 * "Sale price"), as a line through a number says nothing to one.
 */
export function Price({
  pricePaise,
  sale,
  exact = false,
  from = false,
  className = "text-leaf-800",
}: {
  pricePaise: number;
  sale: ProductSummary["sale"];
  /** Two decimals ('Rs. 20.00'), as the category page shows prices. */
  exact?: boolean;
  /** The lowest of a plant's sizes' prices, which differ: 'From Rs. 2,500' (docs/decisions/048). */
  from?: boolean;
  className?: string;
}) {
  const format = exact ? formatPriceExact : formatPrice;
  const lead = from ? `${messages.product.fromPrice} ` : "";
  if (!sale) return <span className={className}>{lead + format(pricePaise)}</span>;
  return (
    <span className={`inline-flex flex-wrap items-baseline gap-x-2 ${className}`} data-testid="sale-price">
      <span>
        {lead}
        <span className="sr-only">Sale price </span>
        {format(pricePaise)}
      </span>
      <del className="text-sm text-stone-500">
        <span className="sr-only">Regular price </span>
        {format(sale.regularPaise)}
      </del>
      <span className="rounded bg-red-50 px-1.5 text-sm font-semibold text-red-700">{savingLabel(sale)}</span>
    </span>
  );
}

/** 'Save 25%'; a saving under 1 % is said in rupees ('Save Rs. 5'), never 'Save 0%'. */
export function savingLabel(sale: NonNullable<ProductSummary["sale"]>): string {
  return sale.savingPercent === null ? `Save ${formatPrice(sale.savingPaise)}` : `Save ${sale.savingPercent}%`;
}
