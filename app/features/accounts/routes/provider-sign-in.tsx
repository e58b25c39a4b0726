import { redirect } from "react-router";
import { readForm } from "../../../shared/lib/forms.ts";
import { loadOrRefuse } from "../../../shared/lib/service-errors.ts";
import { redirectWithCookies, safeRedirectTo } from "../../../shared/lib/session.ts";
import type { Route } from "./+types/provider-sign-in";

// The "Continue with <provider>" buttons post here: the browser goes on to the provider, carrying the cookie that
// binds the provider's answer to it. Nothing to show: a visit without a post goes to the login page.

export function loader() {
  return redirect("/login");
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const redirectTo = safeRedirectTo(form.get("redirectTo"));
  if (context.user) return redirect(redirectTo);
  const { url, cookies } = await loadOrRefuse(() => context.services.accounts.startProviderSignIn({ provider: form.get("provider") }, redirectTo, context.request));
  return redirectWithCookies(context, url, cookies);
}
