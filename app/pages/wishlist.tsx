import { Form, Link, redirect } from "react-router";
import { messages } from "#common/shared/messages.ts";
import type { WishlistItem } from "#common/wishlist/wishlist-types.ts";
import { AddToCart } from "../features/cart/components/add-to-cart.tsx";
import { ProductGrid } from "../features/catalog/components/product-card.tsx";
import { HEART_INTENTS } from "../features/wishlist/components/heart-button.tsx";
import { rememberHeart } from "../features/wishlist/lib/heart-answers.ts";
import { usePersonal } from "../shared/components/personal-parts.tsx";
import { readFormFields } from "../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../shared/lib/service-errors.ts";
import { redirectWithCookies, requireUser, safeRedirectTo } from "../shared/lib/session.ts";
import { privatePageMeta } from "../shared/lib/seo.ts";
import type { Route } from "./+types/wishlist";

/** The signed-in shopper's saved plants, newest first, a page at a time (docs/product.md, Wishlist). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const after = new URL(request.url).searchParams.get("after");
  return loadOrRefuse(() => context.services.wishlist.list(user, after ? { after } : {}));
}

/**
 * Every heart's form posts here, and this page's Remove. Without JavaScript the form carries `returnTo`, the page
 * it was on: the browser goes back there, where the heart shows the change (with a toast). A fetcher sends none
 * and gets the new state. A visitor (a session that ended meanwhile) logs in first and comes back to that page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const returnTo = typeof form.returnTo === "string" && form.returnTo ? safeRedirectTo(form.returnTo, "/wishlist") : null;
  if (!context.user) throw redirect(`/login?redirectTo=${encodeURIComponent(returnTo ?? "/wishlist")}`);
  const user = context.user;
  const saving = form.intent === HEART_INTENTS.save;
  const result = await actionResult(() => (saving ? context.services.wishlist.save(user, form.productId) : context.services.wishlist.remove(user, form.productId)));
  if (returnTo && "ok" in result && result.ok) return redirectWithCookies(context, returnTo, [], saving ? "wishlistSaved" : "wishlistRemoved");
  // A heart's fetcher is told the plant's new state: the page's loaders may not read it again (a card Load More
  // kept from an earlier page is in no loader's answer).
  return "ok" in result && result.ok ? { ...result, saved: saving } : result;
}

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, messages.wishlist.title);

export default function Wishlist({ loaderData, actionData }: Route.ComponentProps) {
  const { items, nextCursor } = loaderData;
  const failure = actionData && "ok" in actionData && !actionData.ok ? actionData.message : null;
  const byId = new Map(items.map((item) => [item.product.id, item]));
  return (
    <div className="container-page py-10">
      <h1 className="text-3xl font-bold text-stone-900">{messages.wishlist.heading}</h1>
      {failure ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-red-800">
          {failure}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="py-16 text-center text-lg text-stone-700">
          {messages.wishlist.empty}{" "}
          <Link to="/shop" className="font-semibold text-leaf-700 underline">
            {messages.wishlist.browse}
          </Link>
        </p>
      ) : (
        <div className="mt-8">
          <ProductGrid products={items.map((item) => item.product)} eagerFirst headingLevel={2} slotsFor={(product) => ({ details: <SavedPlantActions item={byId.get(product.id)!} /> })} />
        </div>
      )}
      {nextCursor ? (
        <div className="mt-10 text-center">
          <Link to={`/wishlist?after=${encodeURIComponent(nextCursor)}`} className="btn-outline">
            {messages.wishlist.more}
          </Link>
        </div>
      ) : null}
    </div>
  );
}

/**
 * Under a saved plant's price: its stock, Add to Cart, and Remove. A plant sold in several sizes links to its page
 * to choose one instead: adding its first size for them could put a pot in the cart they did not mean.
 */
function SavedPlantActions({ item }: { item: WishlistItem }) {
  const { product } = item;
  const { data } = usePersonal();
  const userId = data === "marked" ? undefined : data.user?.id;
  const inStock = product.stock > 0;
  return (
    <div className="mt-2 space-y-3">
      <p className={`text-sm font-medium ${inStock ? "text-stone-700" : "text-red-700"}`}>
        {inStock ? messages.product.availableStock(product.stock) : messages.product.notInStock}
      </p>
      {item.sizes > 1 ? (
        <Link to={`/product/${product.id}`} className="btn-primary inline-block" aria-label={`${messages.wishlist.chooseSize}: ${product.name}`}>
          {messages.wishlist.chooseSize}
        </Link>
      ) : (
        <AddToCart productId={product.id} inStock={inStock} />
      )}
      <Form method="post" onSubmit={() => userId && rememberHeart(userId, product.id, false)}>
        <input type="hidden" name="intent" value={HEART_INTENTS.remove} />
        <input type="hidden" name="productId" value={product.id} />
        <input type="hidden" name="returnTo" value="/wishlist" />
        <button type="submit" className="btn-outline" aria-label={messages.wishlist.remove(product.name)}>
          {messages.wishlist.removeButton}
        </button>
      </Form>
    </div>
  );
}
