import type { RateRule } from "../services/rate-limit.ts";

// Limits on the account endpoints (issue 3, "Security"), kept in the database so they hold across processes.
const minute = 60_000;
const hour = 60 * minute;
const wait = (what: string) => `Too many ${what}. Please wait a little and try again.`;

export const authRateRules = {
  signInFailuresPerEmail: { name: "sign-in-failures", limit: 5, windowMs: minute, message: wait("failed sign-in attempts for this e-mail") },
  signInPerIp: { name: "sign-in-ip", limit: 30, windowMs: minute, message: wait("sign-in attempts") },
  signUpPerIp: { name: "sign-up-ip", limit: 20, windowMs: hour, message: wait("new accounts from your network") },
  resetPerEmail: { name: "reset-email", limit: 3, windowMs: 15 * minute, message: wait("password reset requests for this e-mail") },
  resetPerIp: { name: "reset-ip", limit: 10, windowMs: hour, message: wait("password reset requests") },
  verificationPerEmail: { name: "verify-email", limit: 3, windowMs: 10 * minute, message: wait("verification e-mails") },
  verificationPerIp: { name: "verify-ip", limit: 10, windowMs: hour, message: wait("verification e-mails") },
} satisfies Record<string, RateRule>;

export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
export const RESET_LINK_MINUTES = 60;

/** The connection's address, set by our server on every request into the auth library (never by the client). */
export const CLIENT_IP_HEADER = "x-plant-shop-client-ip";
