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
