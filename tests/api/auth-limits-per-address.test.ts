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
