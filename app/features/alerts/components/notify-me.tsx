import { useActionData, useFetcher } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";

/** The form's intent on the product page's action. */
export const STOCK_ALERT_INTENT = "stock-alert";

type AlertResult =
  | { ok: true; intent: typeof STOCK_ALERT_INTENT; state: "subscribed" | "confirmationSent" }
  | { ok: false; intent: typeof STOCK_ALERT_INTENT; message: string; fieldErrors: Record<string, string> };

/**
 * "Notify me when it's back" under a sold-out size: one button for a signed-in shopper, an e-mail field and the
 * button for a visitor (who then confirms the address from a mail). It posts to the product page's own action, so it
 * works before JavaScript loads; what it answers is said beside it. The page is shared between shoppers (and cached
 * for visitors), so it never shows whether this person already waits: asking again is answered as the first time.
 */
export function NotifyMe({ variantId, signedIn, action }: { variantId: string; signedIn: boolean; action: string }) {
  const fetcher = useFetcher<AlertResult>();
  const posted = useActionData() as AlertResult | { intent?: unknown } | undefined;
  const result = fetcher.data ?? (posted && "intent" in posted && posted.intent === STOCK_ALERT_INTENT ? (posted as AlertResult) : undefined);
  return (
    <section aria-labelledby="notify-me-heading" className="mt-6 rounded-lg border border-stone-200 bg-stone-50 p-4">
      <h2 id="notify-me-heading" className="font-semibold text-stone-900">
        {messages.alerts.heading}
      </h2>
      <p className="mt-1 text-sm text-stone-700">{signedIn ? messages.alerts.introSignedIn : messages.alerts.intro}</p>
      {result?.ok ? (
        <p role="status" className="mt-3 font-medium text-leaf-800">
          {result.state === "subscribed" ? messages.alerts.subscribed : messages.alerts.checkInbox}
        </p>
      ) : (
        <fetcher.Form method="post" action={action} className="mt-3 flex flex-col gap-3">
          <input type="hidden" name="intent" value={STOCK_ALERT_INTENT} />
          <input type="hidden" name="variantId" value={variantId} />
          {signedIn ? null : (
            <FormField label={messages.alerts.emailLabel} name="email" type="email" autoComplete="email" required maxLength={254} error={result?.fieldErrors.email} />
          )}
          <div>
            <SubmitButton busy={fetcher.state !== "idle"} busyLabel="Asking" className="btn-outline">
              {messages.alerts.notifyMe}
            </SubmitButton>
          </div>
          {result && !result.fieldErrors.email ? (
            <p role="alert" className="text-sm text-red-700">
              {result.message}
            </p>
          ) : null}
        </fetcher.Form>
      )}
    </section>
  );
}
