import { isRouteErrorResponse, Link } from "react-router";
import { formatPriceExact } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { NotFound } from "../shared/components/not-found.tsx";
import { Picture } from "../shared/ui/picture.tsx";
import { RatingSummary } from "../features/reviews/components/stars.tsx";
import { useLoadMoreFocus } from "../features/catalog/components/load-more-focus.ts";
import { loadOr404 } from "../shared/lib/service-errors.ts";
import { pageMeta } from "../shared/lib/seo.ts";
import type { Route } from "./+types/category";

export function loader({ params, request, context }: Route.LoaderArgs) {
  const page = new URL(request.url).searchParams.get("page") ?? undefined;
  return loadOr404(() => context.services.catalog.getCategory({ ...params, page }));
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
  const { listRef, loadingMore } = useLoadMoreFocus(category.products.length);
  return (
    <section className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{category.name}</h1>
      <p className="mt-2 text-stone-700">{category.description}</p>
      {category.products.length === 0 ? (
        <p className="py-16 text-center text-lg text-stone-700">{messages.category.empty}</p>
      ) : (
        <ul ref={listRef} className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {category.products.map((product, index) => (
            <li key={product.id} className="flex flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
              <Picture
                image={product.image}
                alt=""
                // Only the first: an eager picture is preloaded in the head, ahead of the stylesheet.
                eager={index === 0}
                // One column on a phone, two from sm, three from lg.
                sizes="(min-width: 1024px) 400px, (min-width: 640px) 50vw, 100vw"
                className="aspect-square w-full bg-leaf-50 object-cover" />
              <div className="flex flex-1 flex-col p-5">
                <h2 className="text-lg font-semibold text-stone-900">{product.name}</h2>
                <p className="mt-2 line-clamp-3 flex-1 text-sm text-stone-700">{product.description}</p>
                <p className="mt-3 font-semibold text-leaf-800">{formatPriceExact(product.pricePaise)}</p>
                <RatingSummary averageRating={product.averageRating} reviewCount={product.reviewCount} compact />
                <Link
                  to={`/product/${product.id}`}
                  className="btn-outline mt-4"
                  aria-label={`${messages.category.viewProduct}: ${product.name}`}
                >
                  {messages.category.viewProduct}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      {category.hasMore ? (
        // Pages 1..page come together, so 'Load More' is a plain link that works without JavaScript.
        <div className="mt-10 text-center">
          <Link to={`/category/${category.id}?page=${category.page + 1}`} preventScrollReset replace className="btn-outline" onClick={loadingMore}>
            {messages.shop.loadMore}
          </Link>
        </div>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  throw error;
}
