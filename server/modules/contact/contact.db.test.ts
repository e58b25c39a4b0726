import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createContactService } from "./contact.ts";
import { createMailOutbox } from "../../platform/mail/mail-outbox.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { createSealer } from "../../platform/sealed-values.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";

const testSealer = createSealer("mail-outbox-test-secret-0123456789abcdef");

let database: TestDatabase;
// No CONTACT_EMAIL: messages are only stored (the mail copy has its own test in tests/api).
const quiet = { outbox: createMailOutbox(testSealer), shopName: "Plant Shop", contactEmail: undefined };
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.cleanup();
});

const valid = { name: " Asha ", email: "asha@example.com", subject: "Repotting", message: "When should I repot my fig?" };

describe("contact messages", () => {
  it("stores a valid message, trimmed, with the sender's address", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    const { id } = await contact.sendMessage(valid, { clientIp: "10.0.0.1" });
    const row = await database.db.selectFrom("contact_messages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Asha", email: "asha@example.com", subject: "Repotting", client_ip: "10.0.0.1" });
  });

  it("names every missing field and stores nothing", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    await expect(contact.sendMessage({ email: "not-an-address" }, { clientIp: null })).rejects.toMatchObject({
      status: 400,
      fieldErrors: {
        name: "Name is required",
        email: "Invalid Email Address",
        subject: "Subject is required",
        message: "Message is required",
      },
    });
    expect(await database.db.selectFrom("contact_messages").selectAll().execute()).toEqual([]);
  });

  it("refuses the sixth message from one address within ten minutes", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    for (let i = 0; i < 5; i++) await contact.sendMessage(valid, { clientIp: "10.0.0.2" });
    await expect(contact.sendMessage(valid, { clientIp: "10.0.0.2" })).rejects.toMatchObject({ status: 429 });
    await expect(contact.sendMessage(valid, { clientIp: "10.0.0.3" })).resolves.toHaveProperty("id");
  });
});

describe("a message sent again", () => {
  // With CONTACT_EMAIL: the shop's copy is queued in the outbox beside each stored message.
  const mailing = { outbox: createMailOutbox(testSealer), shopName: "Plant Shop", contactEmail: "owner@nursery.example" };
  const stored = () => database.db.selectFrom("contact_messages").select(["id", "name", "email"]).execute();
  const copies = () => database.db.selectFrom("mail_outbox").select("reference").where("kind", "=", "contact-message").execute();

  it("is stored once, its copy queued once, when the same address sends the same text again within ten minutes; both answered alike", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), mailing);
    const first = await contact.sendMessage(valid, { clientIp: "10.0.1.1" });
    const again = await contact.sendMessage({ ...valid, name: "Asha K", email: "ASHA@example.com" }, { clientIp: "10.0.1.2" });
    expect(again).toEqual(first);
    expect(await stored()).toEqual([{ id: first.id, name: "Asha", email: "asha@example.com" }]);
    expect(await copies()).toEqual([{ reference: first.id }]);
  });

  it("is stored once when ten identical messages arrive at the same moment", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), mailing);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => contact.sendMessage(valid, { clientIp: `10.0.2.${i}` })));
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.id))).toEqual(new Set([rows[0]!.id]));
    expect(await copies()).toEqual([{ reference: rows[0]!.id }]);
  });

  it("is stored again once ten minutes have passed, and a different text or another sender is stored at once", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    const first = await contact.sendMessage(valid, { clientIp: "10.0.3.1" });
    await contact.sendMessage({ ...valid, message: "And my rubber plant?" }, { clientIp: "10.0.3.1" });
    await contact.sendMessage({ ...valid, subject: "Repotting, again" }, { clientIp: "10.0.3.1" });
    await contact.sendMessage({ ...valid, email: "ravi@example.com" }, { clientIp: "10.0.3.1" });
    expect(await stored()).toHaveLength(4);
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60 * 1000).toISOString();
    await database.db.updateTable("contact_messages").set({ created_at: elevenMinutesAgo }).where("id", "=", first.id).execute();
    const later = await contact.sendMessage(valid, { clientIp: "10.0.3.1" });
    expect(later.id).not.toBe(first.id);
    expect(await stored()).toHaveLength(5);
  });
});

describe("the admins' inbox", () => {
  const admin = () => createShopper(database.db, database.dialect, { isAdmin: true });
  /** `count` messages written straight into the table, one second apart, subjects "Message 0"… (oldest first). */
  async function storeMessages(count: number, sameTime = false) {
    const start = Date.parse("2030-05-01T00:00:00Z");
    await database.db
      .insertInto("contact_messages")
      .values(
        Array.from({ length: count }, (_, i) => ({
          id: `msg-${String(i).padStart(3, "0")}`,
          name: "Asha",
          email: "asha@example.com",
          subject: `Message ${i}`,
          message: "Hello",
          client_ip: null,
          created_at: new Date(sameTime ? start : start + i * 1000).toISOString(),
        })),
      )
      .execute();
  }

  it("lists newest first, twenty a page, every message once across the pages", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    await storeMessages(45);
    const viewer = await admin();
    const subjects: string[] = [];
    let cursor: string | undefined;
    const pageSizes: number[] = [];
    do {
      const page = await contact.listMessages(viewer, cursor ? { cursor } : {});
      pageSizes.push(page.items.length);
      subjects.push(...page.items.map((m) => m.subject));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pageSizes).toEqual([20, 20, 5]);
    expect(subjects).toEqual(Array.from({ length: 45 }, (_, i) => `Message ${44 - i}`));
  });

  it("pages messages sent in the same millisecond by id, skipping none and repeating none", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    await storeMessages(25, true);
    const viewer = await admin();
    const first = await contact.listMessages(viewer, {});
    const second = await contact.listMessages(viewer, { cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((m) => m.id)).size).toBe(25);
  });

  it("marks a message handled and back, keeps the first time it was handled, and filters the unhandled", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    const viewer = await admin();
    const { id: older } = await contact.sendMessage(valid, { clientIp: "10.0.0.5" });
    const { id: newer } = await contact.sendMessage({ ...valid, subject: "Watering" }, { clientIp: "10.0.0.5" });
    // Sent within one millisecond they would tie on time (then the order is by id): make "older" older.
    await database.db.updateTable("contact_messages").set({ created_at: new Date(Date.now() - 60_000).toISOString() }).where("id", "=", older).execute();

    const handled = await contact.setHandled(viewer, older, { handled: true });
    expect(handled.handledAt).toEqual(expect.any(String));
    expect((await contact.setHandled(viewer, older, { handled: "true" })).handledAt).toBe(handled.handledAt);
    expect((await contact.listMessages(viewer, { filter: "unhandled" })).items.map((m) => m.id)).toEqual([newer]);
    expect((await contact.listMessages(viewer, { filter: "all" })).items.map((m) => [m.id, m.handledAt !== null])).toEqual([
      [newer, false],
      [older, true],
    ]);

    expect((await contact.setHandled(viewer, older, { handled: false })).handledAt).toBeNull();
    expect((await contact.listMessages(viewer, { filter: "unhandled" })).items.map((m) => m.id)).toEqual([newer, older]);
  });

  it("answers 404 for an unknown or malformed id and 400 for a missing or odd 'handled' or a forged page key", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    const viewer = await admin();
    const { id } = await contact.sendMessage(valid, { clientIp: "10.0.0.6" });
    await expect(contact.setHandled(viewer, "no-such-message", { handled: true })).rejects.toMatchObject({ status: 404 });
    await expect(contact.setHandled(viewer, "../../etc", { handled: true })).rejects.toMatchObject({ status: 404 });
    await expect(contact.setHandled(viewer, id, {})).rejects.toMatchObject({ status: 400 });
    await expect(contact.setHandled(viewer, id, { handled: "yes" })).rejects.toMatchObject({ status: 400 });
    await expect(contact.listMessages(viewer, { cursor: "bm90IGEga2V5" })).rejects.toMatchObject({
      status: 400,
      message: "That page of messages does not exist. Start again from the newest.",
    });
  });

  it("is refused to visitors (401) and to shoppers (403), who change nothing", async () => {
    const contact = createContactService(database, createRateLimiter(database.db), quiet);
    const { id } = await contact.sendMessage(valid, { clientIp: "10.0.0.7" });
    const shopper = await createShopper(database.db, database.dialect);
    await expect(contact.listMessages(null, {})).rejects.toMatchObject({ status: 401 });
    await expect(contact.listMessages(shopper, {})).rejects.toMatchObject({ status: 403 });
    await expect(contact.setHandled(null, id, { handled: true })).rejects.toMatchObject({ status: 401 });
    await expect(contact.setHandled(shopper, id, { handled: true })).rejects.toMatchObject({ status: 403 });
    const row = await database.db.selectFrom("contact_messages").select("handled_at").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.handled_at).toBeNull();
  });
});
