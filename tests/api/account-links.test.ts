import { afterEach, describe, expect, it, vi } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { ERROR_CODES } from "../../common/shared/user-facing-error.ts";
import { RESET_LINK_MINUTES } from "../../server/modules/accounts/index.ts";
import { callerWith, cookieOf, newPerson, signUpVerified, tokenFromMail } from "../support/accounts.ts";
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
  it("signs in the first time; followed again, it says the address is verified already and signs nobody in", async () => {
    const person = newPerson();
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(person))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/verify");
    const { accounts } = shop.app.services;

    const first = await accounts.verifyEmail(token, request);
    expect(first.alreadyVerified).toBe(false);
    expect((await shop.app.request("/api/me", { headers: { Cookie: cookieOf(first.session) } })).status, "the issued session is signed in").toBe(200);

    const again = await accounts.verifyEmail(token, request);
    expect(again).toEqual({ alreadyVerified: true, session: { kind: "unchanged" } });
  });

  it("that is broken still fails", async () => {
    await expect(shop.app.services.accounts.verifyEmail("garbage", request)).rejects.toMatchObject({ status: 400, message: messages.auth.verifyFailed });
  });
});
