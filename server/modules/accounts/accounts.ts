import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { isAPIError, type APIError } from "better-auth/api";
import { parseSetCookieHeader } from "better-auth/cookies";
import { verifyJWT } from "better-auth/crypto";
import { sql, type Kysely } from "kysely";
import { messages } from "#common/shared/messages.ts";
import {
  changePasswordSchema,
  emailOnlySchema,
  loginSchema,
  registerSchema,
  resetPasswordSchema,
  verifyEmailSchema,
} from "#common/accounts/account-schemas.ts";
import { NEW_LINK_SENT, type Auth } from "./auth/auth.ts";
import {
  accountAtAddress,
  authRateRules,
  CLIENT_IP_HEADER,
  SESSION_IDLE_SECONDS,
  SESSION_MAX_AGE_MS,
  SESSION_REFRESH_SECONDS,
} from "./auth/auth-rules.ts";
import type { Database, Dialect } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
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
import type { RateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { SESSION_UNCHANGED, type SessionCaller, type SessionOutcome, type SessionUser } from "../../platform/session-user.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";

/** Our page a reset link leads to. */
const RESET_PAGE = "/reset-password";

/** The name an admin account made from ADMIN_EMAIL starts with (editable on its profile). */
const ADMIN_NAME = "Shop Admin";

export type AccountsService = ReturnType<typeof createAccountsService>;

/** What following a verification link came to (see `verifyEmail`). */
export type VerificationOutcome =
  | { kind: "verified"; session: SessionOutcome }
  | { kind: "alreadyVerified" }
  | { kind: "passwordNeeded" };

const a = messages.auth;

/**
 * Accounts on top of Better Auth: pages and API handlers call these, never the auth library directly, so
 * every path gets the same validation, limits and messages.
 */
/** A session and its account, by the session's token: the statement of nearly every signed-in request. */
const sessionWithUser = compiledOnce((db, { token }: { token: string }) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .select(["s.expiresAt", "s.createdAt", "u.id", "u.name", "u.email", "u.image", "u.emailVerified", "u.username", "u.displayUsername", "u.role"])
    .where("s.token", "=", token),
);

export function createAccountsService(auth: Auth, { db, dialect }: Pick<Database, "db" | "dialect">, events: EventLog, rateLimiter: RateLimiter) {
  /**
   * Better Auth speaks HTTP even when called in-process: who is asking goes in as request headers (the session
   * credential as its cookie, the address in the header its rules read) and what it did to the session comes back
   * as Set-Cookie. These two translate, so the functions below take a caller and return outcomes.
   */
  async function authHeaders(caller: SessionCaller): Promise<Headers> {
    const headers = new Headers({ [CLIENT_IP_HEADER]: caller.clientIp ?? "unknown" });
    if (caller.userAgent) headers.set("user-agent", caller.userAgent);
    const cookies = (await auth.$context).authCookies;
    const sent = [];
    if (caller.sessionCredential) sent.push(`${cookies.sessionToken.name}=${encodeURIComponent(caller.sessionCredential)}`);
    // Without its "don't remember" marker, Better Auth would slide such a session at its daily refresh and re-set the
    // cookie with a Max-Age, so a browser-session cookie became a 7-day one. With it, the library leaves it as it is.
    if (caller.sessionCredential && caller.forgetOnClose) sent.push(`${cookies.dontRememberToken.name}=${encodeURIComponent(caller.forgetOnClose)}`);
    if (sent.length) headers.set("cookie", sent.join("; "));
    return headers;
  }

  async function sessionOutcome(responseHeaders: Headers): Promise<SessionOutcome> {
    const cookie = parseSetCookieHeader(responseHeaders.get("set-cookie") ?? "").get(await sessionCookieName());
    if (!cookie) return SESSION_UNCHANGED;
    if (!cookie.value || cookie["max-age"] === 0) return { kind: "ended" };
    return { kind: "issued", credential: cookie.value, expiresInSeconds: cookie["max-age"] ?? null };
  }

  async function sessionCookieName(): Promise<string> {
    return (await auth.$context).authCookies.sessionToken.name;
  }

  /** Sessions never outlive SESSION_MAX_AGE_MS from sign-in, however active (decision 008). */
  const pastMaxAge = (createdAt: string | Date, now = Date.now()) => new Date(createdAt).getTime() < now - SESSION_MAX_AGE_MS;

  /**
   * The fast path of getSession, for what nearly every signed-in request presents: a live session that needs no
   * change. The credential's signature is checked as Better Auth checks it (HMAC-SHA256 of the token with the
   * secret), synchronously, and the session and its user are read in one statement; everything else (a bad
   * signature, no such session, an expired or too old one, one whose idle days are due to start again) is
   * undefined and goes to Better Auth, which decides and says what becomes of the cookie. Nothing is cached: a
   * signed-out session is gone on the next request, in every process (docs/decisions/008, "Sessions").
   */
  async function liveSession(credential: string, forgetOnClose: boolean): Promise<SessionUser | undefined> {
    const dot = credential.lastIndexOf(".");
    const token = credential.slice(0, dot);
    const signature = credential.slice(dot + 1);
    if (dot < 1 || signature.length !== 44 || !signature.endsWith("=")) return undefined;
    const expected = createHmac("sha256", (secret ??= (await auth.$context).secret)).update(token).digest();
    const given = Buffer.from(signature, "base64");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const row = await sessionWithUser.executeTakeFirst(db, { token });
    if (!row) return undefined;
    const now = Date.now();
    const expiresAt = new Date(row.expiresAt).getTime();
    // Better Auth slides the idle lifetime once SESSION_REFRESH_SECONDS have passed since it last did.
    // A session made without "remember me" never slides (Better Auth's rule): it is not due, however old.
    const refreshDue = !forgetOnClose && expiresAt - SESSION_IDLE_SECONDS * 1000 + SESSION_REFRESH_SECONDS * 1000 <= now;
    if (!(expiresAt > now) || refreshDue || pastMaxAge(row.createdAt, now)) return undefined;
    return toSessionUser({ ...row, emailVerified: Boolean(row.emailVerified) });
  }
  let secret: string | undefined;

  /** The account a verification link was made for, if its signature holds and it has not expired. */
  async function accountOfVerificationToken(token: string) {
    const payload = await verifyJWT(token, (await auth.$context).secret);
    if (typeof payload?.email !== "string") return undefined;
    const email = payload.email.toLowerCase();
    const found = await findUser(db, email);
    return found && { ...found, email };
  }

  /**
   * Whether `password` is the account's, counted as a sign-in is (docs/decisions/014): every attempt costs a hash,
   * so it counts per address; a wrong password counts as a failed guess per account and address, a right one is
   * given back.
   */
  async function isAccountPassword(account: { id: string; email: string }, password: string, caller: SessionCaller): Promise<boolean> {
    const ip = caller.clientIp ?? "unknown";
    await rateLimiter.hit(authRateRules.signInPerIp, ip);
    await rateLimiter.hit(authRateRules.passwordFailuresPerIp, ip);
    await rateLimiter.hit(authRateRules.signInFailuresPerAccount, accountAtAddress(account.email, ip));
    const context = await auth.$context;
    const hash = (await context.internalAdapter.findCredentialAccount(account.id))?.password;
    const matches = typeof hash === "string" && (await context.password.verify({ hash, password }));
    if (matches) {
      await rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
      await rateLimiter.undo(authRateRules.signInFailuresPerAccount, accountAtAddress(account.email, ip));
    } else {
      events.warn("sign-in.failed", { accountId: account.id, email: account.email, reason: "wrong password to verify the address" });
    }
    return matches;
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
     * The person holding a session credential, and what became of the session: once a day its 7 idle days start
     * again (issued anew), and a credential of a session that is gone is ended.
     */
    async getSession(caller: SessionCaller): Promise<{ user: SessionUser | null; session: SessionOutcome }> {
      if (!caller.sessionCredential) return { user: null, session: SESSION_UNCHANGED };
      const known = await liveSession(caller.sessionCredential, Boolean(caller.forgetOnClose));
      if (known) return { user: known, session: SESSION_UNCHANGED };
      const read = async () => auth.api.getSession({ headers: await authHeaders(caller), returnHeaders: true });
      let { headers, response } = await read();
      // A session past its maximum age is deleted on sight, and read again so that Better Auth answers "no
      // session" and clears the cookie. Checked on the row just read rather than by a DELETE before every
      // signed-in request.
      if (response && pastMaxAge(response.session.createdAt)) {
        await db.deleteFrom("sessions").where("token", "=", response.session.token).execute();
        ({ headers, response } = await read());
      }
      return { user: response ? toSessionUser(response.user) : null, session: await sessionOutcome(headers) };
    },

    /**
     * Creates the account; `accountId` is the id the sign-up answered, which /verify compares with the link's
     * account. For an address that has an account it is a made-up one, so it never matches.
     */
    async register(input: unknown, caller: SessionCaller): Promise<{ email: string; accountId: string | null }> {
      const { name, username, email, password } = parseInput(registerSchema, input);
      // An address that has an account gets the answer a new one gets; Better Auth mails its owner instead
      // (onExistingUserSignUp, decision 015). A taken username is said: usernames are public anyway.
      const headers = await authHeaders(caller);
      const signedUp = await callAuth(() =>
        auth.api.signUpEmail({ body: { name, username, email, password }, headers }).catch(async (error: unknown) => {
          const race = await takenMeanwhile(error, { email, username }, db);
          if (race === "email") return undefined;
          throw race ?? error;
        }),
      );
      return { email, accountId: signedUp?.user.id ?? null };
    },

    /** Signs the person in: the new session's credential. */
    async signIn(input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
      const { email, password, code } = parseInput(loginSchema, input);
      // The code e-mailed to an account that needs one besides its password (decision 014), read by the auth hooks.
      const body = { email, password, ...(code ? { code } : {}) };
      const { headers } = await callAuth(async () => auth.api.signInEmail({ body, headers: await authHeaders(caller), returnHeaders: true }));
      return { session: await sessionOutcome(headers) };
    },

    /** Ends the caller's session. */
    async signOut(caller: SessionCaller): Promise<{ session: SessionOutcome }> {
      const { headers } = await callAuth(async () => auth.api.signOut({ headers: await authHeaders(caller), returnHeaders: true }));
      return { session: await sessionOutcome(headers) };
    },

    /**
     * Follows the link of a verification e-mail. Whoever registered an address first chose its password, and a
     * stranger may have: so the link verifies only for someone who shows they know that password (decision 008),
     * either as the browser the account was signed up in (`signedUpAs`: the account id its sign-up answered, kept
     * sealed in a cookie) or by typing it (`password`). Without either it answers `passwordNeeded`. Verified here,
     * the person is signed in; an address verified already is `alreadyVerified`, with no sign-in.
     */
    async verifyEmail(input: { token: unknown; password?: unknown; signedUpAs?: string | null }, caller: SessionCaller): Promise<VerificationOutcome> {
      const token = resetPasswordSchema.shape.token.safeParse(input.token);
      const account = token.success ? await accountOfVerificationToken(token.data) : undefined;
      if (!token.success || !account) throw new InvalidInputError(a.verifyFailed);
      if (account.emailVerified) return { kind: "alreadyVerified" };
      if (input.password === undefined) {
        if (!input.signedUpAs || input.signedUpAs !== account.id) return { kind: "passwordNeeded" };
      } else {
        const { password } = parseInput(verifyEmailSchema, { token: token.data, password: input.password });
        if (!(await isAccountPassword(account, password, caller))) {
          throw new InvalidInputError(a.wrongPasswordToVerify, { password: a.wrongPasswordToVerify });
        }
      }
      try {
        const { headers } = await auth.api.verifyEmail({ query: { token: token.data }, headers: await authHeaders(caller), returnHeaders: true });
        return { kind: "verified", session: await sessionOutcome(headers) };
      } catch (error) {
        if (isAPIError(error)) throw new InvalidInputError(a.verifyFailed);
        throw error;
      }
    },

    async resendVerification(input: unknown, caller: SessionCaller): Promise<void> {
      const { email } = parseInput(emailOnlySchema, input);
      await callAuth(async () => auth.api.sendVerificationEmail({ body: { email, callbackURL: "/" }, headers: await authHeaders(caller) }));
    },

    /** Sends a reset link when the account exists; answers the same either way. */
    async requestPasswordReset(input: unknown, caller: SessionCaller): Promise<void> {
      const { email } = parseInput(emailOnlySchema, input);
      await callAuth(async () => auth.api.requestPasswordReset({ body: { email, redirectTo: RESET_PAGE }, headers: await authHeaders(caller) }));
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

    async resetPassword(input: unknown, caller: SessionCaller): Promise<void> {
      const { token, password } = parseInput(resetPasswordSchema, input);
      await callAuth(async () => auth.api.resetPassword({ body: { token, newPassword: password }, headers: await authHeaders(caller) }));
    },

    /** Changes the signed-in person's password and signs out their other sessions; theirs is issued anew. */
    async changePassword(input: unknown, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
      const { currentPassword, newPassword } = parseInput(changePasswordSchema, input);
      const { headers } = await callAuth(async () =>
        auth.api.changePassword({
          body: { currentPassword, newPassword, revokeOtherSessions: true },
          headers: await authHeaders(caller),
          returnHeaders: true,
        }),
      );
      return { session: await sessionOutcome(headers) };
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
 * the library's request validation throws better-call's own error class (with `instanceof` those escaped as 500s).
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
    case "EMAIL_NOT_VERIFIED": {
      const linkSent = (error.body as Record<string, unknown> | undefined)?.[NEW_LINK_SENT] !== false;
      return new ServiceError(403, linkSent ? a.emailNotVerified : a.emailNotVerifiedRecentLink, undefined, ERROR_CODES.emailNotVerified);
    }
    case ERROR_CODES.signInCodeRequired:
      return new ServiceError(403, a.signInCodeSent, undefined, ERROR_CODES.signInCodeRequired);
    case ERROR_CODES.signInCodeInvalid:
      return new ServiceError(400, a.signInCodeWrong, { code: a.signInCodeWrong }, ERROR_CODES.signInCodeInvalid);
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
