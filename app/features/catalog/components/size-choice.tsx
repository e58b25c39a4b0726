import { useEffect, useState } from "react";
import { Form } from "react-router";
import type { ProductVariant } from "#common/catalog/catalog-types.ts";
import { messages } from "#common/shared/messages.ts";
import { formatPrice } from "#common/shared/money.ts";

/**
 * The choice of a plant's size (docs/decisions/048): a radio group named 'Size', each size with its price, a sold-out
 * one saying so yet choosable (the page then says 'Not in Stock'). It is a GET form, so without JavaScript 'Show this
 * size' reloads the page at `?variant=`; once hydrated, a choice calls `onChoose` at once and the button goes.
 * `keep` are the page's other query parameters (a page of reviews), which the form carries along.
 */
export function SizeChoice({
  variants,
  chosenId,
  onChoose,
  keep = {},
}: {
  variants: readonly ProductVariant[];
  chosenId: string;
  onChoose: (variantId: string) => void;
  keep?: Record<string, string>;
}) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <Form method="get" preventScrollReset className="mt-4">
      <fieldset>
        <legend className="font-semibold text-stone-900">{messages.product.sizeLegend}</legend>
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="mt-2 flex flex-wrap gap-2">
          {variants.map((variant) => (
            <label
              key={variant.id}
              className="flex cursor-pointer items-center gap-2 rounded-xl border border-stone-300 px-3 py-2 has-[:checked]:border-leaf-700 has-[:checked]:bg-leaf-50 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-leaf-600"
            >
              <input
                type="radio"
                name="variant"
                value={variant.id}
                checked={variant.id === chosenId}
                onChange={() => onChoose(variant.id)}
                className="accent-leaf-700"
              />
              {/* Spaces between the parts, so a screen reader names the radio 'Large · 10" pot Rs. 3,800 Sold out'. */}
              <span className="flex flex-wrap gap-x-2">
                <span className="font-medium text-stone-900">{variant.label}</span>{" "}
                <span className="text-stone-700">{formatPrice(variant.pricePaise)}</span>
                {variant.stock > 0 ? null : (
                  <>
                    {" "}
                    <span className="text-sm font-medium text-red-700">{messages.product.sizeSoldOut}</span>
                  </>
                )}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {hydrated ? null : (
        <button type="submit" className="btn-outline mt-3">
          {messages.product.showSize}
        </button>
      )}
    </Form>
  );
}
