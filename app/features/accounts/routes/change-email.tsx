import { Form, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { requireUser } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { AccountPageHeader } from "../components/account-page-header.tsx";
import { RecentLoginNote } from "../components/recent-login-note.tsx";
import type { Route } from "./+types/change-email";

const ac = messages.accountChanges;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, ac.changeEmailHeading);

/** The owner's own page: a visitor logs in first. Whether the account proves itself with a password or a recent login. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  return { email: user.email, userId: user.id, proof: await context.services.accounts.ownerProof(user, context.request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  return actionResult(() => context.services.accounts.requestEmailChange(user, form, context.request));
}

export default function ChangeEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-change-schemas.ts").then((m) => m.changeEmailSchema), failure?.fieldErrors);
  const { proof } = loaderData;
  return (
    <section className="container-page max-w-xl py-12">
      <AccountPageHeader userId={loaderData.userId} heading={ac.changeEmailHeading} intro={<>Your e-mail address now: {loaderData.email}</>} />
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4 rounded-2xl border border-stone-200 p-6">
        <FormMessage message={actionData?.ok ? ac.confirmationSent(actionData.sentTo) : null} tone="success" />
        <FormMessage message={formLevelMessage(failure)} />
        {proof.kind === "recent-login" ? <RecentLoginNote proof={proof} /> : null}
        <FormField label={ac.newEmailLabel} name="newEmail" type="email" autoComplete="email" error={errors.newEmail} />
        {proof.kind === "password" ? <FormField label={ac.passwordLabel} name="password" type="password" autoComplete="current-password" error={errors.password} /> : null}
        <SubmitButton busy={navigation.state === "submitting"} busyLabel="Sending" className="btn-primary justify-self-start">
          Send confirmation link
        </SubmitButton>
      </Form>
    </section>
  );
}
