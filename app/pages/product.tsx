import { useEffect, useState } from "react";
import { data, isRouteErrorResponse, Link, useRouteLoaderData, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { careProperties } from "#common/catalog/care-labels.ts";
import { chosenVariant } from "#common/catalog/variant-names.ts";
import { paiseToDecimal } from "#common/shared/money.ts";
import { messages } from "#common/shared/messages.ts";
import { NotFound } from "../shared/components/not-found.tsx";
import { Carousel } from "../shared/ui/carousel.tsx";
import { Picture } from "../shared/ui/picture.tsx";
import { Price } from "../shared/ui/price.tsx";
import { AddToCart } from "../features/cart/components/add-to-cart.tsx";
import { ReviewForm, type ReviewActionResult } from "../features/reviews/components/review-form.tsx";
import { ReviewList } from "../features/reviews/components/review-list.tsx";
import { RatingSummary } from "../features/reviews/components/stars.tsx";
import { readFormFields } from "../shared/lib/forms.ts";
import { actionResult, loadOr404, loadOrRefuse } from "../shared/lib/service-errors.ts";
import { requireUser } from "../shared/lib/session.ts";
import { pageMeta, shopFrom } from "../shared/lib/seo.ts";
import { useLiveProduct } from "../features/catalog/lib/use-live-product.ts";
import { SizeChoice } from "../features/catalog/components/size-choice.tsx";
import { CareCard } from "../features/catalog/components/care-card.tsx";
import { NotifyMe, STOCK_ALERT_INTENT } from "../features/alerts/components/notify-me.tsx";
import { HeartButton } from "../features/wishlist/components/heart-button.tsx";
import { DeliveryCheck } from "../features/delivery/components/delivery-check.tsx";
import type { Route } from "./+types/product";

/**
 * The product with its reviews: one page of them (newest first, or the page after `reviewsAfter`), the
 * viewer's own review for the form, and who may delete what. The reviews and the average come from here,
 * so re-running this loader when the product changes keeps them live.
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const product = await loadOr404(() => context.services.catalog.getProduct(params));
  const after = new URL(request.url).searchParams.get("reviewsAfter");
  const [reviews, myReview, saved] = await Promise.all([
    loadOrRefuse(() => context.services.reviews.listReviews(product.id, after ? { after } : {})),
    loadOrRefuse(() => context.services.reviews.getMyReview(context.user, product.id)),
    // The heart: false in the page every shopper shares, whose heart the server fills for each person.
    context.services.wishlist.isSaved(context.user, product.id),
  ]);
  const viewer = context.user ? { id: context.user.id, isAdmin: context.user.isAdmin } : null;
  // A page shared by every signed-in shopper is one whose viewer has no review of this product (docs/decisions/045,
  // server/shopper-pages.ts).
  const signedIn = viewer !== null || context.sharedWithShoppers;
  return { ...product, reviews, reviewsAfter: after, myReview, viewer, signedIn, saved };
}

/** The page's forms: a review written or deleted, a back-in-stock alert (`intent`), else Add to Cart. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await readFormFields(request);
  // "Notify me when it's back": a visitor gives an address, a signed-in shopper is known.
  if (form.intent === STOCK_ALERT_INTENT) {
    return actionResult(() => context.services.alerts.subscribe(context.user, form, { clientIp: context.clientIp }), { intent: STOCK_ALERT_INTENT });
  }
  // A visitor's Add to Cart goes into the cart their cookie keeps (docs/decisions/037); reviews need an account.
  if (!context.user && form.intent === undefined) return addToVisitorCart(context, form);
  const user = requireUser(context, request);
  if (form.intent === "review-save") {
    return reviewAction("review-save", () => context.services.reviews.saveMyReview(user, params.productId, form));
  }
  if (form.intent === "review-delete") {
    return reviewAction("review-delete", () => context.services.reviews.deleteReview(user, params.productId, form.reviewId));
  }
  return actionResult(() => context.services.cart.addToCart(user, form).then(() => ({})));
}

/**
 * Choosing another size changes only `?variant=`, and the loader's data holds every size: the page shows the new
 * one from what it has, with no request. Every other navigation, a form's post and the live re-read load as usual.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const current = new URLSearchParams(currentUrl.search);
  const next = new URLSearchParams(nextUrl.search);
  if (current.get("variant") === next.get("variant")) return defaultShouldRevalidate;
  current.delete("variant");
  next.delete("variant");
  return current.toString() === next.toString() ? false : defaultShouldRevalidate;
}

/** Add to Cart for a visitor: the answer carries the cart's cookie (set on the first add). */
async function addToVisitorCart(context: Route.ActionArgs["context"], form: Record<string, unknown>) {
  let cookies: string[] = [];
  const result = await actionResult(() =>
    context.services.cart.addToVisitorCart(context.visitorCart.token, form, context.request).then((outcome) => ((cookies = context.visitorCart.write(outcome)), {})),
  );
  if ("data" in result) return result;
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return data(result, { headers });
}

/** A review form's answer; a failure of the server itself gets 'Failed to add review. Please try again.' */
async function reviewAction(intent: ReviewActionResult["intent"], run: () => Promise<unknown>) {
  try {
    return await actionResult(() => run().then(() => ({})), { intent });
  } catch (error) {
    console.error(error);
    return data({ ok: false as const, intent, message: messages.reviews.addFailed, fieldErrors: {} }, { status: 500 });
  }
}

export const meta: Route.MetaFunction = ({ matches, data }) => {
  if (!data) return []; // the error screen names itself
  const origin = shopFrom(matches)?.publicUrl ?? "";
  return [
    ...pageMeta(matches, {
      title: data.name,
      description: data.description.slice(0, 160),
      path: `/product/${data.id}`,
      image: data.images[0]?.url,
      type: "product",
    }),
    {
      "script:ld+json": {
        "@context": "https://schema.org",
        "@type": "Product",
        name: data.name,
        description: data.description,
        image: data.images.map((image) => origin + image.url),
        category: data.category.name,
        // A plant in several sizes has a SKU per size, on its offers.
        ...(data.variants.length > 1 ? {} : { sku: data.variants[0]?.sku ?? data.id }),
        offers: productOffers(data, origin),
        // The care profile's parts that are said, as name and value pairs (docs/product.md, Product page).
        ...(careProperties(data.care).length > 0 ? { additionalProperty: careProperties(data.care) } : {}),
        // Only with reviews: an aggregate of none is not valid structured data.
        ...(data.reviewCount > 0 && data.averageRating !== null
          ? { aggregateRating: { "@type": "AggregateRating", ratingValue: data.averageRating, reviewCount: data.reviewCount, bestRating: 5, worstRating: 1 } }
          : {}),
      },
    },
  ];
};

/** The pictures with the one at `first` (a size's own) moved to the front; as they are when it is null. */
function picturesFor<T>(images: readonly T[], first: number | null): readonly T[] {
  const own = first === null ? undefined : images[first];
  return own === undefined ? images : [own, ...images.filter((_, index) => index !== first)];
}

const availability = (stock: number) => (stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");

/**
 * The structured data's offers: one Offer for a plant sold in one size, as always; for several, an AggregateOffer
 * (a kind of Offer, so its lowest `price` stays where readers found it) holding one Offer per size, each with its
 * SKU and the link that opens the page at that size.
 */
function productOffers(product: Route.ComponentProps["loaderData"], origin: string) {
  const url = `${origin}/product/${product.id}`;
  if (product.variants.length <= 1) {
    return { "@type": "Offer", url, priceCurrency: "INR", price: paiseToDecimal(product.pricePaise), availability: availability(product.stock) };
  }
  const prices = product.variants.map((variant) => variant.pricePaise);
  return {
    "@type": "AggregateOffer",
    url,
    priceCurrency: "INR",
    price: paiseToDecimal(Math.min(...prices)),
    lowPrice: paiseToDecimal(Math.min(...prices)),
    highPrice: paiseToDecimal(Math.max(...prices)),
    offerCount: product.variants.length,
    availability: availability(product.stock),
    offers: product.variants.map((variant) => ({
      "@type": "Offer",
      name: variant.label,
      sku: variant.sku,
      url: `${url}?variant=${encodeURIComponent(variant.id)}`,
      ...(variant.pictureIndex !== null && product.images[variant.pictureIndex] ? { image: origin + product.images[variant.pictureIndex]!.url } : {}),
      priceCurrency: "INR",
      price: paiseToDecimal(variant.pricePaise),
      availability: availability(variant.stock),
    })),
  };
}

/**
 * The size the page shows: `?variant=`, or the first (chosenVariant). A choice shows at once and replaces the URL's
 * `?variant=` (no new history entry, no jump to the top), which the live re-read and a reload then keep.
 */
function useChosenSize(product: Route.ComponentProps["loaderData"]) {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get("variant");
  const [picked, setPicked] = useState(requested);
  useEffect(() => setPicked(requested), [requested]);
  const choose = (variantId: string) => {
    setPicked(variantId);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set("variant", variantId);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  const reviewsAfter = searchParams.get("reviewsAfter");
  const keep: Record<string, string> = reviewsAfter ? { reviewsAfter } : {};
  return { variant: chosenVariant(product.variants, picked), choose, keep };
}

export default function Product({ loaderData: product }: Route.ComponentProps) {
  // Stock (and whatever else the loader reads) re-read when the product changes, without a reload.
  useLiveProduct(product.id, product.updatedAt);
  const sized = product.variants.length > 1;
  const size = useChosenSize(product);
  // A plant sold in one size shows the product's own figures, as it always did; else the chosen size's.
  const shown = sized ? size.variant : product;
  const inStock = shown.stock > 0;
  // A size with a picture of its own shows it first (docs/decisions/048); the plant's others follow in their order.
  const pictures = picturesFor(product.images, sized ? size.variant.pictureIndex : null);
  // The product page links to its edit form for admins only (docs/product.md, Product page); the form checks again.
  const isAdmin = (useRouteLoaderData("root") as { user?: { isAdmin: boolean } | null } | undefined)?.user?.isAdmin === true;
  return (
    <article className="container-page grid gap-10 py-10 md:grid-cols-2">
      <Carousel
        label={`Pictures of ${product.name}`}
        className="overflow-hidden rounded-2xl bg-leaf-50"
        slides={
          pictures.length
            ? pictures.map((image, index) => (
                <Picture
                  key={image.url}
                  image={image}
                  eager={index === 0}
                  // Half the page from md (the details take the other half), the whole width on a phone.
                  sizes="(min-width: 1280px) 620px, (min-width: 768px) 50vw, 100vw"
                  className="aspect-square w-full object-cover" />
              ))
            : [<Picture key="placeholder" image={null} alt={product.name} eager className="aspect-square w-full" />]
        }
      />
      <div>
        <Link to={`/category/${product.category.id}`} className="text-sm font-semibold uppercase tracking-wide text-leaf-700 hover:underline">
          {product.category.name}
        </Link>
        <h1 className="mt-2 text-3xl font-bold text-stone-900">{product.name}</h1>
        <p className="mt-3 text-2xl font-semibold" data-testid="product-price">
          <Price pricePaise={shown.pricePaise} sale={shown.sale} />
        </p>
        <div className="mt-2">
          <RatingSummary averageRating={product.averageRating} reviewCount={product.reviewCount} />
        </div>
        <p className={`mt-2 font-medium ${inStock ? "text-stone-700" : "text-red-700"}`}>
          {inStock ? messages.product.availableStock(shown.stock) : messages.product.notInStock}
        </p>
        {sized ? <SizeChoice variants={product.variants} chosenId={size.variant.id} onChoose={size.choose} keep={size.keep} /> : null}
        <p className="mt-6 leading-relaxed text-stone-700">{product.description}</p>
        <CareCard care={product.care} />
        <div className="mt-8 flex flex-wrap items-start gap-3">
          {sized ? (
            <AddToCart
              productId={product.id}
              variantId={size.variant.id}
              inStock={inStock}
              action={`/product/${product.id}?variant=${encodeURIComponent(size.variant.id)}`}
            />
          ) : (
            <AddToCart productId={product.id} inStock={inStock} />
          )}
          <HeartButton productId={product.id} productName={product.name} saved={product.saved} signedIn={product.signedIn} size="page" />
          {inStock ? null : (
            <div className="basis-full">
              <NotifyMe
                key={size.variant.id}
                variantId={size.variant.id}
                signedIn={product.signedIn}
                action={`/product/${product.id}?variant=${encodeURIComponent(size.variant.id)}`}
              />
            </div>
          )}
        </div>
        {/* Asks its own route, never this page's loader: the page is shared, the PIN code is the shopper's own. */}
        <DeliveryCheck productId={product.id} />
        {isAdmin ? (
          <Link to={`/product/${product.id}/edit`} className="btn-outline mt-4 inline-block">
            Edit product
          </Link>
        ) : null}
      </div>
      <div className="md:col-span-2">
        <ReviewList page={product.reviews} after={product.reviewsAfter} viewer={product.viewer} />
        <ReviewForm productId={product.id} mine={product.myReview} signedIn={product.signedIn} />
      </div>
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound message={messages.product.notFound} />;
  throw error;
}
