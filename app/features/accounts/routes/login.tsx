import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { ProviderButtons } from "../components/provider-buttons.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { withPendingEmail } from "../../../shared/lib/pending-email.ts";
import { actionResult } from "../../../shared/lib/service-errors.ts";
import { safeRedirectTo } from "../../../shared/lib/session.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/login";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { SecondFactorForm, SignInLinkForm } from "../components/second-factor-form.tsx";
import { continueSignIn } from "../lib/sign-in-outcome.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Login", description: "Log in to your Plant Shop account.", path: "/login" });

export function loader({ context, request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  if (context.user) throw redirect(safeRedirectTo(params.get("redirectTo")));
  // A provider sign-in that came back refused carries the library's error code (docs/decisions/039).
  const error = params.get("error");
  const providerError = error ? context.services.accounts.signInErrorMessage(params.get("provider"), error) : null;
  return { providers: context.services.accounts.signInProviders(), providerError };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const { accounts } = context.services;
  const cookies = request.headers.get("cookie");
  const redirectTo = safeRedirectTo(form.get("redirectTo"));
  // Without a password: a sign-in link by e-mail (the answer never says whether the address has an account).
  if (form.get("intent") === "link") return actionResult(async () => (await accounts.requestSignInLink(Object.fromEntries(form), context.request), { linkSent: true }));
  // The second step for an account with two-factor on, after the password or an e-mailed link.
  if (form.get("intent") === "second-factor") {
    const verified = await actionResult(() => accounts.verifySecondFactor(Object.fromEntries(form), context.request, cookies));
    return "ok" in verified ? continueSignIn(context, verified, redirectTo) : verified;
  }
  const result = await actionResult(() => accounts.signIn(Object.fromEntries(form), context.request, cookies));
  if ("ok" in result) return continueSignIn(context, result, redirectTo);
  // Not verified yet: /verify, where the message's link leads, is filled in with this address.
  if (result.data.code === ERROR_CODES.emailNotVerified) return withPendingEmail(context, request, result, String(form.get("email")).trim());
  return result;
}

export default function Login({ actionData, loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const errors = failure?.fieldErrors ?? {};
  const unverified = failure?.code === ERROR_CODES.emailNotVerified;
  // An account that has seen many wrong passwords also needs the code e-mailed to it (decision 014).
  const needsCode = failure?.code === ERROR_CODES.signInCodeRequired || failure?.code === ERROR_CODES.signInCodeInvalid;
  const redirectTo = params.get("redirectTo") ?? "/";
  const busy = navigation.state === "submitting";
  const step = params.get("step") === "code" ? "code" : params.get("with") === "link" ? "link" : "password";
  if (step !== "password") {
    return (
      <AuthCard
        title={step === "code" ? messages.twoFactor.heading : messages.auth.loginHeading}
        footer={
          <Link to="/login" className="font-semibold text-leaf-800 underline underline-offset-4">
            {step === "code" ? "Start again" : "Log in with your password"}
          </Link>
        }
      >
        {step === "code" ? (
          <SecondFactorForm message={failure && !failure.fieldErrors.code ? failure.message : null} error={failure?.fieldErrors.code} redirectTo={redirectTo} busy={busy} />
        ) : (
          <SignInLinkForm sent={Boolean(actionData?.ok)} message={failure && !failure.fieldErrors.email ? failure.message : null} error={failure?.fieldErrors.email} busy={busy} />
        )}
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={messages.auth.loginHeading}
      footer={
        <>
          New here?{" "}
          <Link to="/register" className="font-semibold text-leaf-800 underline underline-offset-4">
            {messages.auth.createOne}
          </Link>
        </>
      }
    >
      <ProviderButtons providers={loaderData.providers} redirectTo={safeRedirectTo(params.get("redirectTo"))} />
      <LoginForm
        errors={errors}
        message={failure?.message ?? loaderData.providerError ?? undefined}
        unverified={unverified}
        needsCode={needsCode}
        redirectTo={redirectTo}
        busy={busy}
      />
      <p className="mt-4 text-center text-sm">
        <Link to="/login?with=link" className="font-semibold text-leaf-800 underline underline-offset-4">
          E-mail me a sign-in link
        </Link>
      </p>
    </AuthCard>
  );
}

function LoginForm(props: {
  errors: Record<string, string>;
  message: string | undefined;
  unverified: boolean;
  needsCode: boolean;
  redirectTo: string;
  busy: boolean;
}) {
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.loginSchema), props.errors);
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4">
      <FormMessage message={Object.keys(errors).length ? null : props.message} />
      {props.unverified ? (
        <p className="text-sm">
          <Link to="/verify" className="font-semibold text-leaf-800 underline underline-offset-4">
            {messages.auth.resendVerification}
          </Link>
        </p>
      ) : null}
      <input type="hidden" name="redirectTo" value={props.redirectTo} />
      <FormField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
      <FormField label="Password" name="password" type="password" autoComplete="current-password" error={errors.password} />
      {props.needsCode ? (
        <FormField label={messages.auth.signInCodeLabel} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={20} error={errors.code} />
      ) : null}
      <Link to="/forgot-password" className="justify-self-end text-sm text-leaf-800 underline underline-offset-4">
        {messages.auth.forgotPassword}
      </Link>
      <SubmitButton busy={props.busy} busyLabel="Logging in" className="btn-primary">
        Login
      </SubmitButton>
    </Form>
  );
}
