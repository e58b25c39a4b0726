import { randomUUID } from "node:crypto";
import { contactMessageSchema, type ContactReceipt, type StoredContactMessage } from "#common/contact/contact-schemas.ts";
import type { Database } from "../../platform/db/client.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { ForbiddenError, UnauthorizedError, parseInput } from "../../platform/errors.ts";
import { contactMessageEmail } from "./contact-mail.ts";
import type { MailOutbox } from "../../platform/mail/mail-outbox.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import type { SessionUser } from "../../platform/session-user.ts";

export const contactRateRule: RateRule = {
  name: "contact",
  limit: 5,
  windowMs: 10 * 60 * 1000,
  message: "You have sent several messages in a short time. Please wait a few minutes and try again.",
};

export interface RequestOrigin {
  clientIp: string | null;
}


export type ContactService = ReturnType<typeof createContactService>;

interface ContactOptions {
  outbox: MailOutbox;
  shopName: string;
  /** Where a copy of each message goes (CONTACT_EMAIL); unset, messages are only stored. */
  contactEmail: string | undefined;
}

export function createContactService(database: Pick<Database, "db" | "dialect">, rateLimiter: RateLimiter, options: ContactOptions) {
  const { db } = database;
  return {
    /** Stores a Contact Us message (decisions.md: sent for real, readable by admins). */
    async sendMessage(input: unknown, origin: RequestOrigin): Promise<ContactReceipt> {
      const message = parseInput(contactMessageSchema, input);
      await rateLimiter.hit(contactRateRule, origin.clientIp ?? "unknown");
      const id = randomUUID();
      const { contactEmail } = options;
      // The message and its copy for the shop are stored together; the mail worker sends the copy.
      await inWriteTransaction(database, async (trx) => {
        await trx
          .insertInto("contact_messages")
          .values({ id, ...message, client_ip: origin.clientIp, created_at: new Date().toISOString() })
          .execute();
        if (contactEmail) {
          const mail = contactMessageEmail({ shopName: options.shopName, fromName: message.name, fromEmail: message.email, subject: message.subject, message: message.message });
          await options.outbox.enqueue(trx, { kind: "contact-message", reference: id, to: contactEmail, ...mail });
        }
      });
      return { id };
    },

    /** The admins' inbox, newest first. */
    async listMessages(viewer: SessionUser | null, limit = 100): Promise<StoredContactMessage[]> {
      if (!viewer) throw new UnauthorizedError();
      if (!viewer.isAdmin) throw new ForbiddenError();
      const rows = await db.selectFrom("contact_messages").selectAll().orderBy("created_at", "desc").limit(limit).execute();
      return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, subject: r.subject, message: r.message, createdAt: toIsoString(r.created_at) }));
    },
  };
}
