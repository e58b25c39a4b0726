import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { actionResult, formLevelMessage } from "../../../shared/lib/service-errors.ts";
import { readFormFields } from "../../../shared/lib/forms.ts";
import { pageMeta } from "../../../shared/lib/seo.ts";
import { continueSignIn } from "../lib/sign-in-outcome.ts";
import type { Route } from "./+types/sign-in-link";

// Where an e-mailed sign-in link leads. Opening it signs nobody in: the button does, so that a mail program that
// opens links to check them does not use the link up (it works once).

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: "Log in with a link", description: "Log in to your Plant Shop account with the link we e-mailed you.", path: "/login/link" });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormFields(request);
  const result = await actionResult(() => context.services.accounts.followSignInLink(form, context.request, request.headers.get("cookie")));
  return "ok" in result ? continueSignIn(context, result, "/") : result;
}

export default function SignInLink({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const navigation = useNavigation();
  return (
    <AuthCard
      title={messages.auth.loginHeading}
      footer={
        <Link to="/login?with=link" className="font-semibold text-leaf-800 underline underline-offset-4">
          Ask for a new link
        </Link>
      }
    >
      <Form method="post" className="grid gap-4">
        <FormMessage message={formLevelMessage(actionData && !actionData.ok ? actionData : undefined)} />
        <input type="hidden" name="token" value={params.get("token") ?? ""} />
        <SubmitButton busy={navigation.state === "submitting"} busyLabel="Logging in" className="btn-primary">
          Log in
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
