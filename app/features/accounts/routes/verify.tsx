import { Form, Link, redirect, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { pendingEmail } from "../../../shared/lib/pending-email.ts";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { redirectWithSession } from "../../../shared/lib/session.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/verify";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Verify your e-mail", description: "Confirm your e-mail address.", path: "/verify" });

/**
 * With a token (the e-mail's link): verify, sign in, go home; a link followed again says the address is
 * verified already and offers to log in. Without a token: say a mail was sent.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.user?.emailVerified) throw redirect("/");
  const token = new URL(request.url).searchParams.get("token");
  if (token) {
    const result = await actionResult(() => context.services.accounts.verifyEmail(token, context.request));
    if (!("ok" in result)) return { state: "failed" as const, email: "" };
    if (result.alreadyVerified) return { state: "alreadyVerified" as const, email: "" };
    throw await redirectWithSession(context, "/", result.session, "emailVerified");
  }
  const email = await pendingEmail(context, request);
  return { state: "sent" as const, email: email ?? context.user?.email ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  return actionResult(async () => {
    await context.services.accounts.resendVerification(form, context.request);
    return { sent: true };
  });
}

export default function Verify({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.emailOnlySchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting";
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
        {loaderData.state === "failed" ? (
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
          <FormField label="Email" name="email" type="email" autoComplete="email" defaultValue={loaderData.email} error={errors.email} />
          <SubmitButton busy={busy} busyLabel="Sending" className="btn-outline">
            {messages.auth.resendVerification}
          </SubmitButton>
        </Form>
        <p className="mt-6 text-sm text-stone-700">
          Verified already?{" "}
          <Link to="/login" className="font-semibold text-leaf-800 underline underline-offset-4">
            Login
          </Link>
        </p>
      </div>
    </section>
  );
}
