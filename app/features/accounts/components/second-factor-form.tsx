import { Form } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";

/** The second step of a login for an account with two-factor on: a code from the app, or a recovery code. */
export function SecondFactorForm(props: { message: string | null; error: string | undefined; redirectTo: string; busy: boolean }) {
  return (
    <Form method="post" noValidate className="grid gap-4">
      <p className="text-sm text-stone-700">{messages.twoFactor.codeRequired}</p>
      <FormMessage message={props.message} />
      <input type="hidden" name="intent" value="second-factor" />
      <input type="hidden" name="redirectTo" value={props.redirectTo} />
      <FormField label="Code" name="code" inputMode="text" autoComplete="one-time-code" autoFocus maxLength={20} error={props.error} />
      <label className="flex items-center gap-2 text-sm text-stone-700">
        <input type="checkbox" name="trustDevice" className="size-4" />
        Trust this device for 30 days
      </label>
      <SubmitButton busy={props.busy} busyLabel="Checking" className="btn-primary">
        Verify
      </SubmitButton>
    </Form>
  );
}

/** Logging in without a password: a link by e-mail. The answer is the same whether or not the address has an account. */
export function SignInLinkForm(props: { sent: boolean; message: string | null; error: string | undefined; busy: boolean }) {
  return (
    <Form method="post" noValidate className="grid gap-4">
      <FormMessage message={props.sent ? messages.signInLink.sent : null} tone="success" />
      <FormMessage message={props.message} />
      <input type="hidden" name="intent" value="link" />
      <FormField label="Email" name="email" type="email" autoComplete="email" error={props.error} />
      <SubmitButton busy={props.busy} busyLabel="Sending" className="btn-primary">
        E-mail me a sign-in link
      </SubmitButton>
    </Form>
  );
}
