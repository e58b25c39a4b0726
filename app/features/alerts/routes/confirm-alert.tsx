import { Form, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { actionResult } from "../../../shared/lib/service-errors.ts";
import { privatePageMeta } from "../../../shared/lib/seo.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import type { Route } from "./+types/confirm-alert";

const am = messages.alerts;

export const meta: Route.MetaFunction = ({ matches }) => privatePageMeta(matches, am.confirmHeading);

/**
 * Where a visitor's confirmation mail leads. Opening it changes nothing: a button does (a POST), so a mail scanner
 * following links cannot confirm an address for its owner. An unknown or week-old link says so at once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, link: await context.services.alerts.readConfirmLink({ token }) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  return actionResult(() => context.services.alerts.confirm(form));
}

export default function ConfirmAlert({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const { link, token } = loaderData;
  return (
    <section className="container-page max-w-xl py-12">
      <h1 className="mb-6 text-3xl font-bold text-stone-900">{am.confirmHeading}</h1>
      {actionData?.ok ? (
        <div className="grid gap-4">
          <p role="status" className="text-stone-800">
            {am.confirmed(actionData.plant)}
          </p>
          <Link to={`/product/${actionData.productId}?variant=${encodeURIComponent(actionData.variantId)}`} className="font-semibold text-leaf-800 underline underline-offset-4">
            {am.showPlant}
          </Link>
        </div>
      ) : link.state === "valid" ? (
        <Form method="post" className="grid gap-4 rounded-2xl border border-stone-200 p-6">
          <FormMessage message={actionData && !actionData.ok ? actionData.message : null} />
          <p className="text-stone-800">{am.confirmIntro(link.plant)}</p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton busy={navigation.state === "submitting"} busyLabel="Confirming" className="btn-primary justify-self-start">
            {am.confirmButton}
          </SubmitButton>
        </Form>
      ) : (
        <FormMessage message={link.state === "expired" ? am.linkExpired : am.linkInvalid} />
      )}
    </section>
  );
}
