import { useFetcher } from "react-router";
import type { DeliveryAnswer } from "#common/delivery/delivery-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { FieldError, fieldErrorProps } from "../../../shared/ui/form-field.tsx";

const m = messages.delivery;

/** What the check answers: the zone in words, or why the PIN code was refused. */
export type DeliveryCheckResult = { ok: true; answer: DeliveryAnswer } | { ok: false; message: string; fieldErrors: Record<string, string> } | null;

/**
 * The 'Check delivery' box: a GET form to /delivery-check, which a browser without JavaScript follows to a page of
 * its own; once the page runs, the same form is loaded by a fetcher and answered inline. `result`: an answer the
 * server already gave (the no-JavaScript page).
 */
export function DeliveryCheck({ productId, result = null }: { productId: string | null; result?: DeliveryCheckResult }) {
  const fetcher = useFetcher<{ result: DeliveryCheckResult }>();
  const shown = fetcher.data?.result ?? result;
  const error = shown && !shown.ok ? (shown.fieldErrors.pin ?? shown.message) : undefined;
  const answer = shown?.ok ? shown.answer : null;
  return (
    <fetcher.Form method="get" action="/delivery-check" className="mt-6 rounded-xl border border-stone-200 p-4" aria-labelledby="delivery-check-title">
      <h2 id="delivery-check-title" className="font-semibold text-stone-900">
        {m.checkHeading}
      </h2>
      {productId ? <input type="hidden" name="product" value={productId} /> : null}
      <div className="mt-2 flex flex-wrap items-start gap-2">
        <label htmlFor="delivery-pin" className="sr-only">
          {m.pinLabel}
        </label>
        <input
          id="delivery-pin"
          name="pin"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={6}
          placeholder={m.pinLabel}
          defaultValue={answer?.pin ?? ""}
          className="field-input w-40"
          {...fieldErrorProps("delivery-pin", error)}
        />
        <button type="submit" className="btn-outline" disabled={fetcher.state !== "idle"}>
          {m.check}
        </button>
      </div>
      <FieldError controlId="delivery-pin" error={error} alert />
      {answer ? (
        <p role="status" data-testid="delivery-answer" className={`mt-2 ${answer.delivers ? "text-stone-800" : "text-red-700"}`}>
          {answer.text}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
