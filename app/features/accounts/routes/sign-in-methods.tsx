import { Form, Link, useNavigation } from "react-router";
import { messages } from "#common/shared/messages.ts";
import { FormMessage } from "../../../shared/ui/form-message.tsx";
import { SubmitButton } from "../../../shared/ui/submit-button.tsx";
import { readForm } from "../../../shared/lib/forms.ts";
import { actionResult, loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies, requireUser } from "../../../shared/lib/session.ts";
import { titleWithShop } from "../../../shared/lib/seo.ts";
import type { Route } from "./+types/sign-in-methods";

// The account's ways in (docs/decisions/039): its password, and each OpenID Connect provider linked or to link.
// Linking goes through the provider and comes back here with `linked=<id>`, or with Better Auth's `error` code.

const m = messages.signInMethods;

export const meta: Route.MetaFunction = ({ matches }) => [{ title: titleWithShop(matches, m.heading) }, { name: "robots", content: "noindex" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const params = new URL(request.url).searchParams;
  const accounts = context.services.accounts;
  const methods = await accounts.listSignInMethods(user);
  const linked = params.get("linked");
  const error = params.get("error");
  const notice = error
    ? { tone: "error" as const, text: accounts.linkErrorMessage(params.get("provider"), error) }
    : linked && methods.providers.some((provider) => provider.id === linked && provider.linked)
      ? { tone: "success" as const, text: m.linked(accounts.providerName(linked)) }
      : null;
  return { userId: user.id, methods, notice };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await readForm(request);
  const provider = form.get("provider");
  if (form.get("intent") === "link") {
    const { url, cookies } = await loadOrRefuse(() => context.services.accounts.startProviderLink({ provider }, context.request));
    return redirectWithCookies(context, url, cookies);
  }
  return actionResult(() => context.services.accounts.removeProvider(user, { provider }, context.request));
}

export default function SignInMethods({ loaderData, actionData }: Route.ComponentProps) {
  const { methods, notice, userId } = loaderData;
  const navigation = useNavigation();
  const busy = (provider: string) => navigation.state === "submitting" && navigation.formData?.get("provider") === provider;
  const answer = actionData ? (actionData.ok ? { tone: "success" as const, text: m.removed(actionData.name) } : { tone: "error" as const, text: actionData.message }) : notice;
  return (
    <section className="container-page max-w-2xl py-12">
      <h1 className="text-3xl font-bold text-stone-900">{m.heading}</h1>
      <p className="mt-2 text-stone-700">{m.intro}</p>
      <div className="mt-6">
        <FormMessage message={answer?.text} tone={answer?.tone} />
      </div>
      <ul className="mt-6 divide-y divide-stone-200 rounded-2xl border border-stone-200">
        <li className="p-5">
          <h2 className="font-semibold text-stone-900">{m.password}</h2>
          <p className="text-sm text-stone-700">{methods.hasPassword ? m.passwordSet : m.noPassword}</p>
        </li>
        {methods.providers.map((provider) => (
          <li key={provider.id} className="flex flex-wrap items-center justify-between gap-4 p-5" aria-label={provider.name}>
            <div>
              <h2 className="font-semibold text-stone-900">{provider.name}</h2>
              <p className="text-sm text-stone-700">{provider.linked ? m.linkedAs(provider.name) : m.notLinkedYet}</p>
            </div>
            <Form method="post" reloadDocument={!provider.linked}>
              <input type="hidden" name="provider" value={provider.id} />
              <input type="hidden" name="intent" value={provider.linked ? "remove" : "link"} />
              <SubmitButton busy={busy(provider.id)} busyLabel={provider.linked ? "Removing" : "Linking"} className="btn-outline">
                {provider.linked ? m.remove : m.link(provider.name)}
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
      <p className="mt-8">
        <Link to={`/profile/${userId}`} className="font-semibold text-leaf-800 underline underline-offset-4">
          Back to your profile
        </Link>
      </p>
    </section>
  );
}
