import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
