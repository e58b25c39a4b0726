import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware, isAPIError, sendVerificationEmailFn } from "better-auth/api";
import { admin, emailOTP, username } from "better-auth/plugins";
import type { Logger } from "pino";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { registerSchema } from "#common/accounts/account-schemas.ts";
import { hasControlCharacters } from "#common/shared/fields.ts";
import type { Database } from "../../../platform/db/client.ts";
import { existingAccountEmail, passwordChangedEmail, passwordResetEmail, signInCodeEmail, verificationEmail } from "../account-mails.ts";
import type { MailOutbox, OutboxMail } from "../../../platform/mail/mail-outbox.ts";
import { TooManyRequestsError } from "../../../platform/errors.ts";
import type { EventLog } from "../../../platform/event-log.ts";
import { sessionCookieAttributes, authCookieName } from "../../../platform/http/session-cookie.ts";
import type { RateLimiter, RateRule } from "../../../platform/rate-limit/rate-limit.ts";
import {
  authRateRules,
  CLIENT_IP_HEADER,
  DISABLED_AUTH_PATHS,
  RESET_LINK_MINUTES,
  SESSION_IDLE_SECONDS,
  SESSION_MAX_AGE_MS,
  SESSION_REFRESH_SECONDS,
  SIGN_IN_CODE_MINUTES,
  SIGN_IN_CODE_TRIES,
  accountAtAddress,
} from "./auth-rules.ts";
import { isCommonPassword } from "./common-passwords.ts";
import { hashPassword, verifyPassword } from "./password-hashing.ts";

export interface AuthDependencies {
  database: Pick<Database, "db" | "dialect">;
  publicUrl: URL;
  secret: string;
  shopName: string;
  outbox: MailOutbox;
  rateLimiter: RateLimiter;
  logger: Logger;
  events: EventLog;
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Better Auth on our database: e-mail and password, usernames, roles. We add what the shop needs on top:
 * argon2id hashing, e-mails queued in our outbox with links to our own pages, database-backed rate limits
 * that also cover the pages' form actions, a common-password check, and a 30-day cap on any session.
 */
/**
 * Set to false on an EMAIL_NOT_VERIFIED refusal when no new verification link was sent (the per-address limit held it
 * back), so that the refusal does not say one was.
 */
export const NEW_LINK_SENT = "newLinkSent";

export function createAuth({ database, publicUrl, secret, shopName, outbox, rateLimiter, logger, events }: AuthDependencies) {
  const https = publicUrl.protocol === "https:";
  // __Host- binds a cookie to this exact origin (Secure, Path=/, no Domain): only possible over https. Every
  // cookie the library may set gets it there, not only the session's (decision 011). Names and attributes are the
  // platform's, which writes the session cookie of the pages' sign-ins.
  const cookieName = (name: string) => authCookieName(https, name);
  const sessionCookie = cookieName("session_token");
  const link = (path: string, token: string) => `${publicUrl.origin}${path}?token=${encodeURIComponent(token)}`;
  // Queued on their own (the library calls these after its writes); the outbox worker sends them. A mail that
  // cannot even be queued must not undo a sign-up or a reset request: the person can ask again.
  const queueMail = async (mail: OutboxMail) => {
    try {
      await outbox.enqueue(database.db, mail);
    } catch (error) {
      logger.error({ err: error, kind: mail.kind, reference: mail.reference }, "e-mail could not be queued");
    }
  };
  const passwordChanged = (user: { id: string; email: string; name: string }) =>
    queueMail({ kind: "password-changed", reference: user.id, to: user.email, ...passwordChangedEmail({ shopName, name: user.name }) });

  const auth = betterAuth({
    appName: shopName,
    // The library's own messages go to our log, as JSON lines with the rest. (No `level`: with one set, the
    // library also prints every refused request to the console.)
    logger: {
      log: (level, message, ...details: unknown[]) => logger[level]({ source: "better-auth", details }, message),
    },
    baseURL: publicUrl.origin,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [publicUrl.origin],
    database: { db: database.db, type: database.dialect },
    user: {
      modelName: "users",
      additionalFields: {
        phone: { type: "string", required: false, input: false },
        address: { type: "string", required: false, input: false },
        location: { type: "string", required: false, input: false },
      },
    },
    session: { modelName: "sessions", expiresIn: SESSION_IDLE_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    account: { modelName: "accounts" },
    // Only a SHA-256 of each reset token reaches the database, so a copy of it opens no account (decision 015).
    // (Verification links are tokens signed with the secret and are never stored.)
    verification: { modelName: "verifications", storeIdentifier: "hashed" },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
      revokeSessionsOnPasswordReset: true,
      // A sign-up with an address that has an account answers like any other (no account enumeration, decision
      // 015); the owner hears of it by e-mail instead, at most a few times an hour.
      onExistingUserSignUp: async ({ user }) => {
        if (!(await rateLimiter.tryHit(authRateRules.existingAccountNoticePerEmail, user.email.toLowerCase()))) return;
        await queueMail({
          kind: "existing-account",
          reference: user.id,
          to: user.email,
          ...existingAccountEmail({ shopName, name: user.name, loginUrl: `${publicUrl.origin}/login`, resetUrl: `${publicUrl.origin}/forgot-password` }),
        });
      },
      // Using one reset link ends every other link of the account: an older e-mail left in an inbox cannot be
      // used after the password was reset with a newer one. A reset link is the only per-account row the shop
      // keeps in `verifications` (verification links are signed tokens, not rows), so all of them go.
      onPasswordReset: async ({ user }) => {
        const context = await auth.$context;
        await context.adapter.deleteMany({ model: "verification", where: [{ field: "value", value: user.id }] });
        // The link came by e-mail, so the address is proven: an account never verified can sign in with the new
        // password (and whoever registered the address without owning it has lost the account to its owner).
        if (!user.emailVerified) await context.internalAdapter.updateUser(user.id, { emailVerified: true });
        events.info("password-reset.completed", { accountId: user.id });
        // The owner hears of every new password, so a stranger's reset does not go unnoticed.
        await passwordChanged(user);
      },
      sendResetPassword: ({ user, token }) =>
        queueMail({
          kind: "password-reset",
          reference: user.id,
          to: user.email,
          ...passwordResetEmail({ shopName, name: user.name, url: link("/reset-password", token), expiresInMinutes: RESET_LINK_MINUTES }),
        }),
    },
    emailVerification: {
      sendOnSignUp: true,
      // Off: the after-hook below sends it instead, within the per-address limit on verification e-mails.
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, token }) =>
        queueMail({ kind: "verification", reference: user.id, to: user.email, ...verificationEmail({ shopName, name: user.name, url: link("/verify", token) }) }),
    },
    // Our own limits (below) are stored in the database and cover page actions too.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: false,
      cookiePrefix: "plant-shop",
      defaultCookieAttributes: sessionCookieAttributes(https),
      cookies: Object.fromEntries(
        ["session_token", "session_data", "account_data", "dont_remember", "admin_session", "oauth_state"].map((name) => [name, { name: cookieName(name) }]),
      ),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [
      username({ minUsernameLength: 3, maxUsernameLength: 30 }),
      admin(),
      // The codes of the sign-in guard (decision 014): made, stored (hashed) and checked by the library; its HTTP
      // endpoints are closed and the before-hook below asks for a code only where it is needed.
      emailOTP({
        otpLength: 6,
        expiresIn: SIGN_IN_CODE_MINUTES * 60,
        allowedAttempts: SIGN_IN_CODE_TRIES,
        storeOTP: "hashed",
        disableSignUp: true,
        sendVerificationOTP: async ({ email, otp, type }) => {
          if (type !== "sign-in") return;
          const found = await (await auth.$context).internalAdapter.findUserByEmail(email);
          if (!found) return;
          await queueMail({
            kind: "sign-in-code",
            reference: found.user.id,
            to: found.user.email,
            ...signInCodeEmail({ shopName, name: found.user.name, code: otp, expiresInMinutes: SIGN_IN_CODE_MINUTES }),
          });
        },
      }),
    ],
    // Endpoints the shop does not use, among them every way to write a user's fields past our services.
    disabledPaths: [...DISABLED_AUTH_PATHS],
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const ip = ctx.headers?.get(CLIENT_IP_HEADER) ?? "unknown";
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        refuseControlCharacters(body);
        refuseCommonPassword(ctx.path, body);
        switch (ctx.path) {
          case "/sign-in/email": {
            await limit(authRateRules.signInPerIp, ip);
            // Counted before the password is checked, so parallel guesses cannot all slip under the limits.
            await limit(authRateRules.passwordFailuresPerIp, ip);
            await limit(authRateRules.signInFailuresPerAccount, accountAtAddress(emailOf(body), ip));
            // Past this many wrong passwords from anywhere, the password alone no longer signs the account in.
            if (!(await rateLimiter.tryHit(authRateRules.signInFailuresForAccount, emailOf(body)))) await requireSignInCode(ctx, body, ip);
            break;
          }
          case "/change-password": {
            const userId = await signedInUserId(ctx);
            // Without a session the endpoint answers 401 itself, before any password is checked.
            if (!userId) break;
            // Every other session ends, as on the profile page, whatever a JSON caller asks for. (A body that is
            // not an object is the endpoint's to refuse.)
            if (isRecord(ctx.body)) ctx.body.revokeOtherSessions = true;
            await limit(authRateRules.passwordFailuresPerIp, ip);
            // Per account, from every address: a stolen session on many networks gets no more guesses than on one.
            await limit(authRateRules.changePasswordFailuresPerAccount, userId);
            break;
          }
          case "/sign-up/email":
            await limit(authRateRules.signUpPerIp, ip);
            keepRegisterFields(body);
            break;
          case "/request-password-reset":
            await limit(authRateRules.resetPerIp, ip);
            await limit(authRateRules.resetPerEmail, accountAtAddress(emailOf(body), ip));
            // The mailbox's own cap answers as if a mail went out: the links it got in the window still work.
            if (!(await mayMail(authRateRules.resetMailsPerEmail, emailOf(body)))) return ctx.json(RESET_REQUESTED);
            break;
          case "/send-verification-email":
            await limit(authRateRules.verificationPerIp, ip);
            await limit(authRateRules.verificationPerEmail, accountAtAddress(emailOf(body), ip));
            if (!(await mayMail(authRateRules.verificationMailsPerEmail, emailOf(body)))) return ctx.json({ status: true });
            break;
        }
        // A session read (every signed-in request) checks the age on the row it reads instead (accounts.getSession).
        if (ctx.path !== "/get-session") await expireOldSession(ctx);
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path === "/sign-up/email") {
          giveNewUserRole(ctx.context.returned);
          return;
        }
        const ip = ctx.headers?.get(CLIENT_IP_HEADER) ?? "unknown";
        const returned = ctx.context.returned;
        if (ctx.path === "/change-password") {
          const userId = ctx.context.session?.user.id;
          if (!userId) return;
          // Only a wrong current password is a failed guess; anything else (success, a too-short new one) is not.
          if (hasErrorCode(returned, "INVALID_PASSWORD")) {
            events.warn("password-change.failed", { accountId: userId, reason: "wrong current password" });
          } else {
            if (!isAPIError(returned)) await passwordChanged(ctx.context.session!.user);
            await rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
            await rateLimiter.undo(authRateRules.changePasswordFailuresPerAccount, userId);
          }
          return;
        }
        if (ctx.path !== "/sign-in/email") return;
        const email = emailOf((ctx.body ?? {}) as Record<string, unknown>);
        const unverified = hasErrorCode(returned, "EMAIL_NOT_VERIFIED");
        // Only a 401 is a wrong password. Anything else was no failed guess, and the attempt counted above is
        // given back: the password was right (signed in, or refused as unverified), or none was checked (a body
        // the endpoint refused as malformed, such as a password that is not a string).
        if (isAPIError(returned) && returned.statusCode === 401) {
          const found = await ctx.context.internalAdapter.findUserByEmail(email);
          events.warn("sign-in.failed", { accountId: found?.user.id ?? null, email, reason: found ? "wrong password" : "no such account" });
        } else {
          await undoSignInFailure(email, ip);
        }
        // Better Auth's own resend on sign-in (sendOnSignIn), within the per-address limit on verification mails.
        if (!unverified) return;
        if (
          (await rateLimiter.tryHit(authRateRules.verificationPerEmail, accountAtAddress(email, ip))) &&
          (await mayMail(authRateRules.verificationMailsPerEmail, email))
        ) {
          const found = await ctx.context.internalAdapter.findUserByEmail(email);
          if (found) await sendVerificationEmailFn(ctx, found.user);
        } else {
          // The refusal must not say a new link went out when the limit held it back.
          throw new APIError("FORBIDDEN", { code: "EMAIL_NOT_VERIFIED", message: "Email not verified", [NEW_LINK_SENT]: false });
        }
      }),
    },
  });

  return auth;

  /** The account of the request's session cookie, if it is a live session (checked again by the endpoint). */
  async function signedInUserId(ctx: { getSignedCookie(name: string, secret: string): Promise<string | null | false> }) {
    const token = await ctx.getSignedCookie(sessionCookie, secret);
    if (!token) return undefined;
    const row = await database.db
      .selectFrom("sessions")
      .select("userId")
      .where("token", "=", token)
      .where("expiresAt", ">", new Date().toISOString())
      .executeTakeFirst();
    return row?.userId;
  }

  /** A sign-in attempt counted before its password was checked turned out to be no wrong password. */
  async function undoSignInFailure(email: string, ip: string) {
    await rateLimiter.undo(authRateRules.passwordFailuresPerIp, ip);
    await rateLimiter.undo(authRateRules.signInFailuresPerAccount, accountAtAddress(email, ip));
    await rateLimiter.undo(authRateRules.signInFailuresForAccount, email);
  }

  /**
   * The sign-in guard (decision 014), for an account past its wrong passwords from every address: the sign-in goes
   * on only with the right password *and* the code e-mailed to the account. The password is checked here first, and
   * every answer short of success is the same whether it was right or not, so the guesser learns nothing: without a
   * code, "we e-mailed you a code if the password was right" (and a code is sent only then, to the account's
   * address); with one, "the password or the code is not right". Codes are tried only with the right password, so a
   * guesser cannot use up the owner's code either. A right password is no failed guess: its counts are given back.
   */
  async function requireSignInCode(ctx: AuthHookContext, body: Record<string, unknown>, ip: string) {
    const email = emailOf(body);
    const code = typeof body.code === "string" ? body.code.trim() : "";
    // Not a password at all: the endpoint refuses the body itself, and the after-hook gives the counts back.
    if (typeof body.password !== "string") return;
    const found = await ctx.context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
    const hash = found?.accounts.find((account) => account.providerId === "credential")?.password;
    // Without an account the same work is done (a hash), so the answer takes as long as for a wrong password.
    const rightPassword = hash ? await ctx.context.password.verify({ hash, password: body.password }) : (await ctx.context.password.hash(body.password), false);
    if (!found || !rightPassword) {
      events.warn("sign-in.failed", { accountId: found?.user.id ?? null, email, reason: found ? "wrong password" : "no such account", codeRequired: true });
      throw code ? wrongSignInCode() : signInCodeRequired();
    }
    if (!code) {
      await undoSignInFailure(email, ip);
      // Past its own cap no new code goes out; the newest one mailed is still good (the cap's window is its life).
      if (await rateLimiter.tryHit(authRateRules.signInCodesPerAccount, found.user.id)) {
        await auth.api.sendVerificationOTP({ body: { email, type: "sign-in" } });
        events.info("sign-in.code-sent", { accountId: found.user.id, email });
      }
      throw signInCodeRequired();
    }
    try {
      // Checked by the library (expiry, tries left, in constant time) and then used up, so it works once.
      await auth.api.checkVerificationOTP({ body: { email, type: "sign-in", otp: code } });
      await ctx.context.internalAdapter.deleteVerificationByIdentifier(`sign-in-otp-${email}`);
    } catch (error) {
      if (!isAPIError(error)) throw error;
      await undoSignInFailure(email, ip);
      events.warn("sign-in.failed", { accountId: found.user.id, email, reason: "wrong or expired sign-in code" });
      throw wrongSignInCode();
    }
    // Password and code are right: the endpoint signs in (checking the password once more, as it always does).
  }

  /**
   * Whether one more mail may go to this mailbox; when not, the request is answered as usual and no mail is sent
   * (the limiter logs the first one held back in a window as `limit.hit`).
   */
  function mayMail(rule: RateRule, email: string) {
    return rateLimiter.tryHit(rule, email);
  }

  async function limit(rule: RateRule, subject: string) {
    try {
      await rateLimiter.hit(rule, subject);
    } catch (error) {
      if (error instanceof TooManyRequestsError) {
        throw new APIError("TOO_MANY_REQUESTS", { message: error.message }, { "Retry-After": String(error.retryAfterSeconds) });
      }
      throw error;
    }
  }

  /** Sessions slide for 7 idle days but never outlive 30 days from sign-in: an older one is deleted on sight. */
  async function expireOldSession(ctx: { getSignedCookie(name: string, secret: string): Promise<string | null | false> }) {
    const token = await ctx.getSignedCookie(sessionCookie, secret);
    if (!token) return;
    const cutoff = new Date(Date.now() - SESSION_MAX_AGE_MS).toISOString();
    await database.db.deleteFrom("sessions").where("token", "=", token).where("createdAt", "<", cutoff).execute();
  }
}

/** What a hook is given: the endpoint's context, with the library's adapter and password hasher. */
type AuthHookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const signInCodeRequired = () =>
  new APIError("FORBIDDEN", { code: ERROR_CODES.signInCodeRequired, message: messages.auth.signInCodeSent });
const wrongSignInCode = () =>
  new APIError("UNAUTHORIZED", { code: ERROR_CODES.signInCodeInvalid, message: messages.auth.signInCodeWrong });

/** Better Auth's answer to a reset request, whether or not a mail went out (no account enumeration). */
const RESET_REQUESTED = { status: true, message: "If this email exists in our system, check your email for the reset link" };

/** One account at one client address: the unit failed passwords are counted in. */
const emailOf = (body: Record<string, unknown>) => (typeof body.email === "string" ? body.email.trim().toLowerCase() : "");

function hasErrorCode(returned: unknown, code: string): boolean {
  return isAPIError(returned) && (returned.body as { code?: unknown } | undefined)?.code === code;
}

/**
 * No field of an auth request takes a control character: a NUL in an e-mail or a token reached PostgreSQL,
 * which cannot compare it (it used to answer 500). Checked in every string, however deep.
 */
function refuseControlCharacters(value: unknown, depth = 0): void {
  if (typeof value === "string") {
    if (hasControlCharacters(value)) throw new APIError("BAD_REQUEST", { message: messages.validation.controlCharactersInRequest, code: "CONTROL_CHARACTERS" });
  } else if (value !== null && typeof value === "object" && depth < 8) {
    for (const item of Object.values(value)) refuseControlCharacters(item, depth + 1);
  }
}

/**
 * Better Auth's made-up answer to a sign-up with a taken address has every field of a real one but the role,
 * which the admin plugin sets as the row is written: set here, so the two answers cannot be told apart.
 * (Its `customSyntheticUser` option would drop the username fields, which it is not given.)
 */
function giveNewUserRole(returned: unknown) {
  const body = isRecord(returned) && returned._flag === "json" ? returned.body : returned;
  const user = isRecord(body) ? body.user : undefined;
  if (isRecord(user) && user.role == null) user.role = "user";
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** Our list of the most common passwords, for every new password (a sign-in only checks an old one). */
function refuseCommonPassword(path: string, body: Record<string, unknown>) {
  if (path === "/sign-in/email") return;
  for (const field of ["password", "newPassword"]) {
    const candidate = body[field];
    if (typeof candidate === "string" && isCommonPassword(candidate)) {
      throw new APIError("BAD_REQUEST", { message: messages.validation.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
    }
  }
}

/**
 * A sign-up, also through the JSON endpoint, carries the register form's fields and nothing else: no picture,
 * and the shown @username is the username itself (Better Auth would take any `image` and `displayUsername`).
 */
function keepRegisterFields(body: Record<string, unknown>) {
  const parsed = registerSchema.safeParse(body);
  if (!parsed.success) throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "The request is not valid." });
  for (const key of Object.keys(body)) delete body[key];
  Object.assign(body, parsed.data, { displayUsername: parsed.data.username });
}
