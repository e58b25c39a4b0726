import { describe, expect, it } from "vitest";
import { newPerson, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// The per-address limits on the account endpoints (server/modules/accounts/auth/auth-rules.ts): many e-mail addresses from one
// client address. Over a real socket behind one trusted proxy, so each test can speak from two addresses.

const shop = useAppWithMail({ TRUST_PROXY: "1" });

function post(url: string, path: string, body: unknown, clientAddress: string) {
  return fetch(`${url}/api/auth${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, "X-Forwarded-For": clientAddress },
    body: JSON.stringify(body),
  });
}

/** Sends `count` requests one after another, each for another e-mail address; answers their statuses. */
async function fromOneAddress(count: number, send: (email: string) => Promise<Response>) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await send(newPerson().email)).status);
  return statuses;
}

describe("per client address", () => {
  it("wrong passwords: 20 an hour from one address, whichever e-mail they name; another address is not affected", async () => {
    const url = await shop.app.listen();
    const signIn = (email: string, from = "198.51.100.20") => post(url, "/sign-in/email", { email, password: "not-the-password-1" }, from);
    expect(await fromOneAddress(20, (email) => signIn(email))).toEqual(Array(20).fill(401));
    const refused = await signIn(newPerson().email);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many wrong passwords from your network/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await signIn(newPerson().email, "198.51.100.21")).status).toBe(401);
  }, 60_000);

  it("a sign-in refused as malformed (a password that is not a string) is no wrong password: after 21 of them the right password still signs in", async () => {
    const url = await shop.app.listen();
    const { person } = await signUpVerified(shop.app, shop.capture);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post(url, "/sign-in/email", { email: person.email, password: 123 }, "198.51.100.22")).status);
    expect(statuses).toEqual(Array(21).fill(400));
    expect((await post(url, "/sign-in/email", { email: person.email, password: person.password }, "198.51.100.22")).status).toBe(200);
  }, 60_000);

  it("an IPv6 network is one address: five wrong passwords from 2001:db8::1 stop the next guess from 2001:db8::2 in the same /64, not from another /64", async () => {
    const url = await shop.app.listen();
    const { person } = await signUpVerified(shop.app, shop.capture);
    const guess = (from: string) => post(url, "/sign-in/email", { email: person.email, password: "not-the-password-1" }, from);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await guess("2001:db8::1")).status);
    expect(statuses).toEqual(Array(5).fill(401));
    expect((await guess("2001:db8::2")).status).toBe(429);
    expect((await guess("2001:db8:0:1::2")).status).toBe(401);
  }, 60_000);

  it("sign-in attempts, right or wrong: 30 a minute from one address; another address is not affected", async () => {
    const url = await shop.app.listen();
    const { person } = await signUpVerified(shop.app, shop.capture);
    const signIn = (from: string) => post(url, "/sign-in/email", { email: person.email, password: person.password }, from);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await signIn("198.51.100.25")).status);
    expect(statuses).toEqual(Array(30).fill(200));
    const refused = await signIn("198.51.100.25");
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many sign-in attempts/);
    expect((await signIn("198.51.100.26")).status).toBe(200);
  }, 60_000);

  it("password reset requests: 10 an hour, whichever e-mail they name; another address is not affected", async () => {
    const url = await shop.app.listen();
    const reset = (email: string, from = "198.51.100.30") => post(url, "/request-password-reset", { email, redirectTo: "/reset-password" }, from);
    expect(await fromOneAddress(10, (email) => reset(email))).toEqual(Array(10).fill(200));
    const refused = await reset(newPerson().email);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many password reset requests/);
    expect((await reset(newPerson().email, "198.51.100.31")).status).toBe(200);
  }, 60_000);

  it("verification e-mails: 10 an hour, whichever e-mail they name; another address is not affected", async () => {
    const url = await shop.app.listen();
    const resend = (email: string, from = "198.51.100.40") => post(url, "/send-verification-email", { email }, from);
    expect(await fromOneAddress(10, (email) => resend(email))).toEqual(Array(10).fill(200));
    const refused = await resend(newPerson().email);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Too many verification e-mails/);
    expect((await resend(newPerson().email, "198.51.100.41")).status).toBe(200);
  }, 60_000);
});

describe("mail limits a stranger cannot spend for someone else", () => {
  /** How many mails of a kind were queued for an address (the outbox row is written within the request). */
  const queued = async (kind: string, email: string) =>
    (await shop.app.database.db.selectFrom("mail_outbox").select("id").where("kind", "=", kind).where("recipient", "=", email).execute()).length;

  it("reset requests: three from a stranger's address for someone's e-mail do not refuse that person at their own address, who gets a new link", async () => {
    const url = await shop.app.listen();
    const { person } = await signUpVerified(shop.app, shop.capture);
    const reset = (from: string) => post(url, "/request-password-reset", { email: person.email, redirectTo: "/reset-password" }, from);
    for (let i = 0; i < 3; i++) expect((await reset("203.0.113.50")).status).toBe(200);
    const strangerRefused = await reset("203.0.113.50");
    expect(strangerRefused.status).toBe(429);
    expect((await strangerRefused.json()).message).toMatch(/^Too many password reset requests for this e-mail\. Please try again in 15 minutes\.$/);
    expect((await reset("198.51.100.50")).status).toBe(200);
    expect(await queued("password-reset", person.email)).toBe(4);
  }, 60_000);

  it("reset e-mails: a mailbox gets at most 5 in 30 minutes from all addresses together; the sixth request is answered the same, and no mail is queued", async () => {
    const url = await shop.app.listen();
    const { person } = await signUpVerified(shop.app, shop.capture);
    const answers: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await post(url, "/request-password-reset", { email: person.email, redirectTo: "/reset-password" }, `203.0.113.${60 + i}`);
      expect(response.status).toBe(200);
      answers.push(await response.json());
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await queued("password-reset", person.email)).toBe(5);
  }, 60_000);

  it("verification e-mails: three from a stranger's address do not refuse the person at their own address, and a mailbox gets at most 5 an hour", async () => {
    const url = await shop.app.listen();
    const person = newPerson();
    expect((await post(url, "/sign-up/email", person, "198.51.100.70")).status).toBe(200);
    const afterSignUp = await queued("verification", person.email);
    const resend = (from: string) => post(url, "/send-verification-email", { email: person.email }, from);
    for (let i = 0; i < 3; i++) expect((await resend("203.0.113.70")).status).toBe(200);
    expect((await resend("203.0.113.70")).status).toBe(429);
    expect((await resend("198.51.100.70")).status).toBe(200);
    expect(await queued("verification", person.email)).toBe(afterSignUp + 4);
    expect((await resend("203.0.113.71")).status).toBe(200);
    const capped = await resend("203.0.113.72");
    expect(capped.status).toBe(200);
    expect(await capped.json()).toEqual({ status: true });
    expect(await queued("verification", person.email)).toBe(afterSignUp + 5);
  }, 60_000);
});
