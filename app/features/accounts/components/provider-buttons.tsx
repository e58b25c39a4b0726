import { Form } from "react-router";
import { messages } from "#common/shared/messages.ts";

/**
 * "Continue with <provider>" for each configured OpenID Connect provider, above the login and register forms. Each
 * is a plain form post (no script needed) to /sign-in/provider, which sends the browser on to the provider.
 */
export function ProviderButtons({ providers, redirectTo }: { providers: { id: string; name: string }[]; redirectTo: string }) {
  if (providers.length === 0) return null;
  return (
    <div className="mb-6 grid gap-3">
      {providers.map((provider) => (
        <Form key={provider.id} method="post" action="/sign-in/provider" reloadDocument>
          <input type="hidden" name="provider" value={provider.id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" className="btn-outline w-full">
            {messages.signInMethods.continueWith(provider.name)}
          </button>
        </Form>
      ))}
      <p className="flex items-center gap-3 text-sm text-stone-600" aria-hidden="true">
        <span className="h-px flex-1 bg-stone-200" />
        {messages.signInMethods.or}
        <span className="h-px flex-1 bg-stone-200" />
      </p>
    </div>
  );
}
