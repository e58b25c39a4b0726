import { createHmac, timingSafeEqual } from "node:crypto";
import { loginSchema } from "#common/accounts/account-schemas.ts";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import { parseInput } from "../../platform/errors.ts";
import { SESSION_UNCHANGED, type SessionCaller, type SessionOutcome, type SessionUser } from "../../platform/session-user.ts";
import type { Auth } from "./auth/auth.ts";
import { SESSION_IDLE_SECONDS, SESSION_MAX_AGE_MS, SESSION_REFRESH_SECONDS } from "./auth/auth-rules.ts";
import { toSessionUser } from "./account-records.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth, sessionOutcome } from "./auth-calls.ts";
import { withPluginCookies } from "./second-factor-cookies.ts";
import { signInOutcome, type SignInOutcome } from "./two-factor.ts";
import { noteSessionUse, noteSessionUseByToken } from "./session-last-use.ts";

// Sessions: reading the one a request presents (nearly every signed-in request), signing in and signing out.

/** A session and its account, by the session's token: the statement of nearly every signed-in request. */
const sessionWithUser = compiledOnce((db, { token }: { token: string }) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.userId")
    .select(["s.id as sessionId", "s.lastUsedAt", "s.expiresAt", "s.createdAt", "u.id", "u.name", "u.email", "u.image", "u.emailVerified", "u.username", "u.displayUsername", "u.role", "u.twoFactorEnabled"])
    .where("s.token", "=", token),
);

/** Sessions never outlive SESSION_MAX_AGE_MS from sign-in, however active (decision 008). */
const pastMaxAge = (createdAt: string | Date, now = Date.now()) => new Date(createdAt).getTime() < now - SESSION_MAX_AGE_MS;

/** The secret each Better Auth instance signs its session cookies with, read from it once. */
const secrets = new WeakMap<Auth, string>();

/**
 * The person holding a session credential, and what became of the session: once a day its 7 idle days start
 * again (issued anew), and a credential of a session that is gone is ended.
 */
export async function getSession(
  ctx: Pick<AccountsContext, "auth" | "db" | "policy">,
  caller: SessionCaller,
): Promise<{ user: SessionUser | null; session: SessionOutcome }> {
  if (!caller.sessionCredential) return { user: null, session: SESSION_UNCHANGED };
  const known = await liveSession(ctx, caller.sessionCredential, Boolean(caller.forgetOnClose));
  if (known) return { user: known, session: SESSION_UNCHANGED };
  const read = async () => ctx.auth.api.getSession({ headers: await authHeaders(ctx.auth, caller), returnHeaders: true });
  let { headers, response } = await read();
  // A session past its maximum age is deleted on sight, and read again so that Better Auth answers "no
  // session" and clears the cookie. Checked on the row just read rather than by a DELETE before every
  // signed-in request.
  if (response && pastMaxAge(response.session.createdAt)) {
    await ctx.db.deleteFrom("sessions").where("token", "=", response.session.token).execute();
    ({ headers, response } = await read());
  }
  if (response) await noteSessionUseByToken(ctx.db, response.session.token, Date.now());
  return { user: response ? toSessionUser(response.user, ctx.policy) : null, session: await sessionOutcome(ctx.auth, headers) };
}

/**
 * The person holding a live session credential that needs no change, or undefined for anything else (no
 * credential, a bad one, one whose session is gone, expired or due to slide): for a caller that answers only such
 * requests and hands every other one to getSession, which decides and says what becomes of the cookie.
 */
export async function liveSessionUser(ctx: Pick<AccountsContext, "auth" | "db" | "policy">, caller: SessionCaller): Promise<SessionUser | undefined> {
  if (!caller.sessionCredential) return undefined;
  return liveSession(ctx, caller.sessionCredential, Boolean(caller.forgetOnClose));
}

/**
 * The fast path of getSession, for what nearly every signed-in request presents: a live session that needs no
 * change. The credential's signature is checked as Better Auth checks it (HMAC-SHA256 of the token with the
 * secret), synchronously, and the session and its user are read in one statement; everything else (a bad
 * signature, no such session, an expired or too old one, one whose idle days are due to start again) is
 * undefined and goes to Better Auth, which decides and says what becomes of the cookie. Nothing is cached: a
 * signed-out session is gone on the next request, in every process (docs/decisions/008, "Sessions").
 */
async function liveSession(
  { auth, db, policy }: Pick<AccountsContext, "auth" | "db" | "policy">,
  credential: string,
  forgetOnClose: boolean,
): Promise<SessionUser | undefined> {
  const dot = credential.lastIndexOf(".");
  const token = credential.slice(0, dot);
  const signature = credential.slice(dot + 1);
  if (dot < 1 || signature.length !== 44 || !signature.endsWith("=")) return undefined;
  let secret = secrets.get(auth);
  if (secret === undefined) secrets.set(auth, (secret = (await auth.$context).secret));
  const expected = createHmac("sha256", secret).update(token).digest();
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
  // Written once every few minutes per session at most; most requests write nothing (session-last-use.ts).
  await noteSessionUse(db, { id: row.sessionId, lastUsedAt: row.lastUsedAt }, now);
  return toSessionUser({ ...row, emailVerified: Boolean(row.emailVerified) }, policy);
}

/**
 * Signs the person in: the new session's credential, or, for an account with two-factor on, the library's cookie of
 * the pending second factor (the browser's trusted-device cookie, passed in with `browserCookies`, skips it).
 */
export async function signIn(
  { auth }: Pick<AccountsContext, "auth">,
  input: unknown,
  caller: SessionCaller,
  browserCookies: string | null = null,
): Promise<SignInOutcome> {
  const { email, password, code } = parseInput(loginSchema, input);
  // The code e-mailed to an account that needs one besides its password (decision 014), read by the auth hooks.
  const body = { email, password, ...(code ? { code } : {}) };
  const { headers, response } = await callAuth(async () =>
    auth.api.signInEmail({ body, headers: await withPluginCookies(auth, await authHeaders(auth, caller), browserCookies), returnHeaders: true }),
  );
  return signInOutcome(auth, headers, response);
}

/** Ends the caller's session. */
export async function signOut({ auth }: Pick<AccountsContext, "auth">, caller: SessionCaller): Promise<{ session: SessionOutcome }> {
  const { headers } = await callAuth(async () => auth.api.signOut({ headers: await authHeaders(auth, caller), returnHeaders: true }));
  return { session: await sessionOutcome(auth, headers) };
}
