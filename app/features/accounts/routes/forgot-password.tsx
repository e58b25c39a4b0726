import { Form, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/forgot-password";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Forgot password", description: "Reset your Plant Shop password.", path: "/forgot-password" });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  return actionResult(async () => {
    await context.services.accounts.requestPasswordReset(form, context.request);
    return { sent: true };
  });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.emailOnlySchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting";
  return (
    <AuthCard
      title="Reset your password"
      footer={
        <Link to="/login" className="font-semibold text-leaf-800 underline underline-offset-4">
          Back to Login
        </Link>
      }
    >
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4">
        <FormMessage message={actionData?.ok ? messages.auth.resetLinkSent : null} tone="success" />
        <FormMessage message={formLevelMessage(failure)} />
        <FormField label="Email" name="email" type="email" autoComplete="email" error={errors.email} />
        <SubmitButton busy={busy} busyLabel="Sending" className="btn-primary">
          Send reset link
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
