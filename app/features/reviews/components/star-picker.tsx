import { useState } from "react";
import { messages } from "#common/shared/messages.ts";
import { StarIcon } from "./stars.tsx";

/**
 * The star picker: a native radio group, so arrow keys move the choice and the form posts it before
 * JavaScript loads. Each option is named '1 star' … '5 stars'; the choice shows as filled stars and in words.
 */
export function StarPicker({
  name,
  defaultValue,
  invalid,
}: {
  name: string;
  defaultValue: number | null;
  invalid?: boolean;
}) {
  const [chosen, setChosen] = useState<number | null>(defaultValue);
  return (
    <fieldset aria-invalid={invalid || undefined}>
      <legend className="field-label">{messages.reviews.rating}</legend>
      <div className="flex items-center gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded p-0.5 has-[:checked]:ring-2 has-[:checked]:ring-amber-400 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-leaf-600"
          >
            <input
              type="radio"
              name={name}
              value={n}
              defaultChecked={defaultValue === n}
              onChange={() => setChosen(n)}
              className="sr-only"
            />
            <StarIcon
              filled={chosen !== null && n <= chosen}
              className="h-7 w-7"
            />
            <span className="sr-only">{messages.reviews.starName(n)}</span>
          </label>
        ))}
        <span
          className="ml-2 text-sm text-stone-700"
          aria-hidden="true"
          data-testid="chosen-rating"
        >
          {chosen ? messages.reviews.starName(chosen) : ""}
        </span>
      </div>
    </fieldset>
  );
}
