import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { callerWith, newPerson, sessionCookie, signIn, signUpVerified } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { createProduct } from "../support/factories.ts";
import { checkoutInput } from "../support/shoppers.ts";
import { extractLinks, startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// The abuse limits (docs/decisions/014): each limit at the shop's default values, on the database under test.

const shop = useAppWithMail();

const send = (app: TestApp, method: string, path: string, cookie: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Puts one of a fresh plant in the shopper's cart and checks out; the response of the checkout. */
async function buyOne(app: TestApp, cookie: string) {
  const plant = await createProduct(app.database.db, { stock: 100 });
  expect((await send(app, "POST", "/api/cart/items", cookie, { productId: plant.id })).status).toBe(201);
  return send(app, "POST", "/api/orders", cookie, checkoutInput());
}

describe("checkout", () => {
  it("refuses a sixth pending Cash-on-Delivery order of one account, saying why, and takes one again after a cancel", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const placed = [];
    for (let i = 0; i < 5; i++) {
      const response = await buyOne(shop.app, cookie);
      expect(response.status).toBe(201);
      placed.push((await response.json()).id as string);
    }
    const sixth = await buyOne(shop.app, cookie);
    expect(sixth.status).toBe(409);
    expect((await sixth.json()).message).toBe(messages.checkout.tooManyPending(5));
    // Nothing was taken from the stock or the cart for the refused one.
    expect((await (await send(shop.app, "GET", "/api/cart", cookie)).json()).itemCount).toBe(1);

    expect((await send(shop.app, "POST", `/api/orders/${placed[0]}/cancel`, cookie)).status).toBe(200);
    expect((await send(shop.app, "POST", "/api/orders", cookie, checkoutInput())).status).toBe(201);
  });

  it("does not count another account's pending orders", async () => {
    const asha = await signUpVerified(shop.app, shop.capture);
    const ravi = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    for (let i = 0; i < 5; i++) expect((await buyOne(shop.app, asha.cookie)).status).toBe(201);
    expect((await buyOne(shop.app, ravi.cookie)).status).toBe(201);
  });

  it("takes its cap on pending orders from MAX_PENDING_ORDERS", async () => {
    const app = await createTestApp({ SMTP_URL: shop.capture.url, MAX_PENDING_ORDERS: "2" });
    try {
      const { cookie } = await signUpVerified(app, shop.capture);
      for (let i = 0; i < 2; i++) expect((await buyOne(app, cookie)).status).toBe(201);
      const third = await buyOne(app, cookie);
      expect(third.status).toBe(409);
      expect((await third.json()).message).toBe(messages.checkout.tooManyPending(2));
    } finally {
      await app.cleanup();
    }
  });

  it("allows 10 attempts an hour per account, placed or not; the 11th gets 429 with the time to wait", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    // Attempts with an empty cart are refused, but count: an attempt is what the limit is about.
    for (let i = 0; i < 10; i++) expect((await send(shop.app, "POST", "/api/orders", cookie, checkoutInput())).status).toBe(400);
    const refused = await buyOne(shop.app, cookie);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe("Too many orders in a short time. Please try again in 60 minutes.");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
    // Another account is not affected.
    const other = await signUpVerified(shop.app, shop.capture, newPerson({ name: "Ravi Menon" }));
    expect((await buyOne(shop.app, other.cookie)).status).toBe(201);
  });

  it("counts one checkout sent many times with one key (a double click) as one attempt", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const input = checkoutInput();
    const repeats = await Promise.all(Array.from({ length: 15 }, () => send(shop.app, "POST", "/api/orders", cookie, input)));
    expect(repeats.map((r) => r.status)).toEqual(Array(15).fill(400));
    for (let i = 0; i < 9; i++) expect((await send(shop.app, "POST", "/api/orders", cookie, checkoutInput())).status).toBe(400);
    expect((await send(shop.app, "POST", "/api/orders", cookie, checkoutInput())).status).toBe(429);
  });
});

describe("search", () => {
  it("allows 60 searches a minute per client address on the API and the shop page alike, then 429; browsing without a search is not counted", async () => {
    const app = await createTestApp({ TRUST_PROXY: "1" });
    try {
      const url = await app.listen();
      const from = (address: string) => ({ headers: { "X-Forwarded-For": address } });
      for (let i = 0; i < 30; i++) expect((await fetch(`${url}/api/products?q=fern${i}`, from("198.51.100.1"))).status).toBe(200);
      for (let i = 0; i < 30; i++) await app.services.catalog.listShopPages({ q: `palm${i}` }, { clientIp: "198.51.100.1" });
      const refused = await fetch(`${url}/api/products?q=fern`, from("198.51.100.1"));
      expect(refused.status).toBe(429);
      expect((await refused.json()).message).toBe("Too many searches. Please try again in 1 minute.");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await expect(app.services.catalog.listShopPages({ q: "palm" }, { clientIp: "198.51.100.1" })).rejects.toMatchObject({ status: 429 });

      expect((await fetch(`${url}/api/products`, from("198.51.100.1"))).status).toBe(200);
      expect((await fetch(`${url}/api/products?q=fern`, from("198.51.100.2"))).status).toBe(200);
    } finally {
      await app.cleanup();
    }
  });
});

describe("failed sign-ins", () => {
  let capture: SmtpCapture;
  let app: TestApp;
  let url: string;
  beforeAll(async () => {
    capture = await startSmtpCapture();
  });
  afterAll(async () => {
    await capture.close();
  });
  afterEach(async () => {
    await app.cleanup();
  });
  async function start() {
    app = await createTestApp({ SMTP_URL: capture.url, TRUST_PROXY: "1" });
    url = await app.listen();
  }
  /** A sign-in over HTTP from a client address (the one proxy in front of the shop names it). */
  const signInFrom = (address: string, email: string, password: string) =>
    fetch(`${url}/api/auth/sign-in/email`, postJson({ email, password }, { "X-Forwarded-For": address }));

  it("do not lock the owner out: someone guessing from another address is refused, the owner at their own address signs in", async () => {
    await start();
    const { person } = await signUpVerified(app, capture);
    for (let i = 0; i < 5; i++) expect((await signInFrom("203.0.113.66", person.email, `guess-number-${i}`)).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await signInFrom("203.0.113.66", person.email, `guess-number-${i}`)).status).toBe(429);
    // Even the right password is refused to the guesser's address until the window ends...
    expect((await signInFrom("203.0.113.66", person.email, person.password)).status).toBe(429);
    // ...while the owner, at their own address, is let in.
    const owner = await signInFrom("198.51.100.20", person.email, person.password);
    expect(owner.status).toBe(200);
    expect(sessionCookie(owner)).toMatch(/session_token=/);
  });

  it("from one address count across accounts: the 21st wrong password in an hour is refused, for any account", async () => {
    await start();
    const { person } = await signUpVerified(app, capture);
    for (let i = 0; i < 20; i++) {
      // Four guesses each at many e-mails, so no single account's limit is what stops it.
      expect((await signInFrom("203.0.113.77", `victim-${Math.floor(i / 4)}@example.com`, "guess-password-1")).status).toBe(401);
    }
    const refused = await signInFrom("203.0.113.77", "someone-new@example.com", "guess-password-1");
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe("Too many wrong passwords from your network. Please try again in 60 minutes.");
    expect((await signInFrom("203.0.113.78", person.email, person.password)).status).toBe(200);
  }, 60_000);

  it("sent all at once from one address for one account: five are checked, the rest get 429", async () => {
    await start();
    const { person } = await signUpVerified(app, capture);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => signInFrom("203.0.113.88", person.email, `wrong-password-${i}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect((await signInFrom("203.0.113.88", person.email, person.password)).status).toBe(429);
    expect((await signInFrom("198.51.100.21", person.email, person.password)).status).toBe(200);
  });
});

describe("change password", () => {
  const change = (cookie: string, currentPassword: string, newPassword = "fresh-leaves-2031") =>
    send(shop.app, "POST", "/api/auth/change-password", cookie, { currentPassword, newPassword, revokeOtherSessions: true });

  it("refuses the 6th wrong current password, and then the right one too, with a readable message", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 5; i++) expect((await change(cookie, `guess-number-${i}`)).status).toBe(400);
    const sixth = await change(cookie, person.password);
    expect(sixth.status).toBe(429);
    expect((await sixth.json()).message).toBe("Too many wrong current passwords. Please try again in 15 minutes.");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    // The password did not change.
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(200);
  });

  it("holds against wrong current passwords sent all at once: five are checked, the rest get 429", async () => {
    const { cookie } = await signUpVerified(shop.app, shop.capture);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => change(cookie, `wrong-password-${i}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it("does not count a right current password, or a refused new one, as a failure", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    for (let i = 0; i < 4; i++) expect((await change(cookie, `guess-number-${i}`)).status).toBe(400);
    expect((await change(cookie, person.password, "short")).status).toBe(400);
    const changed = await change(cookie, person.password);
    expect(changed.status).toBe(200);
    const newCookie = sessionCookie(changed);
    expect((await change(newCookie, "guess-number-5", "fresher-leaves-2032")).status).toBe(400);
    expect((await change(newCookie, "fresh-leaves-2031", "fresher-leaves-2032")).status).toBe(429);
  });

  it("counts wrong current passwords per account from every address: five from five addresses stop a sixth from a new one, and signing in is not affected", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    const changeFrom = (address: string, currentPassword: string) =>
      shop.app.services.accounts.changePassword({ currentPassword, newPassword: "fresh-leaves-2031" }, callerWith(address, cookie));
    for (let i = 0; i < 5; i++) await expect(changeFrom(`203.0.113.${10 + i}`, `guess-number-${i}`)).rejects.toMatchObject({ status: 400 });
    await expect(changeFrom("203.0.113.99", "guess-number-6")).rejects.toMatchObject({
      status: 429,
      message: "Too many wrong current passwords. Please try again in 15 minutes.",
    });
    // The owner's sign-in is not touched by it.
    expect((await signIn(shop.app, person.email, person.password)).status).toBe(200);
  });

  it("is refused through the page's service path the same way", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    const request = callerWith("10.1.1.1", cookie);
    for (let i = 0; i < 5; i++) {
      await expect(shop.app.services.accounts.changePassword({ currentPassword: `guess-number-${i}`, newPassword: "fresh-leaves-2031" }, request)).rejects.toMatchObject({ status: 400 });
    }
    await expect(shop.app.services.accounts.changePassword({ currentPassword: person.password, newPassword: "fresh-leaves-2031" }, request)).rejects.toMatchObject({
      status: 429,
    });
  });
});

describe("password reset links", () => {
  it("all stop working once one of them was used: an older unused link is refused after a newer one reset the password", async () => {
    const { person } = await signUpVerified(shop.app, shop.capture);
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      expect((await shop.app.request("/api/auth/request-password-reset", postJson({ email: person.email, redirectTo: "/reset-password" }))).status).toBe(200);
      const mail = await shop.capture.waitFor((m) => m.to.includes(person.email) && m.text.includes("/reset-password") && !tokens.some((t) => m.text.includes(t)));
      tokens.push(new URL(extractLinks(mail.text).find((l) => new URL(l).pathname === "/reset-password")!).searchParams.get("token")!);
    }
    const [older, newer] = tokens as [string, string];
    expect(await shop.app.services.accounts.isResetLinkValid(older)).toBe(true);

    const request = callerWith("10.1.1.1");
    await shop.app.services.accounts.resetPassword({ token: newer, password: "new-leaf-after-reset-9" }, request);

    expect(await shop.app.services.accounts.isResetLinkValid(older)).toBe(false);
    await expect(shop.app.services.accounts.resetPassword({ token: older, password: "another-leaf-after-reset-4" }, request)).rejects.toMatchObject({
      status: 400,
      message: messages.auth.resetLinkInvalid,
    });
    expect((await signIn(shop.app, person.email, "new-leaf-after-reset-9")).status).toBe(200);
  });
});
