import { useCallback, useEffect, useRef } from "react";

/**
 * Keyboard focus for 'Load More' (a plain link to the next page, so that it works without JavaScript): once the
 * page has loaded more, focus goes to the first item it brought. Otherwise it would stay on the link, which the
 * last page removes, and drop to the start of the document. `listRef` goes on the list (its items are `li`s,
 * each with a link); `loadingMore` on the link's click.
 */
export function useLoadMoreFocus(itemCount: number) {
  const listRef = useRef<HTMLUListElement>(null);
  const countBefore = useRef<number | null>(null);
  useEffect(() => {
    const before = countBefore.current;
    if (before === null || itemCount <= before) return;
    countBefore.current = null;
    listRef.current?.querySelectorAll(":scope > li")[before]?.querySelector("a")?.focus();
  }, [itemCount]);
  const loadingMore = useCallback(() => {
    countBefore.current = itemCount;
  }, [itemCount]);
  return { listRef, loadingMore };
}
