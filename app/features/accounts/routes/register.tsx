import { Form, Link, redirect, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { ProviderButtons } from "../components/provider-buttons.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { rememberPendingEmail } from "../../../shared/lib/pending-email.ts";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies } from "../../../shared/lib/session.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/register";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Create your account", description: "Create a Plant Shop account.", path: "/register" });

export function loader({ context }: Route.LoaderArgs) {
  if (context.user) throw redirect("/");
  return { providers: context.services.accounts.signInProviders() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const result = await actionResult(() => context.services.accounts.register(form, context.request));
  if (!("ok" in result) || !result.ok) return result;
  return redirectWithCookies(context, "/verify", [await rememberPendingEmail(context, result.email, result.accountId)], "accountCreated");
}

export default function Register({ actionData, loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.registerSchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting";
  return (
    <AuthCard
      title={messages.auth.registerHeading}
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-semibold text-leaf-800 underline underline-offset-4">
            Login
          </Link>
        </>
      }
    >
      <ProviderButtons providers={loaderData.providers} redirectTo="/" />
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4">
        <FormMessage message={formLevelMessage(failure)} />
        <FormField label="Full Name" name="name" autoComplete="name" error={errors.name} />
        <FormField label="Username" name="username" autoComplete="username" error={errors.username} />
        <FormField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
        <FormField label="Password" name="password" type="password" autoComplete="new-password" error={errors.password} />
        <SubmitButton busy={busy} busyLabel="Creating your account" className="btn-primary">
          Create Account
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
