import type { RateRule } from "../../../platform/rate-limit/rate-limit.ts";

// Limits on the account endpoints (docs/decisions/014), kept in the database so they
// hold across processes. The refusal adds "Please try again in N minutes." to each message.
const minute = 60_000;
const hour = 60 * minute;
const tooMany = (what: string) => `Too many ${what}.`;

export const authRateRules = {
  // Failed passwords count per account *and address*, so someone guessing from elsewhere slows themselves down
  // but never locks the owner out at their own address; the per-address count caps guessing across accounts.
  signInFailuresPerAccount: { name: "sign-in-failures", limit: 5, windowMs: minute, message: tooMany("failed sign-in attempts for this e-mail") },
  // Wrong passwords for one account from every address together. Never refused: past it, a password alone no
  // longer signs the account in; a code e-mailed to the account is needed too (decision 014), so a guesser spread
  // over many addresses learns nothing more, and the owner, who has the mailbox, is never locked out.
  signInFailuresForAccount: { name: "sign-in-failures-account", limit: 10, windowMs: 24 * hour, message: tooMany("wrong passwords for this account") },
  // Sign-in codes mailed to one account (only ever to someone who typed the right password). Past it no new code goes
  // out and the newest one is used: the window is no longer than a code lives.
  signInCodesPerAccount: { name: "sign-in-codes", limit: 5, windowMs: 15 * minute, message: tooMany("sign-in codes") },
  // Every attempt, right or wrong: each costs an argon2 hash.
  signInPerIp: { name: "sign-in-ip", limit: 30, windowMs: minute, message: tooMany("sign-in attempts") },
  passwordFailuresPerIp: { name: "password-failures-ip", limit: 20, windowMs: hour, message: tooMany("wrong passwords from your network") },
  changePasswordFailuresPerAccount: {
    name: "change-password-failures",
    limit: 5,
    windowMs: 15 * minute,
    message: tooMany("wrong current passwords"),
  },
  signUpPerIp: { name: "sign-up-ip", limit: 20, windowMs: hour, message: tooMany("new accounts from your network") },
  // Mail requests for one e-mail are refused per (e-mail, address): requests from elsewhere never use up what the
  // person asking at their own address may send (decision 014).
  resetPerEmail: { name: "reset-email", limit: 3, windowMs: 15 * minute, message: tooMany("password reset requests for this e-mail") },
  resetPerIp: { name: "reset-ip", limit: 10, windowMs: hour, message: tooMany("password reset requests") },
  verificationPerEmail: { name: "verify-email", limit: 3, windowMs: 10 * minute, message: tooMany("verification e-mails") },
  verificationPerIp: { name: "verify-ip", limit: 10, windowMs: hour, message: tooMany("verification e-mails") },
  // What one mailbox receives, from every address together. Never refused (the answer stays the same): past it no
  // new mail goes out, and the links mailed within the window are still good, because the window is shorter than a
  // link lives (reset links an hour, verification links a day).
  resetMailsPerEmail: { name: "reset-mails", limit: 5, windowMs: 30 * minute, message: tooMany("password reset e-mails") },
  verificationMailsPerEmail: { name: "verify-mails", limit: 5, windowMs: hour, message: tooMany("verification e-mails") },
  // Never refused to the sender (that would tell the address has an account): past it, no more mail is sent.
  existingAccountNoticePerEmail: { name: "existing-account-notice", limit: 3, windowMs: hour, message: tooMany("sign-ups with this e-mail") },
  // Wrong authenticator or recovery codes, counted like wrong passwords: per account at one address, and per address.
  // (The two-factor plugin also locks an account for a while after 10 wrong codes in a row from anywhere.)
  secondFactorFailuresPerAccount: { name: "two-factor-failures", limit: 5, windowMs: 15 * minute, message: tooMany("wrong codes for this account") },
  secondFactorFailuresPerIp: { name: "two-factor-failures-ip", limit: 20, windowMs: hour, message: tooMany("wrong codes from your network") },
  // Sign-in links by e-mail, limited as reset links are: per (e-mail, address) and per address, refused with a
  // message; and per mailbox, never refused (past it no mail goes out; the window is no longer than a link lives).
  magicLinkPerEmail: { name: "magic-link-email", limit: 3, windowMs: 15 * minute, message: tooMany("sign-in links for this e-mail") },
  magicLinkPerIp: { name: "magic-link-ip", limit: 10, windowMs: hour, message: tooMany("sign-in links") },
  magicLinkMailsPerEmail: { name: "magic-link-mails", limit: 5, windowMs: 15 * minute, message: tooMany("sign-in link e-mails") },
  // Requests to change an account's address, per account (it is signed in, so a refusal tells nobody anything).
  emailChangePerAccount: { name: "email-change", limit: 5, windowMs: hour, message: tooMany("requests to change the e-mail address") },
  // Never refused: past these, no more confirmation links go to the new address, nor notices to an address's holder.
  emailChangeMailsPerEmail: { name: "email-change-mails", limit: 3, windowMs: hour, message: tooMany("e-mail change links") },
  emailTakenNoticePerEmail: { name: "email-taken-notice", limit: 3, windowMs: hour, message: tooMany("requests for this e-mail") },
} satisfies Record<string, RateRule>;

/** The subject of a per-account limit that counts at one address only (decision 014). */
export const accountAtAddress = (account: string, ip: string) => `${account} ${ip}`;

export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** How often a session's 7 idle days start again (Better Auth's updateAge): at most once a day. */
export const SESSION_REFRESH_SECONDS = 24 * 60 * 60;
export const RESET_LINK_MINUTES = 60;
/** How long an e-mailed sign-in code works (and how many wrong tries it takes before it is used up). */
export const SIGN_IN_CODE_MINUTES = 15;
export const SIGN_IN_CODE_TRIES = 3;
/** How long an e-mailed sign-in link works (once). */
export const MAGIC_LINK_MINUTES = 15;
/** How long after the password (or link) the second factor may be given, and how long "trust this device" lasts. */
export const SECOND_FACTOR_PENDING_MINUTES = 10;
export const TRUSTED_DEVICE_DAYS = 30;

/**
 * Endpoints besides the password sign-ins that end in a new session, after which the two-factor plugin must ask
 * for the second factor (second-factor.ts). Paths as Better Auth writes them, with their parameters.
 */
export const ALSO_NEEDS_SECOND_FACTOR = [
  "/magic-link/verify",
  // A provider's return address (auth-handler.ts sends the browser on to the code's step).
  "/callback/:id",
];
/** An account without a password proves it is its owner by a login this recent (decision 040). */
export const FRESH_SIGN_IN_MINUTES = 10;

/**
 * Better Auth's HTTP endpoints the shop answers under /api/auth: the pages' flows and their JSON twins. The two
 * with a parameter cannot be switched off by path; without social providers they only redirect to a trusted origin.
 */
export const OPEN_AUTH_PATHS = [
  "/sign-up/email",
  "/sign-in/email",
  "/sign-out",
  "/get-session",
  "/send-verification-email",
  "/request-password-reset",
  "/reset-password",
  "/reset-password/:token",
  "/change-password",
  "/ok",
  "/error",
  // Sign-in with an OpenID Connect provider (generic-oauth plugin, docs/decisions/039): the start, for JSON clients
  // (the pages start it in-process), and the provider's return address, which auth-handler.ts opens only for a
  // configured provider.
  "/sign-in/social",
  "/callback/:id",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/sign-in/magic-link",
] as const;

/**
 * Everything else Better Auth and its plugins mount, switched off (404): no request may write a user's fields
 * past our services (update-user), sign in around our limits (sign-in/username) or reach an account or admin
 * tool the shop does not offer. A test fails when an upgrade mounts an endpoint on neither list.
 */
export const DISABLED_AUTH_PATHS = [
  "/sign-in/username",
  "/is-username-available",
  "/update-user",
  "/change-email",
  "/delete-user",
  "/delete-user/callback",
  "/update-session",
  "/verify-password",
  // A verification link is followed through our page or POST /api/verification, which first ask for proof
  // that the person knows the account's password (decision 008); Better Auth's endpoint would verify without.
  "/verify-email",
  // Linking and removing a provider: the sign-in methods page does it in-process, with the shop's rules and log.
  "/link-social",
  "/unlink-account",
  "/list-accounts",
  "/account-info",
  "/refresh-token",
  "/get-access-token",
  "/admin/set-role",
  "/admin/get-user",
  "/admin/create-user",
  "/admin/update-user",
  "/admin/list-users",
  "/admin/list-user-sessions",
  "/admin/unban-user",
  "/admin/ban-user",
  "/admin/impersonate-user",
  "/admin/stop-impersonating",
  "/admin/revoke-user-session",
  "/admin/revoke-user-sessions",
  "/admin/remove-user",
  "/admin/set-user-password",
  "/admin/has-permission",
  // The e-mailed code plugin serves only the sign-in guard of decision 014, in-process: none of its own ways in
  // (a code alone signing in, resetting a password, verifying or changing an address) is open.
  "/email-otp/send-verification-otp",
  "/email-otp/check-verification-otp",
  "/email-otp/verify-email",
  "/sign-in/email-otp",
  "/email-otp/request-password-reset",
  "/email-otp/reset-password",
  "/forget-password/email-otp",
  "/email-otp/request-email-change",
  "/email-otp/change-email",
  // The account's sessions are listed and ended on its security page, on the server (account-sessions.ts), which
  // records each ended one. The list endpoint handed every session's token to any script of the page (decision 041).
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  // Two-factor: an authenticator app and recovery codes only. No codes by e-mail or SMS; the secret and the
  // recovery codes are shown once, when turned on, and never again.
  "/two-factor/get-totp-uri",
  "/two-factor/send-otp",
  "/two-factor/verify-otp",
  "/two-factor/generate-backup-codes",
  // The sign-in link is followed through our page (/login/link), which calls the library in-process.
  "/magic-link/verify",
];

/** The connection's address, set by our server on every request into the auth library (never by the client). */
export const CLIENT_IP_HEADER = "x-plant-shop-client-ip";
