import { changePasswordSchema, emailOnlySchema, resetPasswordSchema } from "#common/accounts/account-schemas.ts";
import { parseInput } from "../../platform/errors.ts";
import type { SessionCaller, SessionOutcome } from "../../platform/session-user.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, sessionOutcome } from "./auth-calls.ts";

// Forgotten passwords (a link by e-mail) and a signed-in person's change of password.

/** Our page a reset link leads to. */
const RESET_PAGE = "/reset-password";

type PasswordsContext = Pick<AccountsContext, "auth">;

/** Sends a reset link when the account exists; answers the same either way. */
export async function requestPasswordReset({ auth }: PasswordsContext, input: unknown, caller: SessionCaller): Promise<void> {
  const { email } = parseInput(emailOnlySchema, input);
  await callAuth(async () => auth.api.requestPasswordReset({ body: { email, redirectTo: RESET_PAGE }, headers: await authHeaders(auth, caller) }));
}

/**
 * Whether a reset link can still be used (not unknown, used or expired), for the page to say so before a
 * new password is typed. Better Auth decides, with the check its own link endpoint makes: it redirects to
 * the callback with the token when it is good, with `error=INVALID_TOKEN` when not.
 */
export async function isResetLinkValid({ auth }: PasswordsContext, token: string | null): Promise<boolean> {
  const parsed = resetPasswordSchema.shape.token.safeParse(token);
  if (!parsed.success) return false;
  const response = await auth.api.requestPasswordResetCallback({
    params: { token: parsed.data },
    query: { callbackURL: RESET_PAGE },
    asResponse: true,
  });
  const location = response.headers.get("location");
  return location !== null && new URL(location, "http://callback.invalid").searchParams.get("token") === parsed.data;
}

export async function resetPassword({ auth }: PasswordsContext, input: unknown, caller: SessionCaller): Promise<void> {
  const { token, password } = parseInput(resetPasswordSchema, input);
  await callAuth(async () => auth.api.resetPassword({ body: { token, newPassword: password }, headers: await authHeaders(auth, caller) }));
}

/** Changes the signed-in person's password and signs out their other sessions; theirs is issued anew. */
export async function changePassword({ auth }: PasswordsContext, input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
  const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
  const { headers } = await callAuth(async () =>
    auth.api.changePassword({
      body: { currentPassword, newPassword, revokeOtherSessions: true },
      headers: await authHeaders(auth, caller),
      returnHeaders: true,
    }),
  );
  return { session: await sessionOutcome(auth, headers) };
}
