import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { callerWith, sessionCookie, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The account-wide bound on wrong passwords (server/modules/accounts/auth/sign-in-guard.ts): past ten
// from all addresses together, signing in needs the password and a code e-mailed to the account. Over a real socket
// behind one trusted proxy, so each request can come from another address.

const shop = useAppWithMail({ TRUST_PROXY: "1" });
const OWNER_ADDRESS = "198.51.100.9";

async function start() {
  const url = await shop.app.listen();
  const { person, userId } = await signUpVerified(shop.app, shop.capture);
  const signIn = (from: string, password: string, code?: string) =>
    fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, "X-Forwarded-For": from },
      body: JSON.stringify({ email: person.email, password, ...(code === undefined ? {} : { code }) }),
    });
  /** One wrong password from each of `count` addresses: no per-address limit is what stops them. */
  const guessFromMany = async (count: number, first = 1) => {
    const statuses: number[] = [];
    for (let i = first; i < first + count; i++) statuses.push((await signIn(`203.0.113.${i}`, `guess-number-${i}`)).status);
    return statuses;
  };
  const codesMailed = async () =>
    (await shop.app.database.db.selectFrom("mail_outbox").select("id").where("kind", "=", "sign-in-code").where("recipient", "=", person.email).execute()).length;
  /** The code of the newest sign-in code mail to the account that is not one of `seen`. */
  const mailedCode = async (seen: string[] = []) => {
    const mail = await shop.capture.waitFor((m) => m.to.includes(person.email) && /sign-in code: \d{6}$/.test(m.subject) && !seen.some((c) => m.subject.endsWith(c)));
    return mail.subject.slice(-6);
  };
  return { person, userId, signIn, guessFromMany, codesMailed, mailedCode };
}

describe("wrong passwords for one account from many addresses", () => {
  it("up to ten change nothing: the right password alone still signs the owner in", async () => {
    const { person, signIn, guessFromMany } = await start();
    expect(await guessFromMany(9)).toEqual(Array(9).fill(401));
    expect((await signIn(OWNER_ADDRESS, person.password)).status).toBe(200);
    expect(await guessFromMany(1, 10)).toEqual([401]);
  }, 60_000);

  it("past ten, a password alone no longer signs in: right or wrong, from anywhere, the answer is the same 'we e-mailed you a code', and only the right password has a code mailed", async () => {
    const { person, signIn, guessFromMany, codesMailed } = await start();
    expect(await guessFromMany(10)).toEqual(Array(10).fill(401));

    const guess = await signIn("203.0.113.11", "guess-number-11");
    expect(guess.status).toBe(403);
    const guessBody = await guess.json();
    expect(guessBody).toMatchObject({ code: "SIGN_IN_CODE_REQUIRED", message: messages.auth.signInCodeSent });
    expect(await codesMailed()).toBe(0);

    const owner = await signIn(OWNER_ADDRESS, person.password);
    expect(owner.status).toBe(403);
    expect(await owner.json()).toEqual(guessBody);
    expect(owner.headers.getSetCookie().filter((c) => c.includes("session_token="))).toEqual([]);
    expect(await codesMailed()).toBe(1);
  }, 60_000);

  it("the owner signs in with the password and the e-mailed code; a guesser's tries with codes neither get in nor use the code up; the code works once", async () => {
    const { person, signIn, guessFromMany, mailedCode } = await start();
    await guessFromMany(10);
    expect((await signIn(OWNER_ADDRESS, person.password)).status).toBe(403);
    const code = await mailedCode();

    // A wrong password with any code, the right code among them, is told only that something is not right.
    for (const tried of ["000000", "123456", "999999", code]) {
      const response = await signIn("203.0.113.50", "guess-with-code", tried);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: "SIGN_IN_CODE_INVALID", message: messages.auth.signInCodeWrong });
    }
    // The owner mistypes the code once: the same answer.
    const mistyped = await signIn(OWNER_ADDRESS, person.password, code === "111111" ? "222222" : "111111");
    expect(mistyped.status).toBe(401);
    expect((await mistyped.json()).code).toBe("SIGN_IN_CODE_INVALID");

    const signedIn = await signIn("192.0.2.77", person.password, code);
    expect(signedIn.status).toBe(200);
    expect(sessionCookie(signedIn)).toMatch(/session_token=/);
    expect((await signIn("192.0.2.77", person.password, code)).status).toBe(401);
  }, 60_000);

  it("a code is used up after three wrong tries with the right password; leaving the code out mails a new one that works", async () => {
    const { person, signIn, guessFromMany, mailedCode, codesMailed } = await start();
    await guessFromMany(10);
    await signIn(OWNER_ADDRESS, person.password);
    const first = await mailedCode();
    const wrong = first === "111111" ? "222222" : "111111";
    for (let i = 0; i < 3; i++) expect((await signIn(OWNER_ADDRESS, person.password, wrong)).status).toBe(401);
    expect((await signIn(OWNER_ADDRESS, person.password, first)).status).toBe(401);

    expect((await signIn(OWNER_ADDRESS, person.password)).status).toBe(403);
    expect(await codesMailed()).toBe(2);
    const second = await mailedCode([first]);
    expect((await signIn(OWNER_ADDRESS, person.password, second)).status).toBe(200);
  }, 60_000);

  it("the login page's service path asks for the code the same way and signs in with it", async () => {
    const { person, guessFromMany, mailedCode } = await start();
    await guessFromMany(10);
    const accounts = shop.app.services.accounts;
    await expect(accounts.signIn({ email: person.email, password: person.password, code: "" }, callerWith(OWNER_ADDRESS))).rejects.toMatchObject({
      status: 403,
      code: "SIGN_IN_CODE_REQUIRED",
      message: messages.auth.signInCodeSent,
    });
    const code = await mailedCode();
    await expect(accounts.signIn({ email: person.email, password: "not-the-password-1", code }, callerWith(OWNER_ADDRESS))).rejects.toMatchObject({
      status: 400,
      code: "SIGN_IN_CODE_INVALID",
      fieldErrors: { code: messages.auth.signInCodeWrong },
    });
    const { session } = await accounts.signIn({ email: person.email, password: person.password, code }, callerWith(OWNER_ADDRESS));
    expect(session.kind).toBe("issued");
  }, 60_000);
});
