import { z } from "zod";
import { messages } from "../shared/messages.ts";
import { emailSchema, requiredText } from "../shared/fields.ts";

export const contactMessageSchema = z.object({
  name: requiredText(messages.contact.nameRequired, 100),
  email: emailSchema,
  subject: requiredText(messages.contact.subjectRequired, 200),
  message: requiredText(messages.contact.messageRequired, 5000, { multiLine: true }),
});
export type ContactMessageInput = z.output<typeof contactMessageSchema>;

// ---- What the JSON API answers.

/** A message stored for the shop (POST /api/contact answers its id). */
export const contactReceiptSchema = z.strictObject({ id: z.string() }).meta({ id: "ContactReceipt" });

/** One message of the admins' Contact Us inbox. */
export const storedContactMessageSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    createdAt: z.iso.datetime(),
    handledAt: z.iso.datetime().nullable().meta({ description: "When it was marked handled; null while it waits for an answer" }),
  })
  .meta({ id: "ContactMessage" });

/** One page of the inbox, newest first; `nextCursor` asks for the next (older) page, null on the last. */
export const contactMessagesPageSchema = z
  .strictObject({ items: z.array(storedContactMessageSchema), filter: z.enum(["all", "unhandled"]), nextCursor: z.string().nullable() })
  .meta({ id: "ContactMessagesPage" });

export type ContactReceipt = z.infer<typeof contactReceiptSchema>;

/** The admins' inbox: all messages or only those waiting, twenty at a time after an opaque `cursor`. */
export const messageListQuerySchema = z.object({
  filter: z.enum(["all", "unhandled"]).catch("all").default("all"),
  cursor: z.string().max(200).optional(),
});
export type MessageListQuery = z.output<typeof messageListQuerySchema>;

/** Marks a message handled or, with false, waiting again. The page's form sends "true"/"false". */
export const markHandledSchema = z.object({
  handled: z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], {
    error: "Say whether the message is handled (true or false).",
  }),
});

export const contactAdminMessages = {
  notFound: "That message does not exist (any more).",
  badCursor: "That page of messages does not exist. Start again from the newest.",
} as const;
