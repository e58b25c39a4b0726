import { isAPIError } from "better-auth/api";
import type { Kysely } from "kysely";
import { messages } from "#common/shared/messages.ts";
import { registerSchema } from "#common/accounts/account-schemas.ts";
import type { DB } from "../../platform/db/schema.ts";
import { fieldConflict, parseInput } from "../../platform/errors.ts";
import type { SessionCaller } from "../../platform/session-user.ts";
import { findUser } from "./account-records.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, errorCode } from "./auth-calls.ts";

/**
 * Creates the account; `accountId` is the id the sign-up answered, which /verify compares with the link's
 * account. For an address that has an account it is a made-up one, so it never matches.
 */
export async function register(
  { auth, db }: Pick<AccountsContext, "auth" | "db">,
  input: unknown,
  caller: SessionCaller,
): Promise<{ email: string; accountId: string | null }> {
  const { name, username, email, password } = parseInput(registerSchema, input);
  // An address that has an account gets the answer a new one gets; Better Auth mails its owner instead
  // (onExistingUserSignUp, decision 015). A taken username is said: usernames are public anyway.
  const headers = await authHeaders(auth, caller);
  const signedUp = await callAuth(() =>
    auth.api.signUpEmail({ body: { name, username, email, password }, headers }).catch(async (error: unknown) => {
      const race = await takenMeanwhile(error, { email, username }, db);
      if (race === "email") return undefined;
      throw race ?? error;
    }),
  );
  return { email, accountId: signedUp?.user.id ?? null };
}

/**
 * A sign-up that failed to insert because another one took the username or the address after the checks (the
 * unique indexes decide): the username's refusal as when it was taken before, or "email" for a sign-up to
 * answer as a success, as when the address had an account before.
 */
async function takenMeanwhile(error: unknown, { email, username }: { email: string; username: string }, db: Kysely<DB>) {
  if (!isAPIError(error) || errorCode(error) !== "FAILED_TO_CREATE_USER") return undefined;
  const clash = await db.selectFrom("users").select("id").where("username", "=", username.toLowerCase()).executeTakeFirst();
  if (clash) return fieldConflict("username", messages.auth.usernameTaken);
  return (await findUser(db, email)) ? ("email" as const) : undefined;
}
