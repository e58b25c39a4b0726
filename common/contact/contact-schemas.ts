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
