import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const message = { name: "Ravi", email: "ravi@example.com", subject: "Hello", message: "Do you deliver to Pune?" };
const storedMessages = () => app.database.db.selectFrom("contact_messages").selectAll().execute();

describe("POST /api/contact", () => {
  it("stores the message and answers 201", async () => {
    const response = await app.request("/api/contact", postJson(message));
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect(await storedMessages()).toEqual([expect.objectContaining({ id, subject: "Hello" })]);
  });

  it("stores one message when the same one is posted twice at once, answering 201 with its id to both", async () => {
    const responses = await Promise.all([app.request("/api/contact", postJson(message)), app.request("/api/contact", postJson(message))]);
    expect(responses.map((response) => response.status)).toEqual([201, 201]);
    const [first, second] = await Promise.all(responses.map((response) => response.json() as Promise<{ id: string }>));
    expect(second).toEqual(first);
    expect(await storedMessages()).toEqual([expect.objectContaining({ id: first!.id })]);
  });

  it("answers 400 with the field's message for bad input, and stores nothing", async () => {
    const response = await app.request("/api/contact", postJson({ ...message, email: "ravi" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "Invalid Email Address", fieldErrors: { email: "Invalid Email Address" } });
    expect(await storedMessages()).toEqual([]);
  });

  it("answers 400 for a body that is not JSON or not an object", async () => {
    expect((await app.request("/api/contact", postJson("{oops"))).status).toBe(400);
    expect((await app.request("/api/contact", postJson("[1,2]"))).status).toBe(400);
    expect((await app.request("/api/contact", postJson("null"))).status).toBe(400);
  });

  it("answers 415 for a body that is not JSON by its type", async () => {
    const response = await app.request("/api/contact", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: TEST_ORIGIN },
      body: new URLSearchParams(message).toString(),
    });
    expect(response.status).toBe(415);
    expect((await response.json()).message).toContain("JSON");
  });

  it("answers 413 for a body over 64 KB", async () => {
    const response = await app.request("/api/contact", postJson({ ...message, message: "x".repeat(70 * 1024) }));
    expect(response.status).toBe(413);
    expect((await response.json()).message).toContain("too large");
  });

  it("answers 403 to a page of another site", async () => {
    const response = await app.request("/api/contact", postJson(message, { Origin: "https://evil.example" }));
    expect(response.status).toBe(403);
    expect(await storedMessages()).toEqual([]);
  });

  it("answers 429 with Retry-After once one address has sent five", async () => {
    for (let i = 0; i < 5; i++) expect((await app.request("/api/contact", postJson(message))).status).toBe(201);
    const response = await app.request("/api/contact", postJson(message));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await response.json()).message).toMatch(/wait/);
  });

  it("never answers 500 to junk", async () => {
    const junk = ["", "0", '"text"', "{}", '{"name":{"$gt":""}}', JSON.stringify({ ...message, name: ["a"] }), "\u0000"];
    for (const body of junk) {
      const response = await app.request("/api/contact", postJson(body));
      expect(response.status, body).toBe(400);
    }
  });
});

describe("with CONTACT_EMAIL set", () => {
  let capture: SmtpCapture;
  let mailingApp: TestApp;
  beforeAll(async () => {
    capture = await startSmtpCapture();
  });
  afterAll(async () => {
    await capture.close();
  });
  beforeEach(async () => {
    mailingApp = await createTestApp({ SMTP_URL: capture.url, CONTACT_EMAIL: "owner@nursery.example", SHOP_NAME: "Green Corner" });
  });
  afterEach(async () => {
    await mailingApp.cleanup();
  });

  it("e-mails a copy of each message to that address over SMTP, naming the sender so the owner can reply", async () => {
    const written = { name: "Meera Iyer", email: "meera@example.com", subject: `Repotting ${Date.now()}`, message: "Can you repot my fig?\nIt is 2 m tall." };
    expect((await mailingApp.request("/api/contact", postJson(written))).status).toBe(201);
    const copy = await capture.waitFor((mail) => mail.subject === `Contact form: ${written.subject}`);
    expect(copy.to).toEqual(["owner@nursery.example"]);
    expect(copy.text).toContain("Meera Iyer <meera@example.com> wrote through the contact form of Green Corner.");
    expect(copy.text).toContain("Can you repot my fig?\nIt is 2 m tall.");
    expect(copy.html).toContain("mailto:meera@example.com");
  });
});
