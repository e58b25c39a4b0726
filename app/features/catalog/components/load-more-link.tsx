import { Link } from "react-router";
import { messages } from "#common/shared/messages.ts";

/**
 * 'Load More' under a paged list: a plain link to the next page, so that it works without JavaScript; with it, the
 * page grows in place (`replace`, no scroll). `onClick` is useLoadMoreFocus's `loadingMore`.
 */
export function LoadMoreLink({ to, onClick }: { to: string; onClick: () => void }) {
  return (
    <div className="mt-10 text-center">
      <Link to={to} preventScrollReset replace className="btn-outline" onClick={onClick}>
        {messages.shop.loadMore}
      </Link>
    </div>
  );
}
