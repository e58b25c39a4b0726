import type { SessionCaller, SessionOutcome } from "../../server/platform/session-user.ts";
import { extractLinks, type SmtpCapture } from "./smtp-capture.ts";
import { postJson, type TestApp } from "./test-app.ts";

let counter = 0;

export function newPerson(overrides: Partial<{ name: string; username: string; email: string; password: string }> = {}) {
  const n = `${Date.now().toString(36)}${++counter}`;
  return { name: "Asha Kulkarni", username: `asha_${n}`, email: `asha.${n}@example.com`, password: "monstera-deliciosa-77", ...overrides };
}

/** The session cookie (name=value) from a response's Set-Cookie headers. */
export function sessionCookie(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => /session_token=/.test(c) && !/Max-Age=0/i.test(c));
  if (!cookie) throw new Error(`no session cookie in: ${response.headers.getSetCookie().join(" | ")}`);
  return cookie.split(";")[0]!;
}

/**
 * A caller as the HTTP layer makes one from a request: its address, and the credential of its session cookie
 * (`name=value`, as sessionCookie() gives it) when it sends one.
 */
export function callerWith(clientIp: string | null, cookie?: string): SessionCaller {
  const value = cookie?.slice(cookie.indexOf("=") + 1);
  return { clientIp, sessionCredential: value ? decodeURIComponent(value) : null, userAgent: null };
}

/** The session cookie (name=value) a browser sends after the HTTP layer passed on an issued session. */
export function cookieOf(outcome: SessionOutcome): string {
  if (outcome.kind !== "issued") throw new Error(`no session was issued: ${outcome.kind}`);
  return `plant-shop.session_token=${encodeURIComponent(outcome.credential)}`;
}

/** The token of the first link to `path` in the newest e-mail to `email`. */
export async function tokenFromMail(capture: SmtpCapture, email: string, path: "/verify" | "/reset-password") {
  const mail = await capture.waitFor((m) => m.to.includes(email) && m.text.includes(path));
  const link = extractLinks(mail.text).find((l) => new URL(l).pathname === path);
  const token = link ? new URL(link).searchParams.get("token") : null;
  if (!token) throw new Error(`no ${path} link in the mail to ${email}`);
  return token;
}

/** Signs up through the JSON API, verifies with the link's token and the password, and returns the signed-in cookie. */
export async function signUpVerified(app: TestApp, capture: SmtpCapture, person = newPerson()) {
  const response = await app.request("/api/auth/sign-up/email", postJson(person));
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const token = await tokenFromMail(capture, person.email, "/verify");
  const verified = await app.request("/api/verification", postJson({ token, password: person.password }));
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.status} ${await verified.text()}`);
  const me = await (await app.request("/api/me", { headers: { Cookie: sessionCookie(verified) } })).json();
  return { person, cookie: sessionCookie(verified), userId: me.id as string };
}

export async function signIn(app: TestApp, email: string, password: string, headers: Record<string, string> = {}) {
  return app.request("/api/auth/sign-in/email", postJson({ email, password }, headers));
}
