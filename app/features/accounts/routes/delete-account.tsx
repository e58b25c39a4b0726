import { Form, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { redirectWithSession, requireUser } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { AccountPageHeader } from "../components/account-page-header.tsx";
import { RecentLoginNote } from "../components/recent-login-note.tsx";
import type { Route } from "./+types/delete-account";

const ac = messages.accountChanges;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, ac.deleteHeading);

/** The owner's own page: a visitor logs in first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { userId: user.id, proof: await context.services.accounts.ownerProof(user, context.request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  const result = await actionResult(() => context.services.accounts.deleteAccount(user, form, context.request));
  if (!("ok" in result) || !result.ok) return result;
  // Signed out (the session is gone with the account), on the home page, told what happened.
  return redirectWithSession(context, "/", result.session, "accountDeleted");
}

export default function DeleteAccount({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-change-schemas.ts").then((m) => m.deleteAccountSchema), failure?.fieldErrors);
  const { proof } = loaderData;
  return (
    <section className="container-page max-w-xl py-12">
      <AccountPageHeader userId={loaderData.userId} heading={ac.deleteHeading} intro={ac.deleteIntro} />
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4 rounded-2xl border border-red-200 p-6">
        <FormMessage message={formLevelMessage(failure)} />
        {proof.kind === "recent-login" ? <RecentLoginNote proof={proof} /> : null}
        {proof.kind === "password" ? <FormField label={ac.passwordLabel} name="password" type="password" autoComplete="current-password" error={errors.password} /> : null}
        <SubmitButton busy={navigation.state === "submitting"} busyLabel="Deleting" className="btn-primary justify-self-start bg-red-700 hover:bg-red-800">
          {ac.deleteButton}
        </SubmitButton>
      </Form>
    </section>
  );
}
