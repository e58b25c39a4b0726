import { Link } from "react-router";
import type { ProductSummary } from "#common/catalog/catalog-types.ts";
import { formatPrice } from "#common/shared/money.ts";
import { CARD_SIZES, Picture } from "../../../shared/ui/picture.tsx";

/** A product in a grid: first image, name and price, the whole card a link to the product. */
export function ProductCard({ product, eager = false }: { product: ProductSummary; eager?: boolean }) {
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
          <h3 className="font-semibold text-stone-900">{product.name}</h3>
          <p className="mt-1 text-leaf-800">{formatPrice(product.pricePaise)}</p>
        </div>
      </Link>
    </article>
  );
}

export function ProductGrid({ products, eagerCount = 0 }: { products: ProductSummary[]; eagerCount?: number }) {
  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < eagerCount} />
        </li>
      ))}
    </ul>
  );
}
