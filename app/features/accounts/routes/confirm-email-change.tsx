import { Form, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies } from "../../../shared/lib/session.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import type { Route } from "./+types/confirm-email-change";

const ac = messages.accountChanges;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, ac.confirmEmailHeading);

/**
 * Where the link mailed to the new address leads. Opening it changes nothing: a button does (a POST), so a mail
 * scanner following links cannot make the change. A used, expired or overtaken link says so at once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await context.services.accounts.readEmailChangeLink({ token });
  return { token, newEmail: link?.newEmail ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const result = await actionResult(() => context.services.accounts.confirmEmailChange(context.user, form, context.request));
  if (!("ok" in result) || !result.ok) return result;
  // Every other session of the account ended; this browser's stays if it was the account's.
  return redirectWithCookies(context, context.user ? `/profile/${context.user.id}` : "/login", [], "emailChanged");
}

export default function ConfirmEmailChange({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData.message : null;
  return (
    <section className="container-page max-w-xl py-12">
      <h1 className="mb-6 text-3xl font-bold text-stone-900">{ac.confirmEmailHeading}</h1>
      {loaderData.newEmail ? (
        <Form method="post" className="grid gap-4 rounded-2xl border border-stone-200 p-6">
          <FormMessage message={failure} />
          <p className="text-stone-800">{ac.confirmEmailIntro(loaderData.newEmail)}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <SubmitButton busy={navigation.state === "submitting"} busyLabel="Saving" className="btn-primary justify-self-start">
            {ac.confirmEmailButton}
          </SubmitButton>
        </Form>
      ) : (
        <div className="grid gap-4">
          <FormMessage message={ac.emailLinkInvalid} />
          <Link to="/account/email" className="font-semibold text-leaf-800 underline underline-offset-4">
            {ac.changeEmailHeading}
          </Link>
        </div>
      )}
    </section>
  );
}
