import { useEffect } from "react";
import { toast } from "../../../shared/lib/toast.ts";
import { useFetcher } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";

type AddResult = { ok: true } | { ok: false; message: string };

/**
 * Add to Cart: a form that posts to the product's own action (so it works before JavaScript loads); a
 * visitor's goes into the cart their browser keeps until they sign in; a sold-out plant cannot be added.
 * `variantId` is the size chosen, and `action` the page to post to (the product's page at that size, so
 * without JavaScript the answer shows the size that was added).
 */
export function AddToCart({ productId, variantId, inStock, action = `/product/${productId}` }: { productId: string; variantId?: string; inStock: boolean; action?: string }) {
  const fetcher = useFetcher<AddResult>();
  const result = fetcher.data;

  useEffect(() => {
    if (fetcher.state !== "idle" || !result) return;
    // A refusal is said beside the button (below), where the focus is.
    if (result.ok) toast.success(messages.cart.added);
  }, [fetcher.state, result]);

  if (!inStock) {
    return (
      <button type="button" className="btn-primary" disabled>
        {messages.product.addToCart}
      </button>
    );
  }
  return (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="productId" value={productId} />
      {variantId ? <input type="hidden" name="variantId" value={variantId} /> : null}
      <SubmitButton busy={fetcher.state !== "idle"} busyLabel="Adding to cart">
        {messages.product.addToCart}
      </SubmitButton>
      {result && !result.ok ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {result.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
