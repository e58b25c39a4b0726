import { useEffect } from "react";
import { useLocation, type Location } from "react-router";
import { useLoadMoreFocus } from "./load-more-focus.ts";

/** What a list's history entry showed: the items of pages `from` to `page` of the list at `list`, and the saved ones. */
interface Shown {
  list: string;
  from: number;
  page: number;
  items: { id: string }[];
  saved: readonly string[];
}

/**
 * The lists this document showed, by history entry: Load More's navigation names the entry it left (its `state`),
 * whose items the next page shows above its own, and coming back to an entry finds them again. Held in memory, not
 * in the history entry: what the person saved is no business of the next person to use the tab, and a reload
 * starts from what the server says. The newest few only: each holds at most a hundred pages of cards.
 */
const shownByEntry = new Map<string, Shown>();
const ENTRIES_KEPT = 10;

function keep(entry: string, shown: Shown) {
  shownByEntry.delete(entry);
  shownByEntry.set(entry, shown);
  while (shownByEntry.size > ENTRIES_KEPT) shownByEntry.delete(shownByEntry.keys().next().value!);
}

export interface GrowingListOptions {
  /** Which of the page's items the person saved (the hearts of its cards). */
  saved?: readonly string[];
  /** Which of the kept items are saved now, from which the list kept (what the person did since, to their hearts). */
  savedOfKept?: (kept: readonly { id: string }[], saved: readonly string[]) => readonly string[];
  /** The query's name for the page: `page` unless the list shares its address with others (the home page's). */
  pageParam?: string;
}

/** The list an address shows, whatever its page: the path and the query without the page's number. */
function listOf(location: Location, pageParam: string): string {
  const params = new URLSearchParams(location.search);
  params.delete(pageParam);
  // In one order whatever order the address was written in: the next page's link writes it in its own.
  params.sort();
  return `${location.pathname}?${params}`;
}

/** The entry Load More left for this page of the same list, if this document still holds what it showed. */
function shownBefore(state: unknown, list: string, page: number): Shown | undefined {
  const entry = (state as { shownBefore?: unknown } | null)?.shownBefore;
  const shown = typeof entry === "string" ? shownByEntry.get(entry) : undefined;
  return shown && shown.list === list && shown.page === page - 1 ? shown : undefined;
}

/**
 * A list that Load More grows (docs/decisions/064). Each page's loader reads its own twelve only, so a page costs the
 * same at any depth; the next page's entry names this one (`moreState`, Load More's navigation state), and shows
 * this one's items above its own. Back and forward within the document find the whole list again. An address opened
 * afresh at a later page (a reload, a shared link, or any page without JavaScript) shows that page from its start,
 * `from` > 1, with a link to the page before (`earlierPage`; the first page from a page past the list's end, as an
 * old link may be, whose page before may be past it too).
 */
export function useGrowingList<T extends { id: string }>(
  items: T[],
  page: number,
  { saved = [], savedOfKept = (_, keptSaved) => keptSaved, pageParam = "page" }: GrowingListOptions = {},
) {
  const location = useLocation();
  const list = listOf(location, pageParam);
  const before = shownBefore(location.state, list, page);
  // An item both pages hold (the list changed between them) is shown once, where it was first.
  const seen = new Set(before?.items.map((item) => item.id));
  const shown = before ? [...(before.items as T[]), ...items.filter((item) => !seen.has(item.id))] : items;
  const allSaved = before ? [...savedOfKept(before.items, before.saved), ...saved] : saved;
  const from = before?.from ?? page;
  useEffect(() => keep(location.key, { list, from, page, items: shown, saved: allSaved }), [location.key, list, from, page, shown, allSaved]);
  const { listRef, loadingMore } = useLoadMoreFocus(shown.length);
  const earlierPage = from === 1 ? undefined : shown.length === 0 ? 1 : from - 1;
  return { items: shown, saved: allSaved, from, earlierPage, listRef, loadingMore, moreState: { shownBefore: location.key } };
}
