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
  .strictObject({ id: z.string(), name: z.string(), email: z.string(), subject: z.string(), message: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: "ContactMessage" });

export const contactInboxSchema = z.strictObject({ items: z.array(storedContactMessageSchema) }).meta({ id: "ContactInbox" });

export type ContactReceipt = z.infer<typeof contactReceiptSchema>;
export type StoredContactMessage = z.infer<typeof storedContactMessageSchema>;
