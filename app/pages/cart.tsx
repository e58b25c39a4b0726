import { useEffect } from "react";
import { toast } from "../shared/lib/toast.ts";
import { Link, useFetcher } from "react-router";
import type { CartLine } from "#common/cart/cart-types.ts";
import { messages } from "#common/shared/messages.ts";
import { formatPrice } from "#common/shared/money.ts";
import { OrderSummary } from "../features/orders/components/order-summary.tsx";
import { CloseIcon } from "../shared/ui/icons.tsx";
import { Picture } from "../shared/ui/picture.tsx";
import { actionResult, loadOrRefuse } from "../shared/lib/service-errors.ts";
import { requireUser } from "../shared/lib/session.ts";
import type { Route } from "./+types/cart";
import { privatePageMeta } from "../shared/lib/seo.ts";
import { readFormFields } from "../shared/lib/forms.ts";
import { inertWhen } from "../shared/ui/submit-button.tsx";

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, "Cart");

export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return loadOrRefuse(() => context.services.cart.getCart(user));
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  const { cart } = context.services;
  if (form.intent === "remove") {
    return actionResult(() => cart.removeItem(user, form.itemId).then(() => ({})), { intent: "remove" as const });
  }
  return actionResult(() => cart.setQuantity(user, form.itemId, form).then(() => ({})), { intent: "set-quantity" as const });
}

export default function Cart({ loaderData: cart }: Route.ComponentProps) {
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
            <OrderSummary itemCount={cart.itemCount} subtotalPaise={cart.subtotalPaise} shippingPaise={cart.shippingPaise} totalPaise={cart.totalPaise}>
              <Link to="/checkout" className="btn-primary mt-6 w-full">
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
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 p-4" aria-label={line.name}>
      <Picture image={line.image} alt="" sizes="80px" eager={first} className="size-20 shrink-0 rounded-xl bg-leaf-50 object-cover" />
      <div className="min-w-40 flex-1">
        {line.productId ? (
          <>
            <Link to={`/product/${line.productId}`} className="font-semibold text-stone-900 hover:underline">
              {line.name}
            </Link>
            <p className="text-leaf-800">{formatPrice(line.unitPricePaise)}</p>
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
        {quantityButton(line.quantity - 1, `One fewer ${line.name}`, "−")}
        <span className="w-8 text-center font-semibold" aria-label={`Quantity of ${line.name}`}>
          {line.quantity}
        </span>
        {quantityButton(line.quantity + 1, `One more ${line.name}`, "+", line.quantity >= line.stock)}
      </div>
      <fetcher.Form method="post">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="itemId" value={line.id} />
        <button type="submit" aria-label={`Remove ${line.name}`} {...inertWhen(busy)} className="rounded-full p-2 text-stone-600 hover:bg-red-50 hover:text-red-700">
          <CloseIcon width={20} height={20} />
        </button>
      </fetcher.Form>
    </li>
  );
}
