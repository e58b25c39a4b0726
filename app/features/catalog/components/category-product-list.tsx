import type { Ref } from "react";
import { Link } from "react-router";
import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { Price } from "../../../shared/ui/price.tsx";
import { messages } from "#common/shared/messages.ts";
import { Picture } from "../../../shared/ui/picture.tsx";
import type { ProductCardSlots } from "./product-card.tsx";

/**
 * A category page's products (docs/product.md, Category page): a longer card than the grid's — the description,
 * the price with two decimals and a 'View Product' button — with the same slots as ProductCard, filled by the page.
 * The button is the card's one link, so slot content needs no raising above a stretched link.
 */
export function CategoryProductList({
  products,
  listRef,
  slotsFor,
}: {
  products: ProductSummary[];
  listRef?: Ref<HTMLUListElement>;
  /** What other features add to each card (see ProductCardSlots), from the page that composes them. */
  slotsFor?: (product: ProductSummary) => ProductCardSlots;
}) {
  return (
    <ul ref={listRef} className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {products.map((product, index) => {
        const slots = slotsFor?.(product) ?? {};
        return (
          <li key={product.id} className="relative flex flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
            <Picture
              image={product.image}
              alt=""
              // Only the first: an eager picture is preloaded in the head, ahead of the stylesheet.
              eager={index === 0}
              // One column on a phone, two from sm, three from lg.
              sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw"
              className="aspect-square w-full bg-leaf-50 object-cover" />
            {slots.corner ? <div className="absolute right-2 top-2">{slots.corner}</div> : null}
            <div className="flex flex-1 flex-col p-5">
              <h2 className="text-lg font-semibold text-stone-900">{product.name}</h2>
              <p className="mt-2 line-clamp-3 flex-1 text-sm text-stone-700">{product.description}</p>
              <p className="mt-3 font-semibold">
                <Price pricePaise={product.pricePaise} sale={product.sale} exact from={product.priceVaries} />
              </p>
              {slots.details}
              <Link to={`/product/${product.id}`} className="btn-outline mt-4" aria-label={`${messages.category.viewProduct}: ${product.name}`}>
                {messages.category.viewProduct}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
