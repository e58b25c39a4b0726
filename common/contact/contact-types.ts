// Shapes of the admins' inbox: inferred from the schemas that document them.
import type { z } from "zod";
import type { contactMessagesPageSchema, storedContactMessageSchema } from "./contact-schemas.ts";

/** A Contact Us message as admins read it. */
export type ContactMessage = z.infer<typeof storedContactMessageSchema>;
export type ContactMessagesPage = z.infer<typeof contactMessagesPageSchema>;
