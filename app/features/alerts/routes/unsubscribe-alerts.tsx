import { Form, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult } from "../../../shared/lib/service-errors.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import type { Route } from "./+types/unsubscribe-alerts";

const am = messages.alerts;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, am.unsubscribeHeading);

/** The address a back-in-stock mail's unsubscribe link is for; null for a link this shop did not make. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  let email: string | null;
  try {
    email = context.services.alerts.unsubscribeAddress({ token });
  } catch {
    email = null;
  }
  return { token, email };
}

/**
 * One press stops every alert of the address. The button posts the token in its form, to the bare path: a POST to
 * the link itself (the token in the address) is a mail program's one-click unsubscribe (RFC 8058), which the server
 * answers before the pages (server/modules/alerts/one-click-unsubscribe.ts), so that it needs no page and may come
 * from another origin. A GET only shows the button: link scanners open every link of a mail.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { token } = await readFormFields(request);
  return actionResult(() => context.services.alerts.unsubscribe({ token }));
}

export default function UnsubscribeAlerts({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <section className="container-page max-w-xl py-12">
      <h1 className="mb-6 text-3xl font-bold text-stone-900">{am.unsubscribeHeading}</h1>
      {actionData?.ok ? (
        <p role="status" className="text-stone-800">
          {am.unsubscribed}
        </p>
      ) : loaderData.email ? (
        <Form method="post" action="/alerts/unsubscribe" className="grid gap-4 rounded-2xl border border-stone-200 p-6">
          <FormMessage message={actionData && !actionData.ok ? actionData.message : null} />
          <p className="text-stone-800">{am.unsubscribeIntro(loaderData.email)}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <SubmitButton busy={navigation.state === "submitting"} busyLabel="Unsubscribing" className="btn-primary justify-self-start">
            {am.unsubscribe}
          </SubmitButton>
        </Form>
      ) : (
        <FormMessage message={am.linkInvalid} />
      )}
    </section>
  );
}
