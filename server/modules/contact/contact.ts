import { createHash, randomUUID } from "node:crypto";
import { contactAdminMessages, contactMessageSchema, markHandledSchema, messageListQuerySchema } from "#common/contact/contact-schemas.ts";
import type { ContactMessage, ContactMessagesPage } from "#common/contact/contact-types.ts";
import { idSchema } from "#common/shared/fields.ts";
import { isServerInstant } from "#common/shared/timestamps.ts";
import { sql, type Kysely, type Selectable } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import type { ContactMessageTable } from "./contact-tables.ts";
import type { Database } from "../../platform/db/client.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { inWriteTransaction } from "../../platform/db/write-transaction.ts";
import { InvalidInputError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { contactMessageEmail } from "./contact-mail.ts";
import type { MailOutbox } from "../../platform/mail/mail-outbox.ts";
import type { RateLimiter, RateRule } from "../../platform/rate-limit/rate-limit.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";

export const contactRateRule: RateRule = {
  name: "contact",
  limit: 5,
  windowMs: 10 * 60 * 1000,
  message: "You have sent several messages in a short time. Please wait a few minutes and try again.",
};

/**
 * A message sent again by the same address within this long (a double click, a resend after a slow answer) is
 * stored once and answered as the first was (docs/decisions/036-order-numbers-and-repeated-messages.md).
 */
export const REPEAT_WINDOW_MS = 10 * 60 * 1000;

// The first key of the advisory lock that lets one of two identical messages in at a time on PostgreSQL; the
// shopper locks of the platform's write transactions use 0x5053_0001 ('PS' + 1).
const CONTACT_REPEAT_LOCKS = 0x5053_0002;

/** The same sender (the address, in any case) and the same subject and text give the same digest. */
function contentHash(message: { email: string; subject: string; message: string }): string {
  return createHash("sha256").update(JSON.stringify([message.email.toLowerCase(), message.subject, message.message])).digest("base64url");
}

export interface RequestOrigin {
  clientIp: string | null;
}

export type { ContactMessage, ContactMessagesPage };

/** Messages on one page of the admins' inbox. */
export const MESSAGES_PAGE_SIZE = 20;

/** Where a page ends: the last message's time and id (ties broken by id), opaque to the browser. */
function encodeCursor(message: ContactMessage): string {
  return Buffer.from(JSON.stringify([message.createdAt, message.id])).toString("base64url");
}
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "string" && isServerInstant(createdAt) && idSchema.safeParse(id).success) {
      return { createdAt, id: id as string };
    }
  } catch {
    // falls through to the refusal
  }
  throw new InvalidInputError(contactAdminMessages.badCursor);
}

function toMessage(row: Selectable<ContactMessageTable>): ContactMessage {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    createdAt: toIsoString(row.created_at),
    handledAt: row.handled_at === null ? null : toIsoString(row.handled_at),
  };
}

/**
 * How many messages wait for an answer, counted up to `cap` (the overview shows "99+"): the count reads at most
 * `cap` entries of the unhandled index, however long the backlog.
 */
export async function countUnhandledMessages(db: Kysely<DB>, cap: number): Promise<number> {
  const waiting = db.selectFrom("contact_messages").select("id").where("handled_at", "is", null).limit(cap).as("waiting");
  const { n } = await db.selectFrom(waiting).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(n);
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
    /** Stores a Contact Us message (sent for real, readable by admins), once however often it is repeated within REPEAT_WINDOW_MS. */
    async sendMessage(input: unknown, origin: RequestOrigin): Promise<{ id: string }> {
      const message = parseInput(contactMessageSchema, input);
      await rateLimiter.hit(contactRateRule, origin.clientIp ?? "unknown");
      const id = randomUUID();
      const { contactEmail } = options;
      const hash = contentHash(message);
      const now = Date.now();
      // The message and its copy for the shop are stored together; the mail worker sends the copy. A repeat is
      // looked for inside the same transaction, after the lock that keeps its twin out until this one commits:
      // SQLite's write transactions run one at a time, PostgreSQL's take an advisory lock on the digest.
      return inWriteTransaction(database, async (trx) => {
        if (database.dialect === "postgres") await sql`select pg_advisory_xact_lock(${CONTACT_REPEAT_LOCKS}, hashtext(${hash}))`.execute(trx);
        const earlier = await trx
          .selectFrom("contact_messages")
          .select("id")
          .where("content_hash", "=", hash)
          .where("created_at", ">", new Date(now - REPEAT_WINDOW_MS).toISOString())
          .executeTakeFirst();
        if (earlier) return { id: earlier.id };
        await trx
          .insertInto("contact_messages")
          .values({ id, ...message, client_ip: origin.clientIp, content_hash: hash, created_at: new Date(now).toISOString() })
          .execute();
        if (contactEmail) {
          const mail = contactMessageEmail({ shopName: options.shopName, fromName: message.name, fromEmail: message.email, subject: message.subject, message: message.message });
          await options.outbox.enqueue(trx, { kind: "contact-message", reference: id, to: contactEmail, ...mail });
        }
        return { id };
      });
    },

    /** The admins' inbox, newest first, all or only the unhandled, a page at a time by key (no offset). */
    async listMessages(viewer: SessionUser | null, query: unknown): Promise<ContactMessagesPage> {
      requireAdmin(viewer);
      const { filter, cursor } = parseInput(messageListQuerySchema, query ?? {});
      const after = cursor ? decodeCursor(cursor) : undefined;
      const rows = await db
        .selectFrom("contact_messages")
        .selectAll()
        .$if(filter === "unhandled", (q) => q.where("handled_at", "is", null))
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb.or([eb("created_at", "<", after!.createdAt), eb.and([eb("created_at", "=", after!.createdAt), eb("id", "<", after!.id)])]),
          ),
        )
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(MESSAGES_PAGE_SIZE + 1)
        .execute();
      const items = rows.slice(0, MESSAGES_PAGE_SIZE).map(toMessage);
      const last = items[items.length - 1];
      return { items, filter, nextCursor: rows.length > MESSAGES_PAGE_SIZE && last ? encodeCursor(last) : null };
    },

    /** Marks a message handled (now) or waiting again; answers it as it now is. */
    async setHandled(viewer: SessionUser | null, messageId: unknown, input: unknown): Promise<ContactMessage> {
      requireAdmin(viewer);
      const id = idSchema.safeParse(messageId);
      if (!id.success) throw new NotFoundError(contactAdminMessages.notFound);
      const { handled } = parseInput(markHandledSchema, input);
      // Marking twice keeps the first time: "handled at" says when someone first dealt with it.
      const row = await inWriteTransaction(database, async (trx) => {
        const current = await trx.selectFrom("contact_messages").select("handled_at").where("id", "=", id.data).executeTakeFirst();
        if (!current) return undefined;
        if (handled !== (current.handled_at !== null)) {
          await trx.updateTable("contact_messages").set({ handled_at: handled ? new Date().toISOString() : null }).where("id", "=", id.data).execute();
        }
        return trx.selectFrom("contact_messages").selectAll().where("id", "=", id.data).executeTakeFirstOrThrow();
      });
      if (!row) throw new NotFoundError(contactAdminMessages.notFound);
      return toMessage(row);
    },
  };
}
