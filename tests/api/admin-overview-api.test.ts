import { describe, expect, it } from "vitest";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { createProduct } from "../support/factories.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { postJson, TEST_ORIGIN } from "../support/test-app.ts";

// A known secret, so that the test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithMail({ AUTH_SECRET: SHOP_AUTH_SECRET });

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  shop.app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A signed-in shopper and a signed-in admin, and one Contact Us message. */
async function people() {
  const { db, dialect } = shop.app.database;
  const shopperUser = await createShopper(db, dialect);
  const adminUser = await createShopper(db, dialect, { isAdmin: true, name: "Owner Admin" });
  const [shopperCookie, adminCookie] = await insertSessions(db, [shopperUser.id, adminUser.id]);
  const shopper = { cookie: shopperCookie! };
  const admin = { cookie: adminCookie! };
  const sent = await shop.app.request("/api/contact", postJson({ name: "Meera", email: "meera@example.com", subject: "Repotting", message: "When?" }));
  const { id: messageId } = (await sent.json()) as { id: string };
  return { shopper, admin, messageId };
}

describe("the admin overview and inbox API", () => {
  it("refuses visitors with 401 and shoppers with 403 on every endpoint, and the shopper's mark changes nothing", async () => {
    const { shopper, messageId } = await people();
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/admin/overview"],
      ["GET", "/api/admin/messages"],
      ["GET", "/api/admin/messages?filter=unhandled"],
      ["PATCH", `/api/admin/messages/${messageId}`, { handled: true }],
    ];
    for (const [method, path, body] of calls) {
      const visitor = await send(method, path, null, body);
      expect(visitor.status, `${method} ${path} (visitor)`).toBe(401);
      expect((await visitor.json()).message).toEqual(expect.any(String));
      expect((await send(method, path, shopper.cookie, body)).status, `${method} ${path} (shopper)`).toBe(403);
    }
    const row = await shop.app.database.db.selectFrom("contact_messages").select("handled_at").where("id", "=", messageId).executeTakeFirstOrThrow();
    expect(row.handled_at).toBeNull();
  });

  it("gives admins the overview: today's and 30 days' orders, low stock and unhandled messages", async () => {
    const { admin } = await people();
    await createProduct(shop.app.database.db, { name: "Nearly Gone Fern", stock: 1 });
    const response = await send("GET", "/api/admin/overview", admin.cookie);
    expect(response.status).toBe(200);
    const overview = await response.json();
    expect(overview).toMatchObject({
      timeZone: "Asia/Kolkata",
      today: { orders: 0, revenuePaise: 0 },
      lastDays: { orders: 0, revenuePaise: 0 },
      unhandledMessages: { count: 1, atLeast: false },
    });
    expect(overview.days).toHaveLength(30);
    expect(overview.lowStock.products).toContainEqual(expect.objectContaining({ name: "Nearly Gone Fern", stock: 1 }));
  });

  it("lets admins list messages and mark one handled and back; bad input is 400 or 404, never 500", async () => {
    const { admin, messageId } = await people();
    const list = await send("GET", "/api/admin/messages", admin.cookie);
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ filter: "all", nextCursor: null, items: [{ id: messageId, subject: "Repotting", handledAt: null }] });

    const marked = await send("PATCH", `/api/admin/messages/${messageId}`, admin.cookie, { handled: true });
    expect(marked.status).toBe(200);
    expect((await marked.json()).handledAt).toEqual(expect.any(String));
    expect((await (await send("GET", "/api/admin/messages?filter=unhandled", admin.cookie)).json()).items).toEqual([]);
    expect((await (await send("PATCH", `/api/admin/messages/${messageId}`, admin.cookie, { handled: false })).json()).handledAt).toBeNull();

    expect((await send("PATCH", "/api/admin/messages/nope", admin.cookie, { handled: true })).status).toBe(404);
    expect((await send("PATCH", `/api/admin/messages/${messageId}`, admin.cookie, { handled: 1 })).status).toBe(400);
    expect((await send("PATCH", `/api/admin/messages/${messageId}`, admin.cookie, [])).status).toBe(400);
    expect((await send("GET", "/api/admin/messages?cursor=%%%", admin.cookie)).status).toBe(400);
    // Times JavaScript reads and PostgreSQL does not: a 400 there too, never the database's 500.
    for (const time of ["0000-06-01T00:00:00.000Z", "+010000-01-01T00:00:00.000Z", "2030-02-30T00:00:00.000Z"]) {
      const cursor = Buffer.from(JSON.stringify([time, messageId])).toString("base64url");
      expect((await send("GET", `/api/admin/messages?cursor=${cursor}`, admin.cookie)).status, time).toBe(400);
    }
    // An unknown filter falls back to all messages rather than failing.
    expect((await send("GET", "/api/admin/messages?filter=spam", admin.cookie)).status).toBe(200);
  });

  it("refuses a change from another site's page (403)", async () => {
    const { admin, messageId } = await people();
    const response = await shop.app.request(`/api/admin/messages/${messageId}`, {
      method: "PATCH",
      headers: { Origin: "https://evil.example", Cookie: admin.cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ handled: true }),
    });
    expect(response.status).toBe(403);
  });
});
