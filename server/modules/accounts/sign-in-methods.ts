import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { messages } from "#common/shared/messages.ts";
import { chooseUsernameSchema } from "#common/accounts/account-schemas.ts";
import { isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { fieldConflict, InvalidInputError, NotFoundError, parseInput, ServiceError } from "../../platform/errors.ts";
import type { SessionCaller, SessionUser } from "../../platform/session-user.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, errorCode } from "./auth-calls.ts";
import type { SignInProvider } from "./auth/sign-in-providers.ts";
import { recordProviderUnlinked } from "./auth/provider-events.ts";

// Signing in with an OpenID Connect provider, and the account's sign-in methods (docs/decisions/039). Better Auth
// runs the flows (generic-oauth plugin); these start them for the pages and apply the shop's rules around them.

const m = messages.signInMethods;

/** Where a sign-in started from the pages continues: the page the shopper was going to, or a page to pick a username. */
export const CHOOSE_USERNAME_PATH = "/choose-username";
export const SIGN_IN_METHODS_PATH = "/account/sign-in-methods";

export interface ProviderRedirect {
  /** The provider's authorization address, to send the browser to. */
  url: string;
  /** Set-Cookie headers binding the flow to this browser (Better Auth's state cookie). */
  cookies: string[];
}

export interface SignInMethods {
  hasPassword: boolean;
  providers: { id: string; name: string; linked: boolean }[];
}

const providerInput = z.object({ provider: z.string({ error: m.unknownProvider }).max(100, m.unknownProvider) });

type ProvidersContext = Pick<AccountsContext, "auth" | "db" | "signInProviders">;

function findProvider(providers: readonly SignInProvider[], id: unknown): SignInProvider {
  const found = providers.find((provider) => provider.id === id);
  if (!found) throw new InvalidInputError(m.unknownProvider, { provider: m.unknownProvider });
  return found;
}

/** How a provider is named to people: its configured name, or its id for one no longer configured. */
export function providerName(providers: readonly SignInProvider[], id: string): string {
  return providers.find((provider) => provider.id === id)?.name ?? id;
}

/**
 * Starts a sign-in with a provider. After it, the browser comes back to `redirectTo` (or, for a new account, to the
 * username page first, which then goes on to `redirectTo`); a refusal comes back to the login page with Better
 * Auth's error code, which the page words (signInErrorMessage).
 */
export async function startProviderSignIn(ctx: ProvidersContext, input: unknown, redirectTo: string, caller: SessionCaller): Promise<ProviderRedirect> {
  const provider = findProvider(ctx.signInProviders, parseInput(providerInput, input).provider);
  const next = encodeURIComponent(redirectTo);
  const body = {
    provider: provider.id,
    callbackURL: redirectTo,
    newUserCallbackURL: `${CHOOSE_USERNAME_PATH}?redirectTo=${next}`,
    errorCallbackURL: `/login?provider=${provider.id}&redirectTo=${next}`,
    disableRedirect: true,
  };
  const { headers, response } = await callAuth(async () => ctx.auth.api.signInSocial({ body, headers: await authHeaders(ctx.auth, caller), returnHeaders: true }));
  if (!response.url) throw new InvalidInputError(m.providerFailed(provider.name));
  return { url: response.url, cookies: headers.getSetCookie() };
}

/** The words for a provider sign-in that came back refused (Better Auth's `error` code on the login page). */
export function signInErrorMessage(providers: readonly SignInProvider[], providerId: string | null, error: string): string {
  const name = providers.find((provider) => provider.id === providerId)?.name ?? "that provider";
  if (error === "account_not_linked") return m.notLinked(name);
  if (error === "unable_to_create_user") return m.unverifiedNewAccount(name);
  return m.providerFailed(name);
}

/** The words for a link that came back refused (Better Auth's `error` code on the sign-in methods page). */
export function linkErrorMessage(providers: readonly SignInProvider[], providerId: string | null, error: string): string {
  const name = providers.find((provider) => provider.id === providerId)?.name ?? "that provider";
  switch (error) {
    case "email_does_not_match":
      return m.linkDifferentEmail(name);
    case "unable_to_link_account":
      return m.linkUnverified(name);
    case "account_already_linked_to_different_user":
      return m.linkTaken(name);
    default:
      return m.linkFailed(name);
  }
}

/** The signed-in person's ways in: a password or not, and each configured provider (or one linked before) linked or not. */
export async function listSignInMethods(ctx: ProvidersContext, user: SessionUser): Promise<SignInMethods> {
  const rows = await ctx.db.selectFrom("accounts").select("providerId").where("userId", "=", user.id).execute();
  const linked = new Set(rows.map((row) => row.providerId));
  const ids = [...new Set([...ctx.signInProviders.map((provider) => provider.id), ...linked])].filter((id) => id !== "credential");
  return {
    hasPassword: linked.has("credential"),
    providers: ids.map((id) => ({ id, name: providerName(ctx.signInProviders, id), linked: linked.has(id) })),
  };
}

/** Starts linking a provider to the signed-in account; the browser comes back to the sign-in methods page. */
export async function startProviderLink(ctx: ProvidersContext, input: unknown, caller: SessionCaller): Promise<ProviderRedirect> {
  const provider = findProvider(ctx.signInProviders, parseInput(providerInput, input).provider);
  const body = {
    provider: provider.id,
    callbackURL: `${SIGN_IN_METHODS_PATH}?linked=${provider.id}`,
    errorCallbackURL: `${SIGN_IN_METHODS_PATH}?provider=${provider.id}`,
    disableRedirect: true,
  };
  const { headers, response } = await callAuth(async () => ctx.auth.api.linkSocialAccount({ body, headers: await authHeaders(ctx.auth, caller), returnHeaders: true }));
  if (!response.url) throw new InvalidInputError(m.linkFailed(provider.name));
  return { url: response.url, cookies: headers.getSetCookie() };
}

/**
 * Removes a linked provider from the signed-in account, unless it is the account's only way in (no password and
 * no other provider): Better Auth refuses that too, but the person is told why and what to do instead.
 */
export async function removeProvider(ctx: ProvidersContext, user: SessionUser, input: unknown, caller: SessionCaller): Promise<{ name: string }> {
  const { provider: id } = parseInput(providerInput, input);
  const rows = await ctx.db.selectFrom("accounts").select(["id", "providerId"]).where("userId", "=", user.id).execute();
  const name = providerName(ctx.signInProviders, id);
  const account = id === "credential" ? undefined : rows.find((row) => row.providerId === id);
  if (!account) throw new NotFoundError(m.notLinkedToRemove(name));
  if (rows.length < 2) throw new ServiceError(409, m.lastWayIn(name));
  const headers = await authHeaders(ctx.auth, caller);
  await callAuth(() =>
    ctx.auth.api.unlinkAccount({ body: { accountId: account.id }, headers }).catch((error: unknown) => {
      // Better Auth's own refusals, in the page's words; any other goes through callAuth's translation.
      if (isAPIError(error) && errorCode(error) === "SESSION_NOT_FRESH") throw new ServiceError(403, m.loginAgainToRemove);
      if (isAPIError(error) && errorCode(error) === "FAILED_TO_UNLINK_LAST_ACCOUNT") throw new ServiceError(409, m.lastWayIn(name));
      throw error;
    }),
  );
  await recordProviderUnlinked(ctx.db, { userId: user.id, method: name }, caller);
  return { name };
}

/**
 * The username of an account made by a provider sign-in, which has none yet: the register form's rules and
 * messages, and a taken name refused (the unique index decides between two people choosing it at once).
 */
export async function chooseUsername(ctx: Pick<AccountsContext, "db">, user: SessionUser, input: unknown): Promise<void> {
  const { username: chosen } = parseInput(chooseUsernameSchema, input);
  if (user.username) throw new ServiceError(409, "Your username is chosen already; change it on your profile.");
  const username = chosen.toLowerCase();
  const clash = await ctx.db.selectFrom("users").select("id").where("username", "=", username).where("id", "!=", user.id).executeTakeFirst();
  if (clash) throw fieldConflict("username", messages.auth.usernameTaken);
  try {
    await ctx.db
      .updateTable("users")
      .set({ username, displayUsername: chosen, updatedAt: new Date().toISOString() })
      .where("id", "=", user.id)
      .where("username", "is", null)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldConflict("username", messages.auth.usernameTaken);
    throw error;
  }
}

