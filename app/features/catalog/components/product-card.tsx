import type { Ref } from "react";
import { Link } from "react-router";
import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { formatPrice } from "#common/shared/money.ts";
import { CARD_SIZES, Picture } from "../../../shared/ui/picture.tsx";
import { RatingSummary } from "../../reviews/components/stars.tsx";

/** A product in a grid: first image, name and price, the whole card a link to the product. */
export function ProductCard({ product, eager = false, headingLevel = 3 }: { product: ProductSummary; eager?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="group overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md">
      <Link to={`/product/${product.id}`} className="block focus-visible:outline-offset-0">
        <Picture
          image={product.image}
          alt=""
          eager={eager}
          sizes={CARD_SIZES}
          className="aspect-square w-full bg-leaf-50 object-cover transition group-hover:scale-[1.02]"
        />
        <div className="p-4">
          <Heading className="font-semibold text-stone-900">{product.name}</Heading>
          <p className="mt-1 text-leaf-800">{formatPrice(product.pricePaise)}</p>
          <div className="mt-1">
            <RatingSummary averageRating={product.averageRating} reviewCount={product.reviewCount} compact />
          </div>
        </div>
      </Link>
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
}: {
  products: ProductSummary[];
  /**
   * The first picture, a phone's largest paint, fetched at once and at high priority. Only the first: React preloads
   * every eager picture in the head, ahead of the stylesheet, where they held back the first paint.
   */
  eagerFirst?: boolean;
  headingLevel?: 2 | 3;
  listRef?: Ref<HTMLUListElement>;
}) {
  return (
    <ul ref={listRef} className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={eagerFirst && index === 0} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
