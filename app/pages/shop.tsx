import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigation, useSubmit } from "react-router";
import { FINDER_MARK, finderReason } from "#common/catalog/plant-finder.ts";
import { messages } from "#common/shared/messages.ts";
import { listFilterParams, narrows, NO_FILTERS, queryValues } from "#common/catalog/list-filters.ts";
import { FilterPanel, filteredHref, listSortChoices, NearestLists } from "../features/catalog/components/filter-panel.tsx";
import { ProductGrid } from "../features/catalog/components/product-card.tsx";
import { SearchCombobox } from "../features/catalog/components/search-combobox.tsx";
import { useGrowingList } from "../features/catalog/components/growing-list.ts";
import { EarlierLink, LoadMoreLink } from "../features/catalog/components/load-more-link.tsx";
import { SearchIcon } from "../shared/ui/icons.tsx";
import { Spinner } from "../shared/ui/spinner.tsx";
import { pageMeta } from "../shared/lib/seo.ts";
import { loadOrRefuse } from "../shared/lib/service-errors.ts";
import { useProductCardSlots, useSavedOfKept, useSavedOnPage } from "./product-card-slots.tsx";
import type { Route } from "./+types/shop";

const TYPING_PAUSE_MS = 300;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = queryValues(new URL(request.url).searchParams);
  const page = await loadOrRefuse(() => context.services.catalog.listShopPages(params, context.request));
  // The hearts of the cards (none for a visitor, or in the page every shopper shares: context.user is null there).
  const saved = await context.services.wishlist.savedAmong(context.user, page.items.map((product) => product.id));
  return { ...page, saved };
}

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageMeta(matches, {
    title: data?.q ? `Search: ${data.q}` : "Shop",
    description: "Browse all our plants: indoor plants, succulents, flowering and outdoor plants.",
    path: "/shop",
  });

export default function Shop({ loaderData }: Route.ComponentProps) {
  const { hasMore, page, q, filters, facets, nearest } = loaderData;
  const { items, saved, from, earlierPage, listRef, loadingMore, moreState } = useGrowingList(loaderData.items, page, { saved: useSavedOnPage(loaderData.saved), savedOfKept: useSavedOfKept() });
  const slotsFor = useProductCardSlots(saved);
  const submit = useSubmit();
  const navigation = useNavigation();
  const input = useRef<HTMLInputElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const searching = navigation.state === "loading" && navigation.location.pathname === "/shop";

  // Keep the box in step with the address (back/forward, or a search link).
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = q ?? "";
  }, [q]);


  // A list the plant finder ended on keeps its mark through filter changes and Load More, so it goes on saying why.
  const location = useLocation();
  const finderSentence = finderReason(new URLSearchParams(location.search));
  const own: [string, string][] = [...(q ? ([["q", q]] as [string, string][]) : []), ...(finderSentence ? ([["finder", FINDER_MARK]] as [string, string][]) : [])];
  return (
    <>
      <div className="bg-leaf-800 py-12 text-center text-white">
        <p className="text-sm font-semibold uppercase tracking-widest text-leaf-100">{messages.shop.banner}</p>
        <h1 className="mt-2 text-3xl font-bold sm:text-4xl">{messages.shop.heading}</h1>
      </div>
      <div className="container-page mt-8">
        <Form method="get" role="search" className="mx-auto mb-8 flex max-w-xl items-center gap-2">
          <label htmlFor="shop-search" className="sr-only">
            Search products
          </label>
          <div className="relative flex-1">
            <SearchIcon className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-stone-500" width={20} height={20} />
            <SearchCombobox
              id="shop-search"
              name="q"
              inputRef={input}
              defaultValue={q ?? ""}
              placeholder={messages.shop.searchPlaceholder}
              className="field-input pl-10"
              onTextChange={(field) => {
                const form = field.form;
                clearTimeout(typingTimer.current);
                typingTimer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), TYPING_PAUSE_MS);
              }}
              // A suggestion opened within the typing pause: the list's search would otherwise run after it and
              // bring the shopper back to the results.
              onChoose={() => clearTimeout(typingTimer.current)}
            />
          </div>
          {/* A new search keeps the filters chosen. */}
          {listFilterParams(filters).map(([name, value]) => (
            <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" className="btn-primary">
            Search
          </button>
        </Form>
        {finderSentence ? (
          <p className="mx-auto mb-6 max-w-2xl rounded-xl bg-leaf-50 p-4 text-center text-stone-800">
            {/* The answers' reasons only over plants: over an empty list they would describe nothing. */}
            {items.length === 0 ? messages.plantFinder.noneYet : finderSentence}{" "}
            <Link to="/plant-finder" className="font-semibold text-leaf-800 underline">
              {messages.plantFinder.again}
            </Link>
          </p>
        ) : null}
        <FilterPanel filters={filters} facets={facets} hidden={own} sort={{ value: filters.sort ?? "", choices: listSortChoices(Boolean(q)) }} clearHref={filteredHref("/shop", NO_FILTERS, q ? [["q", q]] : [])} />
        <div aria-live="polite" className="min-h-6 text-center text-sm text-stone-600">
          {searching ? <Spinner label="Searching" /> : null}
        </div>

        {earlierPage ? <EarlierLink to={filteredHref("/shop", filters, own, earlierPage)} /> : null}
        {items.length === 0 && from === 1 ? (
          <>
            <p className="py-16 text-center text-lg text-stone-700">{narrows(filters) ? messages.filters.empty : messages.shop.empty}</p>
            <NearestLists nearest={nearest} filters={filters} path="/shop" own={own} />
          </>
        ) : (
          <ProductGrid products={items} eagerFirst headingLevel={2} listRef={listRef} slotsFor={slotsFor} />
        )}
        {hasMore ? <LoadMoreLink to={filteredHref("/shop", filters, own, page + 1)} state={moreState} onClick={loadingMore} /> : null}
      </div>
    </>
  );
}
