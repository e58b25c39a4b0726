import { Link } from "react-router";
import { messages } from "#common/shared/messages.ts";

/**
 * 'Load More' under a paged list: a plain link to the next page, so that it works without JavaScript; with it, the
 * page grows in place (`replace`, no scroll): its `state` (useGrowingList's `moreState`) names the entry it leaves,
 * whose items the next page shows above its own. `onClick` is useGrowingList's `loadingMore`.
 */
export function LoadMoreLink({ to, state, onClick }: { to: string; state: unknown; onClick: () => void }) {
  return (
    <div className="mt-10 text-center">
      <Link to={to} state={state} preventScrollReset replace className="btn-outline" onClick={onClick}>
        {messages.shop.loadMore}
      </Link>
    </div>
  );
}

/** Above a list shown from a later page (useGrowingList's `from` > 1): the page before it. */
export function EarlierLink({ to, label = messages.shop.earlier }: { to: string; label?: string }) {
  return (
    <div className="mb-6 text-center">
      <Link to={to} className="btn-outline">
        {label}
      </Link>
    </div>
  );
}
