import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createContactService } from "./contact.ts";
import { createMailOutbox } from "../../platform/mail/mail-outbox.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { createSealer } from "../../platform/sealed-values.ts";

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
