import { useState } from "react";
import { messages } from "#common/shared/messages.ts";
import { FieldError, fieldErrorProps } from "../../../shared/ui/form-field.tsx";
import { StarIcon } from "./stars.tsx";

/**
 * The star picker: a native radio group, so arrow keys move the choice and the form posts it before
 * JavaScript loads. Each option is named '1 star' … '5 stars'; the choice shows as filled stars and in words.
 * An error shows under the stars and is read with the group, as FormField does for its input.
 */
export function StarPicker({
  name,
  defaultValue,
  error,
}: {
  name: string;
  defaultValue: number | null;
  error?: string | undefined;
}) {
  const [chosen, setChosen] = useState<number | null>(defaultValue);
  const groupId = `field-${name}`;
  return (
    <fieldset {...fieldErrorProps(groupId, error)}>
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
      <FieldError controlId={groupId} error={error} />
    </fieldset>
  );
}
