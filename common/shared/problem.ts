import { z } from "zod";
import { ERROR_CODES } from "./user-facing-error.ts";

/**
 * The body of every refused or failed JSON API request (docs/decisions/021): a message a person can read,
 * the message of each invalid field, and a stable code for the failures code must tell apart.
 */
export const problemSchema = z
  .strictObject({
    message: z.string().meta({ description: "What went wrong, for a person to read" }),
    fieldErrors: z.record(z.string(), z.string()).optional().meta({ description: "The message of each invalid field, by its name" }),
    code: z.enum(Object.values(ERROR_CODES)).optional().meta({ description: "Stable: the message may be reworded, the code not" }),
  })
  .meta({ id: "Problem" });

export type Problem = z.infer<typeof problemSchema>;
