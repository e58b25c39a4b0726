import { Form, redirect, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormField } from "../../../shared/ui/form-field.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { requireUser, safeRedirectTo } from "../../../shared/lib/session.ts";
import { useFormErrors } from "../../../shared/lib/use-form-errors.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/choose-username";

// An account made by a provider sign-in has no username yet; every other page sends it here first (root.tsx),
// and then on to where the shopper was going (docs/decisions/039).

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: messages.signInMethods.chooseUsernameHeading, description: messages.signInMethods.chooseUsernameIntro, path: "/choose-username" });

export function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  if (user.username) throw redirect(safeRedirectTo(new URL(request.url).searchParams.get("redirectTo")));
  return { name: user.name };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readFormFields(request);
  const result = await actionResult(async () => {
    await context.services.accounts.chooseUsername(user, form);
    return {};
  });
  if (!("ok" in result) || !result.ok) return result;
  return redirect(safeRedirectTo(form.redirectTo));
}

export default function ChooseUsername({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const failure = actionData && !actionData.ok ? actionData : undefined;
  const { errors, onSubmit, prepare } = useFormErrors(() => import("#common/accounts/account-schemas.ts").then((m) => m.chooseUsernameSchema), failure?.fieldErrors);
  return (
    <AuthCard
      title={messages.signInMethods.chooseUsernameHeading}
      footer={
        <Form method="post" action="/logout">
          <button type="submit" className="text-leaf-800 underline underline-offset-4">
            Logout
          </button>
        </Form>
      }
    >
      <p className="mb-4 text-stone-700">{messages.signInMethods.chooseUsernameIntro}</p>
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={prepare} className="grid gap-4">
        <FormMessage message={formLevelMessage(failure)} />
        <input type="hidden" name="redirectTo" value={safeRedirectTo(params.get("redirectTo"))} />
        <FormField label="Username" name="username" autoComplete="username" error={errors.username} />
        <SubmitButton busy={navigation.state === "submitting"} busyLabel="Saving" className="btn-primary">
          Continue
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
