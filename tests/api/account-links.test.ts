import { afterEach, describe, expect, it, vi } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { ERROR_CODES } from "../../common/shared/user-facing-error.ts";
import { RESET_LINK_MINUTES } from "../../server/modules/accounts/index.ts";
import { signJWT } from "better-auth/crypto";
import { callerWith, cookieOf, newPerson, sessionCookie, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { postJson } from "../support/test-app.ts";

// The links of the account e-mails, as the pages see them: told apart before anybody types (QA pass on accounts).

const shop = useAppWithMail();
const request = callerWith("203.0.113.7");

afterEach(() => {
  vi.useRealTimers();
});

async function resetToken(email: string) {
  const response = await shop.app.request("/api/auth/request-password-reset", postJson({ email, redirectTo: "/reset-password" }));
  expect(response.status).toBe(200);
  return tokenFromMail(shop.capture, email, "/reset-password");
}

describe("a password reset link", () => {
  it("is good until it is used, and then no longer", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const token = await resetToken(person.email);
    const { accounts } = shop.app.services;
    expect(await accounts.isResetLinkValid(token)).toBe(true);
    expect(await accounts.isResetLinkValid(token), "checking does not use it up").toBe(true);

    await accounts.resetPassword({ token, password: "new-leaf-after-reset-9" }, request);
    expect(await accounts.isResetLinkValid(token)).toBe(false);
    await expect(accounts.resetPassword({ token, password: "another-leaf-after-reset-4" }, request)).rejects.toMatchObject({
      status: 400,
      message: messages.auth.resetLinkInvalid,
      code: ERROR_CODES.resetLinkInvalid,
    });
  });

  it("proves the address: an account never verified signs in with the new password", async () => {
    const person = newPerson();
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(person))).status).toBe(200);
    const token = await resetToken(person.email);
    await shop.app.services.accounts.resetPassword({ token, password: "new-leaf-after-reset-9" }, request);
    const signedIn = await shop.app.request("/api/auth/sign-in/email", postJson({ email: person.email, password: "new-leaf-after-reset-9" }));
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).user).toMatchObject({ email: person.email, emailVerified: true });
  });

  it("is no longer good once it has expired", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const token = await resetToken(person.email);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + (RESET_LINK_MINUTES + 1) * 60_000 });
    expect(await shop.app.services.accounts.isResetLinkValid(token)).toBe(false);
  });

  it("is not good when it is unknown, empty, missing or too long", async () => {
    const { accounts } = shop.app.services;
    for (const token of ["garbage", "", null, "x".repeat(501)]) expect(await accounts.isResetLinkValid(token), String(token)).toBe(false);
  });
});

describe("an e-mail verification link", () => {
  /** Signs up through the JSON API: the person, the link's token and the account id the sign-up answered. */
  async function signUp(person = newPerson()) {
    const response = await shop.app.request("/api/auth/sign-up/email", postJson(person));
    expect(response.status).toBe(200);
    const { user } = (await response.json()) as { user: { id: string } };
    return { person, token: await tokenFromMail(shop.capture, person.email, "/verify"), signedUpAs: user.id };
  }
  const isVerified = async (email: string) =>
    Boolean((await shop.app.database.db.selectFrom("users").select("emailVerified").where("email", "=", email).executeTakeFirstOrThrow()).emailVerified);

  it("verifies and signs in without a password in the browser that signed up; followed again, says the address is verified already", async () => {
    const { person, token, signedUpAs } = await signUp();
    const { accounts } = shop.app.services;

    const first = await accounts.verifyEmail({ token, signedUpAs }, request);
    expect(first.kind).toBe("verified");
    if (first.kind !== "verified") return;
    expect((await shop.app.request("/api/me", { headers: { Cookie: cookieOf(first.session) } })).status, "the issued session is signed in").toBe(200);
    expect(await isVerified(person.email)).toBe(true);

    expect(await accounts.verifyEmail({ token, signedUpAs }, request)).toEqual({ kind: "alreadyVerified" });
  });

  it("elsewhere asks for the account's password, refuses a wrong one and verifies nothing until the right one is typed", async () => {
    const { person, token } = await signUp();
    const { accounts } = shop.app.services;

    expect(await accounts.verifyEmail({ token }, request)).toEqual({ kind: "passwordNeeded" });
    expect(await accounts.verifyEmail({ token, signedUpAs: "someone-else" }, request)).toEqual({ kind: "passwordNeeded" });
    await expect(accounts.verifyEmail({ token, password: "not-the-password-1" }, request)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { password: messages.auth.wrongPasswordToVerify },
    });
    await expect(accounts.verifyEmail({ token, password: "" }, request)).rejects.toMatchObject({ status: 400, fieldErrors: { password: messages.validation.passwordRequired } });
    expect(await isVerified(person.email)).toBe(false);

    const verified = await accounts.verifyEmail({ token, password: person.password }, request);
    expect(verified.kind).toBe("verified");
    expect(await isVerified(person.email)).toBe(true);
  });

  it("mailed to the owner of an address a stranger registered first, cannot verify the stranger's account: a sign-up to a taken address answers an id that is not the account's", async () => {
    const { person, token } = await signUp();
    const owner = { ...newPerson(), email: person.email, password: "the-owner-s-own-words-5" };
    const again = await shop.app.request("/api/auth/sign-up/email", postJson(owner));
    const { user } = (await again.json()) as { user: { id: string } };
    const { accounts } = shop.app.services;
    expect(await accounts.verifyEmail({ token, signedUpAs: user.id }, request)).toEqual({ kind: "passwordNeeded" });
    await expect(accounts.verifyEmail({ token, password: owner.password }, request)).rejects.toMatchObject({ status: 400 });
    expect(await isVerified(person.email)).toBe(false);
  });

  it("counts wrong passwords against the sign-in limit of the account at that address", async () => {
    const { token } = await signUp();
    const { accounts } = shop.app.services;
    const guesser = callerWith("203.0.113.99");
    for (let attempt = 0; attempt < 5; attempt++) await expect(accounts.verifyEmail({ token, password: `guess-number-${attempt}` }, guesser)).rejects.toMatchObject({ status: 400 });
    await expect(accounts.verifyEmail({ token, password: "guess-number-6" }, guesser)).rejects.toMatchObject({ status: 429 });
  });

  it("that is broken, or signed with another secret, fails", async () => {
    const { accounts } = shop.app.services;
    await expect(accounts.verifyEmail({ token: "garbage" }, request)).rejects.toMatchObject({ status: 400, message: messages.auth.verifyFailed });
    const { person } = await signUp();
    const forged = await signJWT({ email: person.email }, "another-secret-that-is-long-enough-to-sign");
    await expect(accounts.verifyEmail({ token: forged, password: person.password }, request)).rejects.toMatchObject({ status: 400, message: messages.auth.verifyFailed });
  });

  it("over HTTP: Better Auth's /verify-email answers 404; POST /api/verification takes the token and the password and signs in", async () => {
    const { person, token } = await signUp();
    expect((await shop.app.request(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(404);
    expect(await isVerified(person.email)).toBe(false);

    const wrong = await shop.app.request("/api/verification", postJson({ token, password: "not-the-password-1" }));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ message: messages.auth.wrongPasswordToVerify });

    const verified = await shop.app.request("/api/verification", postJson({ token, password: person.password }));
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ verified: true });
    expect((await shop.app.request("/api/me", { headers: { Cookie: sessionCookie(verified) } })).status).toBe(200);

    const again = await shop.app.request("/api/verification", postJson({ token, password: person.password }));
    expect(await again.json()).toEqual({ verified: false });
  });
});
