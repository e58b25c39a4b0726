import { randomInt } from "node:crypto";
import { isAPIError, type APIError } from "better-auth/api";
import { sql, type Kysely } from "kysely";
import { messages } from "#common/shared/messages.ts";
import {
  changePasswordSchema,
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
} from "#common/accounts/account-schemas.ts";
import type { Auth } from "./auth/auth.ts";
import { CLIENT_IP_HEADER } from "./auth/auth-rules.ts";
import type { Database, Dialect } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toFlag } from "../../platform/db/values.ts";
import {
  fieldConflict,
  InvalidInputError,
  NotFoundError,
  ServiceError,
  TooManyRequestsError,
  parseInput,
} from "../../platform/errors.ts";
import type { EventLog } from "../../platform/event-log.ts";
import { SESSION_COOKIE, type RequestContext, type SessionUser } from "../../platform/session-user.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";

/** Our page a reset link leads to. */
const RESET_PAGE = "/reset-password";

/** The name an admin account made from ADMIN_EMAIL starts with (editable on its profile). */
const ADMIN_NAME = "Shop Admin";

/** Cookies the auth library set, for the page or API response to pass on. */
export interface CookieResult {
  setCookies: string[];
}

export type AccountsService = ReturnType<typeof createAccountsService>;

const a = messages.auth;

/**
 * Accounts on top of Better Auth: pages and API handlers call these, never the auth library directly, so
 * every path gets the same validation, limits and messages.
 */
export function createAccountsService(auth: Auth, { db, dialect }: Pick<Database, "db" | "dialect">, events: EventLog) {
  /** The request's headers with the connection address the auth rules key their limits on. */
  function authHeaders(request: RequestContext): Headers {
    const headers = new Headers(request.headers);
    headers.set(CLIENT_IP_HEADER, request.clientIp ?? "unknown");
    return headers;
  }

  /** A new password through Better Auth's own hasher, and every session of the account signed out. */
  async function resetAccount(userId: string, password: string) {
    const context = await auth.$context;
    const hash = await context.password.hash(password);
    if (await context.internalAdapter.findCredentialAccount(userId)) await context.internalAdapter.updatePassword(userId, hash);
    else await context.internalAdapter.linkAccount({ userId, providerId: "credential", accountId: userId, password: hash });
    await context.internalAdapter.deleteUserSessions(userId);
  }

  return {
    /**
     * The signed-in person, and the cookies to pass on: once a day the session's 7 idle days start again, in
     * the database and in the cookie's Max-Age (or a cookie of a session that is gone is cleared).
     */
    async getSession(request: RequestContext): Promise<{ user: SessionUser | null } & CookieResult> {
      if (!request.headers.get("cookie")) return { user: null, setCookies: [] };
      const { headers, response } = await auth.api.getSession({ headers: authHeaders(request), returnHeaders: true });
      return { user: response ? toSessionUser(response.user) : null, setCookies: headers.getSetCookie() };
    },

    async register(input: unknown, request: RequestContext): Promise<{ email: string }> {
      const { name, username, email, password } = parseInput(registerSchema, input);
      // An address that has an account gets the answer a new one gets; Better Auth mails its owner instead
      // (onExistingUserSignUp, decision 015). A taken username is said: usernames are public anyway.
      await callAuth(() =>
        auth.api.signUpEmail({ body: { name, username, email, password }, headers: authHeaders(request) }).catch(async (error: unknown) => {
          const race = await takenMeanwhile(error, { email, username }, db);
          if (race === "email") return;
          throw race ?? error;
        }),
      );
      return { email };
    },

    async signIn(input: unknown, request: RequestContext): Promise<CookieResult> {
      const { email, password } = parseInput(loginSchema, input);
      const { headers } = await callAuth(() =>
        auth.api.signInEmail({ body: { email, password }, headers: authHeaders(request), returnHeaders: true }),
      );
      return { setCookies: headers.getSetCookie() };
    },

    async signOut(request: RequestContext): Promise<CookieResult> {
      const { headers } = await callAuth(() => auth.api.signOut({ headers: authHeaders(request), returnHeaders: true }));
      return { setCookies: headers.getSetCookie() };
    },

    /**
     * Follows the link of a verification e-mail; signs the person in. A link followed again, once the address
     * is verified, is a success without a sign-in (Better Auth signs in only on the first use): `alreadyVerified`.
     */
    async verifyEmail(token: string, request: RequestContext): Promise<CookieResult & { alreadyVerified: boolean }> {
      if (!resetPasswordSchema.shape.token.safeParse(token).success) throw new InvalidInputError(a.verifyFailed);
      try {
        const { headers } = await auth.api.verifyEmail({ query: { token }, headers: authHeaders(request), returnHeaders: true });
        const setCookies = headers.getSetCookie();
        return { setCookies, alreadyVerified: !setCookies.some((cookie) => cookie.includes(`${SESSION_COOKIE}=`)) };
      } catch (error) {
        if (isAPIError(error)) throw new InvalidInputError(a.verifyFailed);
        throw error;
      }
    },

    async resendVerification(input: unknown, request: RequestContext): Promise<void> {
      const { email } = parseInput(emailOnlySchema, input);
      await callAuth(() => auth.api.sendVerificationEmail({ body: { email, callbackURL: "/" }, headers: authHeaders(request) }));
    },

    /** Sends a reset link when the account exists; answers the same either way. */
    async requestPasswordReset(input: unknown, request: RequestContext): Promise<void> {
      const { email } = parseInput(emailOnlySchema, input);
      await callAuth(() => auth.api.requestPasswordReset({ body: { email, redirectTo: RESET_PAGE }, headers: authHeaders(request) }));
    },

    /**
     * Whether a reset link can still be used (not unknown, used or expired), for the page to say so before a
     * new password is typed. Better Auth decides, with the check its own link endpoint makes: it redirects to
     * the callback with the token when it is good, with `error=INVALID_TOKEN` when not.
     */
    async isResetLinkValid(token: string | null): Promise<boolean> {
      const parsed = resetPasswordSchema.shape.token.safeParse(token);
      if (!parsed.success) return false;
      const response = await auth.api.requestPasswordResetCallback({
        params: { token: parsed.data },
        query: { callbackURL: RESET_PAGE },
        asResponse: true,
      });
      const location = response.headers.get("location");
      return location !== null && new URL(location, "http://callback.invalid").searchParams.get("token") === parsed.data;
    },

    async resetPassword(input: unknown, request: RequestContext): Promise<void> {
      const { token, password } = parseInput(resetPasswordSchema, input);
      await callAuth(() => auth.api.resetPassword({ body: { token, newPassword: password }, headers: authHeaders(request) }));
    },

    /** Changes the signed-in person's password and signs out their other sessions. */
    async changePassword(input: unknown, request: RequestContext): Promise<CookieResult> {
      const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
      const { headers } = await callAuth(() =>
        auth.api.changePassword({
          body: { currentPassword, newPassword, revokeOtherSessions: true },
          headers: authHeaders(request),
          returnHeaders: true,
        }),
      );
      return { setCookies: headers.getSetCookie() };
    },

    /**
     * ADMIN_EMAIL + ADMIN_PASSWORD at start-up: create that account, or promote it; e-mail counts as verified.
     * An unverified account under that address may be anybody's (whoever registered it first), so it takes
     * ADMIN_PASSWORD and loses its sessions before it is promoted.
     */
    async ensureAdmin({ email, password }: { email: string; password: string }): Promise<"created" | "promoted"> {
      const existing = await findUser(db, email);
      if (!existing) {
        const username = await freeUsername(db, email);
        await callAuth(() => auth.api.createUser({ body: { email, password, name: ADMIN_NAME, role: "admin", data: { username } } }));
      } else if (!existing.emailVerified) {
        // Whoever registered the address first never proved it: their password, sessions and profile go.
        await resetAccount(existing.id, password);
        const username = await freeUsername(db, email);
        await db
          .updateTable("users")
          .set({ name: ADMIN_NAME, username, displayUsername: username, image: null, phone: null, address: null, location: null })
          .where("id", "=", existing.id)
          .execute();
      }
      await setRole(db, dialect, email, "admin", { verify: true });
      const outcome = existing ? "promoted" : "created";
      events.info("admin.role-changed", { accountId: existing?.id ?? (await findUser(db, email))?.id ?? null, role: "admin", by: "ADMIN_EMAIL", outcome });
      return outcome;
    },

    /** For the admin CLI: grant (e-mail then counts as verified, as with ADMIN_EMAIL) or revoke the admin role. */
    async setAdmin(email: string, isAdmin: boolean): Promise<void> {
      const user = await findUser(db, email);
      if (!user) throw new NotFoundError(`There is no account with the e-mail ${email}.`);
      await setRole(db, dialect, email, isAdmin ? "admin" : "user", { verify: isAdmin });
      events.info("admin.role-changed", { accountId: user.id, role: isAdmin ? "admin" : "user", by: "admin command" });
    },
  };
}

interface AuthUser {
  id: string;
  name: string;
  email: string;
  image?: string | null | undefined;
  emailVerified: boolean;
  username?: string | null | undefined;
  displayUsername?: string | null | undefined;
  role?: string | null | undefined;
}

export function toSessionUser(user: AuthUser): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.displayUsername ?? user.username ?? "",
    image: user.image ?? null,
    emailVerified: user.emailVerified,
    isAdmin: user.role === "admin",
  };
}

/**
 * Runs an auth library call and turns its errors into the shop's messages. `isAPIError`, not `instanceof`:
 * the library's request validation throws better-call's own error class (issue 7: those escaped as 500s).
 */
async function callAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAPIError(error)) throw fromAuthError(error);
    throw error;
  }
}

function errorCode(error: APIError): string | undefined {
  return (error.body as { code?: string } | undefined)?.code;
}

function fromAuthError(error: APIError): ServiceError {
  const body = (error.body ?? {}) as { message?: string };
  switch (errorCode(error)) {
    case "INVALID_EMAIL_OR_PASSWORD":
      return new InvalidInputError(a.invalidCredentials);
    case "EMAIL_NOT_VERIFIED":
      return new ServiceError(403, a.emailNotVerified, undefined, ERROR_CODES.emailNotVerified);
    case "USERNAME_IS_ALREADY_TAKEN":
      return fieldConflict("username", a.usernameTaken);
    case "USER_ALREADY_EXISTS":
    case "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL":
      return fieldConflict("email", a.emailTaken);
    case "PASSWORD_TOO_COMMON":
      return new InvalidInputError(messages.validation.passwordTooCommon, {
        password: messages.validation.passwordTooCommon,
        newPassword: messages.validation.passwordTooCommon,
      });
    case "INVALID_PASSWORD":
      return new InvalidInputError(a.currentPasswordWrong, { currentPassword: a.currentPasswordWrong });
    case "INVALID_TOKEN":
      return new ServiceError(400, a.resetLinkInvalid, undefined, ERROR_CODES.resetLinkInvalid);
    case "INVALID_EMAIL":
      return new InvalidInputError(messages.validation.invalidEmail, { email: messages.validation.invalidEmail });
    case "VALIDATION_ERROR":
      // The library's own check of its input; its message names fields in its own words, ours do not.
      return new InvalidInputError("The request is not valid. Check the form and try again.");
  }
  if (error.statusCode === 429) {
    return new TooManyRequestsError(body.message ?? "Too many requests. Please wait a little and try again.", retryAfter(error));
  }
  if (error.statusCode === 401) return new ServiceError(401, body.message ?? "Please log in first.");
  if (error.statusCode === 403) return new ServiceError(403, body.message ?? "You are not allowed to do that.");
  if (error.statusCode === 404) return new ServiceError(404, body.message ?? "Not found");
  return new InvalidInputError(body.message ?? "The request could not be completed.");
}

function retryAfter(error: APIError): number {
  const headers = error.headers instanceof Headers ? error.headers : new Headers();
  return Number(headers.get("retry-after") ?? 60) || 60;
}

async function findUser(db: Kysely<DB>, email: string) {
  const row = await db
    .selectFrom("users")
    .select(["id", "emailVerified"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
  return row && { id: row.id, emailVerified: Boolean(row.emailVerified) };
}

/**
 * A sign-up that failed to insert because another one took the username or the address after the checks (the
 * unique indexes decide): the username's refusal as when it was taken before, or "email" for a sign-up to
 * answer as a success, as when the address had an account before.
 */
async function takenMeanwhile(error: unknown, { email, username }: { email: string; username: string }, db: Kysely<DB>) {
  if (!isAPIError(error) || errorCode(error) !== "FAILED_TO_CREATE_USER") return undefined;
  const clash = await db.selectFrom("users").select("id").where("username", "=", username.toLowerCase()).executeTakeFirst();
  if (clash) return fieldConflict("username", a.usernameTaken);
  return (await findUser(db, email)) ? ("email" as const) : undefined;
}

async function setRole(db: Kysely<DB>, dialect: Dialect, email: string, role: "admin" | "user", { verify }: { verify: boolean }) {
  await db
    .updateTable("users")
    .set({ role, ...(verify ? { emailVerified: toFlag(dialect, true) } : {}), updatedAt: new Date().toISOString() })
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .execute();
}

/** A username for an account made from the environment: the e-mail's local part, made unique. */
async function freeUsername(db: Kysely<DB>, email: string): Promise<string> {
  const base = (email.split("@")[0] ?? "admin").replace(/[^A-Za-z0-9_.]/g, "").slice(0, 24).padEnd(3, "_").toLowerCase();
  for (let candidate = base; ; candidate = `${base}${randomInt(1000, 9999)}`) {
    const taken = await db.selectFrom("users").select("id").where("username", "=", candidate).executeTakeFirst();
    if (!taken) return candidate;
  }
}
