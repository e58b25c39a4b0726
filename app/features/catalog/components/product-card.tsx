import type { ReactNode, Ref } from "react";
import { Link } from "react-router";
import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { Price } from "../../../shared/ui/price.tsx";
import { CARD_SIZES, Picture } from "../../../shared/ui/picture.tsx";

/**
 * What other features add to a card, filled in by the page that composes them: `details` under the price (a
 * rating), `corner` over the picture's top right (a heart, a badge). Slot content sits above the card's link, so
 * it can hold its own buttons and links.
 */
export interface ProductCardSlots {
  details?: ReactNode;
  corner?: ReactNode;
}

/**
 * A product in a grid: first image, name and price. Only the name is a link, so the card can hold buttons; the
 * link's ::after covers the whole card (a stretched link), so a click anywhere on it still opens the product, and
 * slot content is raised above that cover to stay clickable itself.
 */
export function ProductCard({
  product,
  eager = false,
  headingLevel = 3,
  slots = {},
}: {
  product: ProductSummary;
  eager?: boolean;
  headingLevel?: 2 | 3;
  slots?: ProductCardSlots;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group relative overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md has-[a:focus-visible]:outline-3 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-leaf-600">
      <Picture
        image={product.image}
        alt=""
        eager={eager}
        sizes={CARD_SIZES}
        className="aspect-square w-full bg-leaf-50 object-cover transition group-hover:scale-[1.02]"
      />
      {slots.corner ? <div className="absolute right-2 top-2 z-10">{slots.corner}</div> : null}
      <div className="p-4">
        <Heading className="font-semibold text-stone-900">
          <Link to={`/product/${product.id}`} className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none">
            {product.name}
          </Link>
        </Heading>
        <p className="mt-1">
          <Price pricePaise={product.pricePaise} sale={product.sale} from={product.priceVaries} />
        </p>
        {slots.details ? <div className="relative z-10 mt-1">{slots.details}</div> : null}
      </div>
    </article>
  );
}

/**
 * `headingLevel`: one below the heading the grid sits under — 3 under the home page's section headings, 2
 * straight under a page's h1 (the shop), so headings never skip a level.
 */
export function ProductGrid({
  products,
  eagerFirst = false,
  headingLevel = 3,
  listRef,
  slotsFor,
}: {
  products: ProductSummary[];
  /**
   * The first picture, a phone's largest paint, fetched at once and at high priority. Only the first: React preloads
   * every eager picture in the head, ahead of the stylesheet, where they held back the first paint.
   */
  eagerFirst?: boolean;
  headingLevel?: 2 | 3;
  listRef?: Ref<HTMLUListElement>;
  /** What other features add to each card (see ProductCardSlots), from the page that composes them. */
  slotsFor?: (product: ProductSummary) => ProductCardSlots;
}) {
  return (
    <ul ref={listRef} className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={eagerFirst && index === 0} headingLevel={headingLevel} slots={slotsFor?.(product)} />
        </li>
      ))}
    </ul>
  );
}
