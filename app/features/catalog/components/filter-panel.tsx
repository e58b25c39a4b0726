import type { ReactNode } from "react";
import { Form, Link, useLocation, useNavigation, useSubmit } from "react-router";
import { DIFFICULTIES, LIGHT_LEVELS } from "#common/catalog/care-profile.ts";
import { chosenGroups, listFilterParams, optionKey, PLACE_FILTERS, PRICE_FILTER_MAX_RUPEES, withoutGroup, type CountWithout, type FacetCount, type FilterGroup, type ListFilters } from "#common/catalog/list-filters.ts";
import { messages } from "#common/shared/messages.ts";
import { Spinner } from "../../../shared/ui/spinner.tsx";

const t = messages.filters;

/** One order a list offers: its address value ("" for the list's own) and its words. */
export interface SortChoice {
  value: string;
  label: string;
}

/**
 * The address of a list with these filters: `path`, the list's own values first (a search's q), then the filters
 * in one order (listFilterParams), then the page. What Load More and 'Clear filters' link to.
 */
export function filteredHref(path: string, filters: ListFilters, extra: [string, string][] = [], page?: number): string {
  const params = new URLSearchParams([...extra, ...listFilterParams(filters), ...(page && page > 1 ? [["page", String(page)] as [string, string]] : [])]);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The filters of a shop list (decision on filters: common/catalog/list-filters.ts): a plain GET form, so without
 * JavaScript 'Apply' loads the filtered list; with it, each change submits through the router, so the list updates
 * without a full reload and the address (the whole state) changes with it, one history entry per change, so back
 * and forward step through them. Each option shows how many plants it would leave.
 *
 * `hidden` are the list's own values kept through a change (a search's q); `sort` is the order's field (its name,
 * current value and choices), since /sale has orders of its own.
 */
export function FilterPanel({
  filters,
  facets,
  hidden = [],
  sort,
  clearHref,
}: {
  filters: ListFilters;
  facets: FacetCount[];
  hidden?: [string, string][];
  sort: { value: string; choices: SortChoice[] };
  clearHref: string;
}) {
  const submit = useSubmit();
  const location = useLocation();
  const navigation = useNavigation();
  const updating = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const count = new Map(facets.map((facet) => [optionKey(facet), facet]));
  const countOf = (name: string, value: string) => {
    const facet = count.get(`${name}=${value}`);
    return facet ? ` ${t.count(facet.count, facet.capped)}` : "";
  };
  // The form's values without the empty ones (no price, any place, the list's own order): one short address.
  const submitNow = (form: HTMLFormElement) => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.append(name, value.trim());
    void submit(params, { method: "get", action: location.pathname, preventScrollReset: true });
  };
  // A change of a box or of the order submits at once; typed prices wait for Apply (or Enter).
  const onChange = (event: React.ChangeEvent<HTMLFormElement>) => {
    if (event.target instanceof HTMLInputElement && event.target.type === "number") return;
    submitNow(event.currentTarget);
  };
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitNow(event.currentTarget);
  };
  const anyFilter = listFilterParams({ ...filters, sort: undefined }).length > 0 || sort.value !== "";
  const chosenCount = chosenGroups(filters).length;
  return (
    // Keyed by the address: back and forward show the boxes of the list they return to.
    <Form method="get" key={location.search} onChange={onChange} onSubmit={onSubmit} aria-labelledby="filters-heading" className="mb-8 rounded-lg border border-stone-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="filters-heading" className="text-lg font-semibold text-stone-900">
          {t.heading}
        </h2>
        <div aria-live="polite" className="min-h-6 text-sm text-stone-600">
          {updating ? <Spinner label={t.updating} /> : null}
        </div>
      </div>
      {hidden.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {/* On a phone the groups fold behind 'Show filters' (a native disclosure: no JavaScript needed), so the plants
          start on the first screen; open while a filter or an order is chosen. From sm up they always show (app.css). */}
      <details className="filter-groups group mt-3" open={anyFilter}>
        <summary className="btn-outline cursor-pointer sm:hidden">
          <span className="group-open:hidden">{t.show}</span>
          <span className="hidden group-open:inline">{t.hide}</span>
          {chosenCount ? ` ${t.chosen(chosenCount)}` : null}
        </summary>
        <div className="mt-3 grid gap-4 sm:mt-0 sm:grid-cols-2 lg:grid-cols-3">
          <CheckGroup legend={t.light} name="light" options={LIGHT_LEVELS} labels={t.lights} chosen={filters.light} countOf={countOf} />
          <CheckGroup legend={t.care} name="care" options={DIFFICULTIES} labels={t.cares} chosen={filters.care} countOf={countOf} />
          <Group legend={t.place}>
            <Radio name="place" value="" checked={!filters.place} label={t.places.any} />
            {PLACE_FILTERS.map((place) => (
              <Radio key={place} name="place" value={place} checked={filters.place === place} label={t.places[place] + countOf("place", place)} />
            ))}
          </Group>
          <Group legend={t.pets}>
            <Check name="pets" value="safe" checked={filters.petSafe} label={t.petSafe + countOf("pets", "safe")} />
          </Group>
          <Group legend={t.stock}>
            <Check name="stock" value="1" checked={filters.inStock} label={t.inStock + countOf("stock", "1")} />
          </Group>
          <Group legend={t.price}>
            <div className="flex items-center gap-2">
              <RupeesField name="min" value={filters.minRupees} placeholder={t.minPlaceholder} label={t.minPrice} />
              <span aria-hidden="true">–</span>
              <RupeesField name="max" value={filters.maxRupees} placeholder={t.maxPlaceholder} label={t.maxPrice} />
            </div>
          </Group>
        </div>
      </details>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <label htmlFor="list-sort" className="text-sm font-medium text-stone-700">
          {t.sortLabel}
        </label>
        <select id="list-sort" name="sort" defaultValue={sort.value} className="field-input w-auto">
          {sort.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-primary">
          {t.apply}
        </button>
        {anyFilter ? (
          <Link to={clearHref} preventScrollReset className="text-sm font-semibold text-leaf-800 underline">
            {t.clear}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** One end of the price range, in whole rupees; typed values apply on 'Apply' or Enter. */
function RupeesField({ name, value, placeholder, label }: { name: string; value: number | undefined; placeholder: string; label: string }) {
  return (
    <input
      type="number"
      name={name}
      min={0}
      max={PRICE_FILTER_MAX_RUPEES}
      step={1}
      inputMode="numeric"
      defaultValue={value ?? ""}
      placeholder={placeholder}
      aria-label={label}
      className="field-input w-28"
    />
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-semibold text-stone-800">{legend}</legend>
      <div className="flex flex-col gap-1">{children}</div>
    </fieldset>
  );
}

/** A filter of which any options may be ticked (light, care): a box per option, in the list's order, with its count. */
function CheckGroup<Option extends string>({
  legend,
  name,
  options,
  labels,
  chosen,
  countOf,
}: {
  legend: string;
  name: string;
  options: readonly Option[];
  labels: Record<Option, string>;
  chosen: readonly Option[];
  countOf: (name: string, value: string) => string;
}) {
  return (
    <Group legend={legend}>
      {options.map((option) => (
        <Check key={option} name={name} value={option} checked={chosen.includes(option)} label={labels[option] + countOf(name, option)} />
      ))}
    </Group>
  );
}

function Check({ name, value, checked, label }: { name: string; value: string; checked: boolean; label: string }) {
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700">
      <input type="checkbox" name={name} value={value} defaultChecked={checked} className="h-4 w-4" />
      {label}
    </label>
  );
}

function Radio({ name, value, checked, label }: { name: string; value: string; checked: boolean; label: string }) {
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700">
      <input type="radio" name={name} value={value} defaultChecked={checked} className="h-4 w-4" />
      {label}
    </label>
  );
}

/** The shop's orders for a list: its own first (featured, or a search's best match), then the shopper's choices. */
export function listSortChoices(search: boolean): SortChoice[] {
  return [
    { value: "", label: search ? t.sorts.bestMatch : t.sorts.featured },
    { value: "newest", label: t.sorts.newest },
    { value: "price-asc", label: t.sorts["price-asc"] },
    { value: "price-desc", label: t.sorts["price-desc"] },
    { value: "rating", label: t.sorts.rating },
  ];
}

/** What a group of filters holds now, in the panel's words ("Low light, Medium light", "₹300 to ₹500"). */
function chosenWords(filters: ListFilters, group: FilterGroup): string {
  switch (group) {
    case "light":
      return filters.light.map((level) => t.lights[level]).join(", ");
    case "pets":
      return t.petSafe;
    case "care":
      return filters.care.map((difficulty) => t.cares[difficulty]).join(", ");
    case "place":
      return filters.place ? t.places[filters.place] : "";
    case "stock":
      return t.inStock;
    case "price":
      return t.priceRange(filters.minRupees, filters.maxRupees);
  }
}

/**
 * Under a list the filters left empty: a link for each group whose removal leaves plants, with how many, so the
 * shopper sees the nearest lists instead of a dead end. Plain links: they work without JavaScript. `own` are the
 * list's own values kept (a search's q, the plant finder's mark, /sale's order).
 */
export function NearestLists({ nearest, filters, path, own = [] }: { nearest: CountWithout[]; filters: ListFilters; path: string; own?: [string, string][] }) {
  const open = nearest.filter((lessOne) => lessOne.count > 0);
  if (open.length === 0) return null;
  return (
    <nav aria-labelledby="nearest-heading" className="mx-auto mb-12 max-w-2xl text-center">
      <h2 id="nearest-heading" className="text-base font-semibold text-stone-800">
        {t.nearest}
      </h2>
      <ul className="mt-3 flex flex-wrap justify-center gap-2">
        {open.map(({ group, count, capped }) => (
          <li key={group}>
            <Link to={filteredHref(path, withoutGroup(filters, group), own)} className="btn-outline">
              {t.without(chosenWords(filters, group))} {t.count(count, capped)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
