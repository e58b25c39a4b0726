import { Form, Link, redirect, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { pendingSignUp } from "../../../shared/lib/pending-email.ts";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { redirectWithSession } from "../../../shared/lib/session.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/verify";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Verify your e-mail", description: "Confirm your e-mail address.", path: "/verify" });

/** The two forms of the page: the password that finishes a link's verification, and "send the e-mail again". */
const CONFIRM = "confirm";

/**
 * With a token (the e-mail's link): in the browser the account was signed up in, verify, sign in, go home;
 * elsewhere, ask for the account's password first (decision 008). A link followed again says the address is
 * verified already and offers to log in. Without a token: say a mail was sent.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.user?.emailVerified) throw redirect("/");
  const token = new URL(request.url).searchParams.get("token");
  const pending = await pendingSignUp(context, request);
  if (token) {
    const result = await actionResult(() => context.services.accounts.verifyEmail({ token, signedUpAs: pending?.accountId }, context.request));
    if (!("ok" in result)) return { state: "failed" as const, email: "", token: "" };
    if (result.kind === "alreadyVerified") return { state: "alreadyVerified" as const, email: "", token: "" };
    if (result.kind === "passwordNeeded") return { state: "passwordNeeded" as const, email: "", token };
    throw await redirectWithSession(context, afterVerification(context), result.session, "emailVerified");
  }
  return { state: "sent" as const, email: pending?.email ?? context.user?.email ?? "", token: "" };
}

/** Home; or the cart, for a visitor who had one: signing in merges it into the new account's (docs/decisions/037). */
const afterVerification = (context: Route.LoaderArgs["context"]) => (context.visitorCart.token ? "/cart" : "/");

export async function action({ request, context }: Route.ActionArgs) {
  const { intent, ...form } = await readFormFields(request);
  if (intent === CONFIRM) {
    const result = await actionResult(() => context.services.accounts.verifyEmail({ token: form.token, password: form.password ?? "" }, context.request));
    if (!("ok" in result) || result.kind !== "verified") return result;
    throw await redirectWithSession(context, afterVerification(context), result.session, "emailVerified");
  }
  return actionResult(async () => {
    await context.services.accounts.resendVerification(form, context.request);
    return { sent: true };
  });
}

type ActionData = Route.ComponentProps["actionData"];

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.state === "alreadyVerified") {
    return (
      <section className="container-page flex flex-col items-center py-16 text-center">
        <h1 className="text-3xl font-bold text-stone-900">{messages.auth.emailAlreadyVerified}</h1>
        <p className="mt-3 text-stone-700">{messages.auth.logInToContinue}</p>
        <Link to="/login" className="btn-primary mt-8">
          Login
        </Link>
      </section>
    );
  }
  return (
    <section className="container-page flex flex-col items-center py-16 text-center">
      <div className="w-full max-w-md">
        {loaderData.state === "passwordNeeded" ? (
          <ConfirmWithPassword token={loaderData.token} actionData={actionData} />
        ) : (
          <SendAgain failed={loaderData.state === "failed"} email={loaderData.email} actionData={actionData} />
        )}
      </div>
    </section>
  );
}

/** A link followed in another browser than the sign-up's: the account's password finishes it. */
function ConfirmWithPassword({ token, actionData }: { token: string; actionData: ActionData }) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.verifyEmailSchema), failure?.fieldErrors);
  return (
    <>
      <h1 className="text-3xl font-bold text-stone-900">{messages.auth.confirmEmailHeading}</h1>
      <p className="mt-3 text-stone-700">{messages.auth.confirmEmailWithPassword}</p>
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="mt-8 grid gap-4 text-left">
        <FormMessage message={Object.keys(errors).length ? null : formLevelMessage(failure)} />
        <input type="hidden" name="intent" value={CONFIRM} />
        <input type="hidden" name="token" value={token} />
        <FormField label="Password" name="password" type="password" autoComplete="current-password" error={errors.password} />
        <SubmitButton busy={navigation.state === "submitting"} busyLabel={messages.auth.verifying}>
          {messages.auth.confirmEmail}
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm text-stone-700">
        <Link to="/forgot-password" className="font-semibold text-leaf-800 underline underline-offset-4">
          {messages.auth.forgotPassword}
        </Link>
      </p>
    </>
  );
}

/** Without a link, or with one that failed: the mail was sent, and can be sent again. */
function SendAgain({ failed, email, actionData }: { failed: boolean; email: string; actionData: ActionData }) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.emailOnlySchema), failure?.fieldErrors);
  return (
    <>
      {failed ? (
        <>
          <h1 className="text-2xl font-bold text-stone-900">{messages.auth.verifyFailed}</h1>
          <p className="mt-3 text-stone-700">The link may have expired. Ask for a new one below.</p>
        </>
      ) : (
        <>
          <h1 className="text-3xl font-bold text-stone-900">{messages.auth.verificationSent}</h1>
          <p className="mt-3 text-stone-700">{messages.auth.checkInbox}</p>
        </>
      )}
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="mt-8 grid gap-4 text-left">
        <FormMessage message={actionData?.ok ? messages.auth.verificationResent : null} tone="success" />
        <FormMessage message={formLevelMessage(failure)} />
        <FormField label="Email" name="email" type="email" autoComplete="email" defaultValue={email} error={errors.email} />
        <SubmitButton busy={navigation.state === "submitting"} busyLabel="Sending" className="btn-outline">
          {messages.auth.resendVerification}
        </SubmitButton>
      </Form>
      <p className="mt-6 text-sm text-stone-700">
        Verified already?{" "}
        <Link to="/login" className="font-semibold text-leaf-800 underline underline-offset-4">
          Login
        </Link>
      </p>
    </>
  );
}
