import { isRouteErrorResponse } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { narrows, queryValues } from "#common/catalog/list-filters.ts";
import { FilterPanel, filteredHref, listSortChoices, NearestLists } from "../features/catalog/components/filter-panel.tsx";
import { NotFound } from "../shared/components/not-found.tsx";
import { CategoryProductList } from "../features/catalog/components/category-product-list.tsx";
import { useGrowingList } from "../features/catalog/components/growing-list.ts";
import { EarlierLink, LoadMoreLink } from "../features/catalog/components/load-more-link.tsx";
import { loadOr404 } from "../shared/lib/service-errors.ts";
import { pageMeta } from "../shared/lib/seo.ts";
import { useProductCardSlots, useSavedOfKept, useSavedOnPage } from "./product-card-slots.tsx";
import type { Route } from "./+types/category";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const values = queryValues(new URL(request.url).searchParams);
  const category = await loadOr404(() => context.services.catalog.getFilteredCategory(params.categoryId, values));
  // The hearts of the cards (none for a visitor, or in the page every shopper shares: context.user is null there).
  const saved = await context.services.wishlist.savedAmong(context.user, category.products.map((product) => product.id));
  return { ...category, saved };
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  data
    ? pageMeta(matches, {
        title: data.name,
        description: data.description,
        path: `/category/${data.id}`,
        image: data.image.url,
      })
    : []; // the error screen names itself

export default function Category({ loaderData: category }: Route.ComponentProps) {
  const { items: products, saved, from, earlierPage, listRef, loadingMore, moreState } = useGrowingList(category.products, category.page, { saved: useSavedOnPage(category.saved), savedOfKept: useSavedOfKept() });
  const slotsFor = useProductCardSlots(saved);
  const path = `/category/${category.id}`;
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{category.name}</h1>
      <p className="mt-2 text-stone-700">{category.description}</p>
      <div className="mt-6">
        <FilterPanel
          filters={category.filters}
          facets={category.facets}
          sort={{ value: category.filters.sort ?? "", choices: listSortChoices(false) }}
          clearHref={path}
        />
      </div>
      {earlierPage ? (
        <div className="mt-8">
          <EarlierLink to={filteredHref(path, category.filters, [], earlierPage)} />
        </div>
      ) : null}
      {products.length === 0 && from === 1 ? (
        <>
          <p className="py-16 text-center text-lg text-stone-700">{narrows(category.filters) ? messages.filters.empty : messages.category.empty}</p>
          <NearestLists nearest={category.nearest} filters={category.filters} path={path} />
        </>
      ) : (
        <CategoryProductList products={products} listRef={listRef} slotsFor={slotsFor} />
      )}
      {category.hasMore ? <LoadMoreLink to={filteredHref(path, category.filters, [], category.page + 1)} state={moreState} onClick={loadingMore} /> : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  throw error;
}
