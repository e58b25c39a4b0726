import { Form, Link, useSubmit } from "react-router";
import { SALE_SORTS } from "#common/catalog/catalog-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { queryValues } from "#common/catalog/list-filters.ts";
import { ProductGrid } from "../features/catalog/components/product-card.tsx";
import { useLoadMoreFocus } from "../features/catalog/components/load-more-focus.ts";
import { LoadMoreLink } from "../features/catalog/components/load-more-link.tsx";
import { pageMeta } from "../shared/lib/seo.ts";
import { loadOrRefuse } from "../shared/lib/service-errors.ts";
import { productCardSlots } from "./product-card-slots.tsx";
import type { Route } from "./+types/sale";

const s = messages.sale;

export function loader({ request, context }: Route.LoaderArgs) {
  const params = queryValues(new URL(request.url).searchParams);
  return loadOrRefuse(() => context.services.catalog.listSalePages(params));
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Sale",
    description: "Plants on sale now, with their regular prices and what you save.",
    path: "/sale",
  });

/** Everything on sale now (docs/decisions/047), paged like the shop: 12 more with each Load More link. */
export default function Sale({ loaderData }: Route.ComponentProps) {
  const { items, hasMore, page, sort } = loaderData;
  const submit = useSubmit();
  const { listRef, loadingMore } = useLoadMoreFocus(items.length);
  const nextPage = new URLSearchParams({ ...(sort === "newest" ? {} : { sort }), page: String(page + 1) });
  return (
    <>
      <div className="bg-leaf-800 py-12 text-center text-white">
        <p className="text-sm font-semibold uppercase tracking-widest text-leaf-100">{s.banner}</p>
        <h1 className="mt-2 text-3xl font-bold sm:text-4xl">{s.heading}</h1>
      </div>
      <div className="container-page mt-8">
        {/* A plain GET form: without JavaScript the button sorts; with it, choosing an order does. */}
        <Form method="get" className="mb-8 flex items-center justify-end gap-2">
          <label htmlFor="sale-sort" className="text-sm font-medium text-stone-700">
            {s.sortLabel}
          </label>
          <select
            id="sale-sort"
            name="sort"
            defaultValue={sort}
            key={sort}
            className="field-input w-auto"
            onChange={(event) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true })}
          >
            {SALE_SORTS.map((value) => (
              <option key={value} value={value}>
                {s.sorts[value]}
              </option>
            ))}
          </select>
          <button type="submit" className="btn-outline">
            Sort
          </button>
        </Form>
        {items.length === 0 ? (
          <p className="py-16 text-center text-lg text-stone-700">
            {s.empty}{" "}
            <Link to="/shop" className="font-semibold text-leaf-800 underline">
              Shop all plants
            </Link>
          </p>
        ) : (
          <ProductGrid products={items} eagerFirst headingLevel={2} listRef={listRef} slotsFor={productCardSlots} />
        )}
        {hasMore ? <LoadMoreLink to={`/sale?${nextPage}`} onClick={loadingMore} /> : null}
      </div>
    </>
  );
}
