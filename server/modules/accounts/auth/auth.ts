import { betterAuth } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { admin, emailOTP, username } from "better-auth/plugins";
import { sessionCookieAttributes, authCookieName } from "../../../platform/http/session-cookie.ts";
import {
  CLIENT_IP_HEADER,
  DISABLED_AUTH_PATHS,
  RESET_LINK_MINUTES,
  SESSION_IDLE_SECONDS,
  SESSION_REFRESH_SECONDS,
  SIGN_IN_CODE_MINUTES,
  SIGN_IN_CODE_TRIES,
} from "./auth-rules.ts";
import { afterAuthHook } from "./after-hook.ts";
import { beforeAuthHook } from "./before-hook.ts";
import type { AuthAdapters, AuthDependencies, AuthHooksContext } from "./hooks-context.ts";
import { EMAIL_LINK_HOURS, sendExistingAccountNotice, sendPasswordResetMail, sendSignInCodeMail, sendVerificationMail } from "./mail-senders.ts";
import { removeAccountRecords } from "../account-deletion.ts";
import { afterPasswordReset } from "./password-reset.ts";
import { hashPassword, verifyPassword } from "./password-hashing.ts";
import { magicLinkPlugin, secondFactorPlugin } from "./second-factor.ts";
import { securityActivity } from "./security-activity.ts";
import { providerAccounts } from "./provider-accounts.ts";
import { recordProviderLinked } from "./provider-events.ts";
import { PROVIDER_ACCOUNT_LINKING, providerSignInPlugins } from "./sign-in-providers.ts";

export type { AuthDependencies } from "./hooks-context.ts";

export type Auth = ReturnType<typeof createAuth>;

/**
 * Better Auth on our database: e-mail and password, usernames, roles. We add what the shop needs on top:
 * argon2id hashing, e-mails queued in our outbox with links to our own pages, database-backed rate limits
 * that also cover the pages' form actions, a common-password check, and a 30-day cap on any session.
 */
export function createAuth(deps: AuthDependencies) {
  const { database, publicUrl, secret, shopName, logger } = deps;
  const https = publicUrl.protocol === "https:";
  // __Host- binds a cookie to this exact origin (Secure, Path=/, no Domain): only possible over https. Every
  // cookie the library may set gets it there, not only the session's (decision 011). Names and attributes are the
  // platform's, which writes the session cookie of the pages' sign-ins.
  const cookieName = (name: string) => authCookieName(https, name);
  // What the hooks and mail senders below are given; the instance they reach is made just after, before any runs.
  const hooks: AuthHooksContext = {
    ...deps,
    sessionCookie: cookieName("session_token"),
    authContext: (): Promise<AuthAdapters> => auth.$context,
    sendSignInCode: (email): Promise<unknown> => auth.api.sendVerificationOTP({ body: { email, type: "sign-in" } }),
    checkSignInCode: (email, otp): Promise<unknown> => auth.api.checkVerificationOTP({ body: { email, type: "sign-in", otp } }),
  };

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
      // Reached only through the accounts service (their endpoints are closed): it asks for the password or a
      // recent login first, and the deletion's records go in one transaction of ours (decision 040).
      changeEmail: { enabled: true },
      deleteUser: { enabled: true, beforeDelete: (user) => removeAccountRecords(user) },
    },
    session: { modelName: "sessions", expiresIn: SESSION_IDLE_SECONDS, updateAge: SESSION_REFRESH_SECONDS },
    account: { modelName: "accounts", accountLinking: PROVIDER_ACCOUNT_LINKING },
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
      onExistingUserSignUp: ({ user }) => sendExistingAccountNotice(hooks, user),
      // Using one reset link ends every other link of the account; the address counts as proven (password-reset.ts).
      onPasswordReset: ({ user }) => afterPasswordReset(hooks, user),
      sendResetPassword: (data) => sendPasswordResetMail(hooks, data),
    },
    emailVerification: {
      sendOnSignUp: true,
      // Off: the after-hook below sends it instead, within the per-address limit on verification e-mails.
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: EMAIL_LINK_HOURS * 60 * 60,
      sendVerificationEmail: (data) => sendVerificationMail(hooks, data),
    },
    // Our own limits (the hooks below, before-hook.ts) are stored in the database and cover page actions too.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: false,
      cookiePrefix: "plant-shop",
      defaultCookieAttributes: sessionCookieAttributes(https),
      cookies: Object.fromEntries(
        ["session_token", "session_data", "account_data", "dont_remember", "admin_session", "oauth_state", "state", "two_factor", "trust_device"].map((name) => [name, { name: cookieName(name) }]),
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
        sendVerificationOTP: (data) => sendSignInCodeMail(hooks, data),
      }),
      // Sign-in with Google or another OpenID Connect provider, when configured (docs/decisions/039).
      ...providerSignInPlugins(deps.signInProviders),
      providerAccounts(hooks, (link, origin) => recordProviderLinked(hooks, link, origin)),
      secondFactorPlugin(shopName),
      magicLinkPlugin(hooks),
      // Last: it records what each endpoint finally did, after every other plugin's hooks (security-activity.ts).
      securityActivity(database.db, Object.fromEntries(deps.signInProviders.map((provider) => [provider.id, provider.name]))),
    ],
    // Endpoints the shop does not use, among them every way to write a user's fields past our services.
    disabledPaths: [...DISABLED_AUTH_PATHS],
    hooks: {
      before: createAuthMiddleware(async (ctx) => beforeAuthHook(hooks, ctx)),
      after: createAuthMiddleware(async (ctx) => afterAuthHook(hooks, ctx)),
    },
  });

  return auth;
}
