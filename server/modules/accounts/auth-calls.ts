import { isAPIError, type APIError } from "better-auth/api";
import { parseSetCookieHeader } from "better-auth/cookies";
import { messages } from "#common/shared/messages.ts";
import { ERROR_CODES } from "#common/shared/user-facing-error.ts";
import { fieldConflict, InvalidInputError, ServiceError, TooManyRequestsError } from "../../platform/errors.ts";
import { SESSION_UNCHANGED, type SessionCaller, type SessionOutcome } from "../../platform/session-user.ts";
import type { Auth } from "./auth/auth.ts";
import { CLIENT_IP_HEADER } from "./auth/auth-rules.ts";
import { NEW_LINK_SENT } from "./auth/after-hook.ts";

// Better Auth speaks HTTP even when called in-process: who is asking goes in as request headers (the session
// credential as its cookie, the address in the header its rules read) and what it did to the session comes back
// as Set-Cookie. The first two functions translate, so the operations of the service take a caller and return
// outcomes; `callAuth` turns the library's refusals into the shop's messages.

const a = messages.auth;

export async function authHeaders(auth: Auth, caller: SessionCaller): Promise<Headers> {
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

export async function sessionOutcome(auth: Auth, responseHeaders: Headers): Promise<SessionOutcome> {
  const cookie = parseSetCookieHeader(responseHeaders.get("set-cookie") ?? "").get((await auth.$context).authCookies.sessionToken.name);
  if (!cookie) return SESSION_UNCHANGED;
  if (!cookie.value || cookie["max-age"] === 0) return { kind: "ended" };
  return { kind: "issued", credential: cookie.value, expiresInSeconds: cookie["max-age"] ?? null };
}

/**
 * Runs an auth library call and turns its errors into the shop's messages. `isAPIError`, not `instanceof`:
 * the library's request validation throws better-call's own error class (with `instanceof` those escaped as 500s).
 */
export async function callAuth<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAPIError(error)) throw fromAuthError(error);
    throw error;
  }
}

export function errorCode(error: APIError): string | undefined {
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
