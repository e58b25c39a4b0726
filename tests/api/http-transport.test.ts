import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// What only shows over a real socket: request bodies as Node delivers them, and the client's address.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.cleanup();
  app = undefined;
});

const message = { name: "Asha", email: "asha@example.com", subject: "Ferns", message: "Do you deliver ferns?" };

// Each message its own text: the same one again within minutes is stored once, and these count what is stored.
let sent = 0;
function sendContact(url: string, forwardedFor: string) {
  return fetch(`${url}/api/contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: TEST_ORIGIN, "X-Forwarded-For": forwardedFor },
    body: JSON.stringify({ ...message, message: `${message.message} (${++sent})` }),
  });
}

describe("over HTTP", () => {
  it("a request without a body needs no content type: a bodiless POST is incomplete (400), an unknown DELETE is 404", async () => {
    app = await createTestApp();
    const url = await app.listen();
    const post = await fetch(`${url}/api/contact`, { method: "POST", headers: { Origin: TEST_ORIGIN } });
    expect(post.status).toBe(400);
    const remove = await fetch(`${url}/api/no-such-thing`, { method: "DELETE", headers: { Origin: TEST_ORIGIN } });
    expect(remove.status).toBe(404);
    const text = await fetch(`${url}/api/contact`, { method: "POST", headers: { Origin: TEST_ORIGIN }, body: "hello" });
    expect(text.status).toBe(415);
  });

  it("an unknown API path answers 404 whatever its body (text, a form, too large), while a real route still answers 415 and 413", async () => {
    app = await createTestApp();
    const url = await app.listen();
    const send = (path: string, type: string, body: string) => fetch(`${url}${path}`, { method: "POST", headers: { Origin: TEST_ORIGIN, "Content-Type": type }, body });
    for (const path of ["/api/no-such-thing", "/api/cart/no-such-thing", "/api/categories"]) {
      for (const [type, body] of [["text/plain", "hello"], ["application/x-www-form-urlencoded", "a=b"], ["application/json", "x".repeat(70 * 1024)]] as const) {
        const response = await send(path, type, body);
        expect(response.status, `${path} ${type}`).toBe(404);
        expect(await response.json()).toEqual({ message: "There is no such API endpoint." });
      }
    }
    expect((await send("/api/contact", "text/plain", "hello")).status).toBe(415);
    expect((await send("/api/contact", "application/json", "x".repeat(70 * 1024))).status).toBe(413);
    expect((await send("/api/auth/sign-in/email", "text/plain", "hello")).status).toBe(415);
  });

  it("without TRUST_PROXY, limits key on the connection and ignore X-Forwarded-For", async () => {
    app = await createTestApp();
    const url = await app.listen();
    for (let i = 0; i < 5; i++) expect((await sendContact(url, `198.51.100.${i}`)).status).toBe(201);
    expect((await sendContact(url, "198.51.100.99")).status).toBe(429);
  });

  it("behind one trusted proxy, limits key on the address that proxy saw", async () => {
    app = await createTestApp({ TRUST_PROXY: "1" });
    const url = await app.listen();
    for (let i = 0; i < 5; i++) expect((await sendContact(url, "203.0.113.1, 198.51.100.7")).status).toBe(201);
    expect((await sendContact(url, "203.0.113.2, 198.51.100.7")).status).toBe(429);
    expect((await sendContact(url, "198.51.100.8")).status).toBe(201);
    const stored = await app.database.db.selectFrom("contact_messages").select("client_ip").distinct().execute();
    expect(stored.map((row) => row.client_ip).sort()).toEqual(["198.51.100.7", "198.51.100.8"]);
  });
});
