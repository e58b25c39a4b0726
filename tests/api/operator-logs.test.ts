import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { createProduct } from "../support/factories.ts";
import { captureLogs, type LogCapture, type LogLine } from "../support/log-capture.ts";
import { checkoutInput } from "../support/shoppers.ts";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// Logs an operator can use (docs/decisions/014): structured events with request id, client address and account id, and
// never a password, token or cookie. One app for the file: the events of one story, checked one by one.

const ADMIN = { email: "owner@nursery.example", password: "green-thumb-2025" };
const SHOPPER_ADDRESS = "198.51.100.40";
const GUESSER_ADDRESS = "203.0.113.9";
const ADMIN_ADDRESS = "192.0.2.7";

let smtp: SmtpCapture;
let logs: LogCapture;
let app: TestApp;
let url: string;
let shopper: Awaited<ReturnType<typeof signUpVerified>>;
let adminCookie: string;
let adminId: string;
/** Every secret the story below sends or receives; none may appear in any log line. */
const secrets: string[] = [];

const call = (address: string, method: string, path: string, cookie?: string, body?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    redirect: "manual",
    headers: {
      Origin: TEST_ORIGIN,
      "X-Forwarded-For": address,
      ...(cookie ? { Cookie: cookie } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const event = (name: string, match: (line: LogLine) => boolean = () => true) => logs.waitFor((line) => line.event === name && match(line), 5_000);

beforeAll(async () => {
  smtp = await startSmtpCapture();
  logs = captureLogs();
  app = await createTestApp({ SMTP_URL: smtp.url, TRUST_PROXY: "1", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }, undefined, logs.logger);
  url = await app.listen();
  shopper = await signUpVerified(app, smtp);
  const signedIn = await call(ADMIN_ADDRESS, "POST", "/api/auth/sign-in/email", undefined, ADMIN);
  adminCookie = sessionCookie(signedIn);
  adminId = (await (await call(ADMIN_ADDRESS, "GET", "/api/me", adminCookie)).json()).id;
  secrets.push(ADMIN.password, shopper.person.password, shopper.cookie.split("=")[1]!, adminCookie.split("=")[1]!);
});
afterAll(async () => {
  await app.cleanup();
  await smtp.close();
});

describe("operator events", () => {
  it("a failed sign-in: the account tried, the address and the request id", async () => {
    const response = await call(GUESSER_ADDRESS, "POST", "/api/auth/sign-in/email", undefined, { email: shopper.person.email, password: "not-the-password-1" });
    expect(response.status).toBe(401);
    const line = await event("sign-in.failed");
    expect(line).toMatchObject({ accountId: shopper.userId, clientIp: GUESSER_ADDRESS, email: shopper.person.email, requestId: response.headers.get("x-request-id") });
    expect(line.level).toBe(40);
  });

  it("a limit reached: which limit, for what, from where", async () => {
    for (let i = 0; i < 5; i++) await call(GUESSER_ADDRESS, "POST", "/api/auth/sign-in/email", undefined, { email: shopper.person.email, password: `guess-${i}-abc` });
    const line = await event("limit.hit", (l) => l.limit === "sign-in-failures");
    expect(line).toMatchObject({ clientIp: GUESSER_ADDRESS, subject: `${shopper.person.email} ${GUESSER_ADDRESS}`, requestId: expect.any(String) });
  });

  it("a signed-in person refused (403): their account, the address and what they asked for", async () => {
    const response = await call(SHOPPER_ADDRESS, "GET", "/api/admin/orders", shopper.cookie);
    expect(response.status).toBe(403);
    const line = await event("authorization.refused");
    expect(line).toMatchObject({ accountId: shopper.userId, clientIp: SHOPPER_ADDRESS, status: 403, method: "GET", path: "/api/admin/orders", requestId: response.headers.get("x-request-id") });
  });

  it("request lines of Better Auth's endpoints name the signed-in caller's account", async () => {
    const response = await call(SHOPPER_ADDRESS, "GET", "/api/auth/get-session", shopper.cookie);
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    const line = await logs.waitFor((l) => l.msg === "request" && l.requestId === requestId, 5_000);
    expect(line).toMatchObject({ path: "/api/auth/get-session", clientIp: SHOPPER_ADDRESS, accountId: shopper.userId, status: 200 });
  });

  it("orders placed, cancelled, and moved along by an admin: who, which order, from what to what", async () => {
    const place = async () => {
      const plant = await createProduct(app.database.db, { stock: 5 });
      await call(SHOPPER_ADDRESS, "POST", "/api/cart/items", shopper.cookie, { productId: plant.id });
      const response = await call(SHOPPER_ADDRESS, "POST", "/api/orders", shopper.cookie, checkoutInput());
      expect(response.status).toBe(201);
      return (await response.json()).id as string;
    };
    const first = await place();
    expect(await event("order.placed", (l) => l.orderId === first)).toMatchObject({ accountId: shopper.userId, clientIp: SHOPPER_ADDRESS, requestId: expect.any(String) });

    expect((await call(ADMIN_ADDRESS, "PATCH", `/api/admin/orders/${first}`, adminCookie, { status: "processing" })).status).toBe(200);
    expect(await event("order.status-changed", (l) => l.orderId === first)).toMatchObject({
      accountId: adminId,
      customerId: shopper.userId,
      clientIp: ADMIN_ADDRESS,
      from: "pending",
      to: "processing",
      by: "admin",
    });

    const second = await place();
    expect((await call(SHOPPER_ADDRESS, "POST", `/api/orders/${second}/cancel`, shopper.cookie)).status).toBe(200);
    expect(await event("order.cancelled", (l) => l.orderId === second)).toMatchObject({ accountId: shopper.userId, clientIp: SHOPPER_ADDRESS, by: "owner" });
  });

  it("a wrong current password on change-password, and the admin role given at start-up", async () => {
    const response = await call(SHOPPER_ADDRESS, "POST", "/api/auth/change-password", shopper.cookie, { currentPassword: "not-mine-at-all-7", newPassword: "new-fronds-2031" });
    expect(response.status).toBe(400);
    expect(await event("password-change.failed")).toMatchObject({ accountId: shopper.userId, clientIp: SHOPPER_ADDRESS });
    expect(await event("admin.role-changed")).toMatchObject({ accountId: adminId, role: "admin", by: "ADMIN_EMAIL" });
  });

  it("a password reset: the account, and the link's token kept out of the request line", async () => {
    await call(SHOPPER_ADDRESS, "POST", "/api/auth/request-password-reset", undefined, { email: shopper.person.email, redirectTo: "/reset-password" });
    const token = await tokenFromMail(smtp, shopper.person.email, "/reset-password");
    secrets.push(token);
    const opened = await call(SHOPPER_ADDRESS, "GET", `/api/auth/reset-password/${token}?callbackURL=/reset-password`);
    expect(opened.status).toBe(302);
    const newPassword = "after-the-reset-41";
    secrets.push(newPassword);
    expect((await fetch(`${url}/api/auth/reset-password`, postJson({ token, newPassword }, { "X-Forwarded-For": SHOPPER_ADDRESS }))).status).toBe(200);
    expect(await event("password-reset.completed")).toMatchObject({ accountId: shopper.userId, clientIp: SHOPPER_ADDRESS });
    expect(logs.lines.filter((l) => l.msg === "request" && String(l.path).startsWith("/api/auth/reset-password/")).map((l) => l.path)).toEqual([
      "/api/auth/reset-password/:token",
    ]);
  });

  it("request lines carry the client address and the signed-in account", () => {
    const line = logs.lines.find((l) => l.msg === "request" && l.path === "/api/admin/orders");
    expect(line).toMatchObject({ clientIp: SHOPPER_ADDRESS, accountId: shopper.userId, status: 403 });
  });

  it("no line holds a password, a session cookie or a reset token", () => {
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    const everything = logs.lines.map((line) => JSON.stringify(line)).join("\n");
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(logs.lines.some((line) => line.event)).toBe(true);
  });
});
