import { useEffect } from "react";
import { toast } from "../shared/lib/toast.ts";
import { data, Link, useFetcher } from "react-router";
import type { CartLine } from "#common/cart/cart-types.ts";
import { sellableName, sizeLine } from "#common/catalog/variant-names.ts";
import { messages } from "#common/shared/messages.ts";
import { Price } from "../shared/ui/price.tsx";
import { cartSummary, OrderSummary } from "../features/orders/components/order-summary.tsx";
import { CouponForm, type CouponOutcome } from "../features/orders/components/coupon-form.tsx";
import { CloseIcon } from "../shared/ui/icons.tsx";
import { Picture } from "../shared/ui/picture.tsx";
import { actionResult, loadOrRefuse } from "../shared/lib/service-errors.ts";
import type { Route } from "./+types/cart";
import { privatePageMeta } from "../shared/lib/seo.ts";
import { rememberedPin } from "../shared/lib/pin-cookie.ts";
import { readFormFields } from "../shared/lib/forms.ts";
import { inertWhen } from "../shared/ui/submit-button.tsx";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Cart");

/**
 * A signed-in shopper's cart, or a visitor's (docs/decisions/037): the same page, the same rules. A shopper who
 * checked a PIN code (the remembered one, docs/decisions/053) sees the shipping of its zone, as the checkout will
 * charge it; without one, the shop's flat fee.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { cart, delivery } = context.services;
  if (context.user) {
    const user = context.user;
    const pin = rememberedPin(request);
    const answer = pin ? await loadOrRefuse(() => delivery.checkDelivery({ pin })) : null;
    const zone = answer?.delivers ? answer.zone : null;
    const priced = await loadOrRefuse(() => cart.getCart(user, zone ? { feePaise: zone.feePaise, freeAbovePaise: zone.freeAbovePaise } : undefined));
    return { cart: priced, visitor: false, delivery: answer };
  }
  const { cart: visitorCart, outcome } = await loadOrRefuse(() => cart.getVisitorCart(context.visitorCart.token));
  return data({ cart: visitorCart, visitor: true, delivery: null }, { headers: setCookies(context.visitorCart.write(outcome)) });
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const { cart } = context.services;
  if (form.intent === "apply-coupon" || form.intent === "remove-coupon") {
    const intent = form.intent;
    // A visitor is asked to log in by the service (docs/decisions/046).
    return actionResult(() => (intent === "apply-coupon" ? cart.applyCoupon(context.user, form) : cart.removeCoupon(context.user)).then(() => ({})), { intent });
  }
  const intent = form.intent === "remove" ? ("remove" as const) : ("set-quantity" as const);
  if (context.user) {
    const user = context.user;
    if (intent === "remove") return actionResult(() => cart.removeItem(user, form.itemId).then(() => ({})), { intent });
    return actionResult(() => cart.setQuantity(user, form.itemId, form).then(() => ({})), { intent });
  }
  const token = context.visitorCart.token;
  const change = () => (intent === "remove" ? cart.removeVisitorItem(token, form.itemId) : cart.setVisitorQuantity(token, form.itemId, form));
  let cookies: string[] = [];
  const result = await actionResult(() => change().then((outcome) => ((cookies = context.visitorCart.write(outcome)), {})), { intent });
  return "data" in result ? result : data(result, { headers: setCookies(cookies) });
}

function setCookies(cookies: string[]): Headers {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

export default function Cart({ loaderData: { cart, visitor, delivery }, actionData }: Route.ComponentProps) {
  const couponOutcome = actionData && (actionData.intent === "apply-coupon" || actionData.intent === "remove-coupon") ? (actionData as CouponOutcome) : undefined;
  return (
    <section className="container-page py-10">
      <h1 className="mb-8 text-3xl font-bold text-stone-900">Cart</h1>
      {cart.lines.length === 0 ? (
        <div className="py-16 text-center">
          <p className="text-lg text-stone-700">{messages.cart.empty}</p>
          <Link to="/shop" className="btn-primary mt-6">
            Browse the shop
          </Link>
        </div>
      ) : (
        <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
          <ul className="divide-y divide-stone-200 rounded-2xl border border-stone-200">
            {cart.lines.map((line, index) => (
              <CartRow key={line.id} line={line} first={index === 0} />
            ))}
          </ul>
          {cart.itemCount > 0 ? (
            <OrderSummary {...cartSummary(cart)}>
              {delivery ? (
                <p data-testid="cart-delivery" className="mt-3 text-sm text-stone-700">
                  {delivery.text}
                </p>
              ) : null}
              <CouponForm coupon={cart.coupon} visitor={visitor} outcome={couponOutcome} loginTo="/cart" />
              {/* A visitor signs in or registers first, and comes back here with the cart merged into the account's. */}
              <Link to={visitor ? `/login?redirectTo=${encodeURIComponent("/cart")}` : "/checkout"} className="btn-primary mt-6 w-full">
                {messages.cart.checkOut}
              </Link>
            </OrderSummary>
          ) : (
            <p role="status" className="rounded-2xl border border-stone-200 bg-leaf-50 p-6 text-stone-800">
              {messages.cart.nothingToOrder}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * One line: picture, name, price, − quantity +, remove. Each button is a small form of its own. The first
 * line's picture is the page's largest paint on a phone: never lazy, fetched at high priority (docs/decisions/028).
 */
function CartRow({ line, first }: { line: CartLine; first: boolean }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string; intent: "remove" | "set-quantity" }>();
  const result = fetcher.data;
  useEffect(() => {
    if (fetcher.state !== "idle" || !result || result.ok) return;
    toast.error(`${result.intent === "remove" ? messages.cart.removeFailed : messages.cart.updateFailed} ${result.message ?? ""}`.trim());
  }, [fetcher.state, result]);
  const busy = fetcher.state !== "idle";
  // Two sizes of one plant are two lines: their buttons' names say the size, so a screen reader tells them apart.
  const named = line.productId ? sellableName(line.name, line.variantLabel) : line.name;
  const size = line.productId ? sizeLine(line.variantLabel) : null;
  const quantityButton = (quantity: number, label: string, text: string, disabled = false) => (
    <fetcher.Form method="post">
      <input type="hidden" name="itemId" value={line.id} />
      <input type="hidden" name="quantity" value={quantity} />
      <button
        type="submit"
        aria-label={label}
        {...inertWhen(busy || disabled)}
        className="grid size-9 place-items-center rounded-full border border-stone-300 text-lg font-bold hover:bg-leaf-50 aria-disabled:opacity-40"
      >
        {text}
      </button>
    </fetcher.Form>
  );
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4" aria-label={named}>
      <Picture image={line.image} alt="" sizes="80px" eager={first} className="size-20 shrink-0 rounded-xl bg-leaf-50 object-cover" />
      <div className="min-w-40 flex-1">
        {line.productId ? (
          <>
            <Link to={line.variantLabel && line.variantId ? `/product/${line.productId}?variant=${encodeURIComponent(line.variantId)}` : `/product/${line.productId}`} className="font-semibold text-stone-900 hover:underline">
              {line.name}
            </Link>
            {size ? <p className="text-sm text-stone-600">{size}</p> : null}
            <p>
              <Price pricePaise={line.unitPricePaise} sale={line.sale} />
            </p>
          </>
        ) : (
          <p className="font-semibold text-stone-900">{line.name}</p>
        )}
        {line.available ? null : (
          <p className="text-sm font-medium text-red-700">
            {line.stock === 0 ? messages.cart.unavailable : `${messages.cart.onlyLeft(line.stock)} Lower the quantity to order it.`}
          </p>
        )}
      </div>
      <div className="flex items-center gap-2">
        {quantityButton(line.quantity - 1, `One fewer ${named}`, "−")}
        <span className="w-8 text-center font-semibold" aria-label={`Quantity of ${named}`}>
          {line.quantity}
        </span>
        {quantityButton(line.quantity + 1, `One more ${named}`, "+", line.quantity >= line.stock)}
      </div>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="itemId" value={line.id} />
        <button type="submit" aria-label={`Remove ${named}`} {...inertWhen(busy)} className="rounded-full p-2 text-stone-600 hover:bg-red-50 hover:text-red-700">
          <CloseIcon width={20} height={20} />
        </button>
      </fetcher.Form>
    </li>
  );
}
