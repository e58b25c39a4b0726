import { Link } from "react-router";
import { SALE_SORTS } from "#common/catalog/catalog-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { narrows, queryValues } from "#common/catalog/list-filters.ts";
import { FilterPanel, filteredHref, NearestLists } from "../features/catalog/components/filter-panel.tsx";
import { ProductGrid } from "../features/catalog/components/product-card.tsx";
import { useGrowingList } from "../features/catalog/components/growing-list.ts";
import { EarlierLink, LoadMoreLink } from "../features/catalog/components/load-more-link.tsx";
import { pageMeta } from "../shared/lib/seo.ts";
import { loadOrRefuse } from "../shared/lib/service-errors.ts";
import { useProductCardSlots, useSavedOfKept, useSavedOnPage } from "./product-card-slots.tsx";
import type { Route } from "./+types/sale";

const s = messages.sale;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = queryValues(new URL(request.url).searchParams);
  const page = await loadOrRefuse(() => context.services.catalog.listSalePages(params));
  // The hearts of the cards (none for a visitor, or in the page every shopper shares: context.user is null there).
  const saved = await context.services.wishlist.savedAmong(context.user, page.items.map((product) => product.id));
  return { ...page, saved };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Sale",
    description: "Plants on sale now, with their regular prices and what you save.",
    path: "/sale",
  });

/** Everything on sale now (docs/decisions/047), paged like the shop: 12 more with each Load More link. */
export default function Sale({ loaderData }: Route.ComponentProps) {
  const { hasMore, page, sort, filters, facets, nearest } = loaderData;
  const { items, saved, from, earlierPage, listRef, loadingMore, moreState } = useGrowingList(loaderData.items, page, { saved: useSavedOnPage(loaderData.saved), savedOfKept: useSavedOfKept() });
  const slotsFor = useProductCardSlots(saved);
  const own: [string, string][] = sort === "newest" ? [] : [["sort", sort]];
  return (
    <>
      <div className="bg-leaf-800 py-12 text-center text-white">
        <p className="text-sm font-semibold uppercase tracking-widest text-leaf-100">{s.banner}</p>
        <h1 className="mt-2 text-3xl font-bold sm:text-4xl">{s.heading}</h1>
      </div>
      <div className="container-page mt-8">
        <FilterPanel
          filters={filters}
          facets={facets}
          sort={{ value: sort === "newest" ? "" : sort, choices: SALE_SORTS.map((value) => ({ value: value === "newest" ? "" : value, label: s.sorts[value] })) }}
          clearHref="/sale"
        />
        {earlierPage ? <EarlierLink to={filteredHref("/sale", filters, own, earlierPage)} /> : null}
        {items.length > 0 || from > 1 ? (
          <ProductGrid products={items} eagerFirst headingLevel={2} listRef={listRef} slotsFor={slotsFor} />
        ) : narrows(filters) ? (
          <>
            <p className="py-16 text-center text-lg text-stone-700">{messages.filters.empty}</p>
            <NearestLists nearest={nearest} filters={filters} path="/sale" own={own} />
          </>
        ) : (
          <p className="py-16 text-center text-lg text-stone-700">
            {s.empty}{" "}
            <Link to="/shop" className="font-semibold text-leaf-800 underline">
              Shop all plants
            </Link>
          </p>
        )}
        {hasMore ? <LoadMoreLink to={filteredHref("/sale", filters, own, page + 1)} state={moreState} onClick={loadingMore} /> : null}
      </div>
    </>
  );
}
