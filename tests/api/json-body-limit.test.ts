import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// The JSON body limit over a real socket, as the server runs it (request-guards.ts's jsonBodies): a declared
// Content-Length is judged from the header alone, a chunked body as it streams. In-process requests (app.request)
// declare neither, so only these reach the header path.

let app: TestApp;
let url: string;
beforeEach(async () => {
  app = await createTestApp();
  url = await app.listen();
});
afterEach(async () => {
  await app.cleanup();
});

const message = { name: "Ravi", email: "ravi@example.com", subject: "Hello", message: "Do you deliver to Pune?" };
const headers = { Origin: TEST_ORIGIN, "Content-Type": "application/json" };
const storedMessages = () => app.database.db.selectFrom("contact_messages").selectAll().execute();

describe("JSON bodies over a socket", () => {
  it("a body that declares its length under 64 KB is read and handled (201, the message stored)", async () => {
    const response = await fetch(`${url}/api/contact`, { method: "POST", headers, body: JSON.stringify(message) });
    expect(response.status).toBe(201);
    expect(await storedMessages()).toEqual([expect.objectContaining({ subject: "Hello" })]);
  });

  it("a body whose Content-Length passes 64 KB is refused with 413 and the limit, and nothing is stored", async () => {
    const response = await fetch(`${url}/api/contact`, { method: "POST", headers, body: JSON.stringify({ ...message, message: "x".repeat(70 * 1024) }) });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("The request is too large (at most 64 KB).");
    expect(await storedMessages()).toEqual([]);
  });

  it("a chunked body without a length is refused with 413 once it passes 64 KB, and nothing is stored", async () => {
    const body = JSON.stringify({ ...message, message: "x".repeat(70 * 1024) });
    const chunks = body.match(/[\s\S]{1,8192}/g)!.map((chunk) => new TextEncoder().encode(chunk));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await fetch(`${url}/api/contact`, { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("The request is too large (at most 64 KB).");
    expect(await storedMessages()).toEqual([]);
  });
});
