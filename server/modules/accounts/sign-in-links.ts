import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { emailOnlySchema } from "#common/accounts/account-schemas.ts";
import { messages } from "#common/shared/messages.ts";
import { parseInput, ServiceError } from "../../platform/errors.ts";
import type { SessionCaller } from "../../platform/session-user.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth } from "./auth-calls.ts";
import { withPluginCookies } from "./second-factor-cookies.ts";
import { signInOutcome, type SignInOutcome } from "./two-factor.ts";

// Signing in with a link by e-mail (Better Auth's magic-link plugin, configured in auth/second-factor.ts): asking
// for one, and following it on our page, in-process, so that the second factor is asked for as after a password.

type LinksContext = Pick<AccountsContext, "auth">;

const linkTokenSchema = z.object({ token: z.string().min(1, messages.signInLink.invalid).max(200, messages.signInLink.invalid).regex(/^[A-Za-z0-9]+$/, messages.signInLink.invalid) });

/** Mails a sign-in link when the address has an account; answers the same either way. */
export async function requestSignInLink({ auth }: LinksContext, input: unknown, caller: SessionCaller): Promise<void> {
  const { email } = parseInput(emailOnlySchema, input);
  await callAuth(async () => auth.api.signInMagicLink({ body: { email }, headers: await authHeaders(auth, caller) }));
}

/**
 * Follows a sign-in link: a session, or the second factor asked for next. The link works once. The plugin marks
 * the address of an unverified account verified (the link proves the mailbox), after removing every password and
 * session that account had (docs/decisions/038).
 */
export async function followSignInLink({ auth }: LinksContext, input: unknown, caller: SessionCaller, browserCookies: string | null): Promise<SignInOutcome> {
  const parsed = linkTokenSchema.safeParse(input);
  if (!parsed.success) throw new ServiceError(400, messages.signInLink.invalid);
  try {
    const { headers, response } = await auth.api.magicLinkVerify({
      query: { token: parsed.data.token },
      headers: await withPluginCookies(auth, await authHeaders(auth, caller), browserCookies),
      returnHeaders: true,
    });
    return await signInOutcome(auth, headers, response);
  } catch (error) {
    // Without a callback address the plugin still answers a bad link with a redirect carrying its error.
    if (isAPIError(error) && error.statusCode === 302) throw new ServiceError(400, messages.signInLink.invalid);
    return callAuth(() => Promise.reject(error));
  }
}
