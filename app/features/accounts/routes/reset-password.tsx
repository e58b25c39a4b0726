import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult, formLevelMessage, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies } from "../../../shared/lib/session.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import type { Route } from "./+types/reset-password";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Choose a new password", description: "Set a new Plant Shop password.", path: "/reset-password" });

/** A used, expired or unknown link says so at once, not only after a new password was typed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { linkValid: await loadOrRefuse(() => context.services.accounts.isResetLinkValid(new URL(request.url).searchParams.get("token"))) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const result = await actionResult(async () => {
    await context.services.accounts.resetPassword(form, context.request);
    return {};
  });
  if (!("ok" in result) || !result.ok) return result;
  return redirectWithCookies(context, "/login", [], "passwordReset");
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.resetPasswordSchema), failure?.fieldErrors);
  const busy = navigation.state === "submitting";
  // Also a link that ran out while the new password was being typed.
  const linkValid = loaderData.linkValid && failure?.code !== ERROR_CODES.resetLinkInvalid;
  return (
    <AuthCard title="Choose a new password">
      {linkValid ? (
        <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4">
          <FormMessage message={formLevelMessage(failure)} />
          <input type="hidden" name="token" value={params.get("token") ?? ""} />
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
