import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/messages.ts";
import { resetPasswordSchema } from "#common/schemas/account.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormField } from "../components/form-field.tsx";
import { FormMessage } from "../components/form-message.tsx";
import { actionResult, formLevelMessage } from "../lib/service-errors.ts";
import { redirectWithCookies } from "../lib/session.ts";
import { pageMeta } from "../lib/seo.ts";
import { useFormErrors } from "../lib/use-form-errors.ts";
import type { Route } from "./+types/reset-password";
import { SubmitButton } from "../components/ui/submit-button.tsx";
import { readFormFields } from "../lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a new password", description: "Set a new Plant Shop password.", path: "/reset-password" });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const result = await actionResult(async () => {
    await context.services.accounts.resetPassword(form, context.request);
    return {};
  });
  if (!("ok" in result) || !result.ok) return result;
  return redirectWithCookies("/login", [], "passwordReset");
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit } = useFormErrors(resetPasswordSchema, failure?.fieldErrors);
  const token = params.get("token") ?? "";
  const busy = navigation.state === "submitting";
  return (
    <AuthCard title="Choose a new password">
      {token ? (
        <Form method="post" noValidate onSubmit={onSubmit} className="grid gap-4">
          <FormMessage message={formLevelMessage(failure)} />
          {failure?.message === messages.auth.resetLinkInvalid ? (
            <Link to="/forgot-password" className="text-sm font-semibold text-leaf-800 underline underline-offset-4">
              Ask for a new link
            </Link>
          ) : null}
          <input type="hidden" name="token" value={token} />
          <FormField label="New password" name="password" type="password" autoComplete="new-password" error={errors.password} />
          <SubmitButton busy={busy} busyLabel="Saving" className="btn-primary">
            Save new password
          </SubmitButton>
        </Form>
      ) : (
        <>
          <FormMessage message={messages.auth.resetLinkInvalid} />
          <Link to="/forgot-password" className="btn-primary mt-4 w-full">
            Ask for a new link
          </Link>
        </>
      )}
    </AuthCard>
  );
}
