import type { AppLoadContext } from "react-router";
import type { SignInOutcome } from "../../../../server/modules/accounts/accounts.ts";
import { redirectWithCookies } from "../../../shared/lib/session.ts";
import { secondFactorPath } from "#common/accounts/sign-in-paths.ts";


/**
 * Where a sign-in (password, e-mailed link or second factor) goes next: on to `redirectTo` with the new session, or
 * to the code's step with the auth library's cookie of the pending second factor. The library's own cookies of the
 * second factor (a trusted device) go along as it set them.
 */
export function continueSignIn(context: AppLoadContext, outcome: SignInOutcome, redirectTo: string): Promise<Response> {
  if (outcome.secondFactorRequired) return redirectWithCookies(context, secondFactorPath(redirectTo), outcome.setCookies);
  return redirectWithCookies(context, redirectTo, [...context.sessionCookies.write(outcome.session), ...outcome.setCookies], "loggedIn");
}
