import { z } from "zod";
import { messages } from "../shared/messages.ts";
import { emailSchema, plainText } from "../shared/fields.ts";
import { PASSWORD_MAX } from "./account-schemas.ts";

// Changing the e-mail address and deleting the account: both are proven with the account's password, or, for an
// account that has none, by a recent login (the service decides which one the account needs).

/** The password typed to prove who one is; empty or left out for an account that has none. */
const provingPassword = z
  .string()
  .max(PASSWORD_MAX, messages.validation.passwordTooLong)
  .pipe(plainText())
  .optional()
  .transform((value) => value || undefined);

export const changeEmailSchema = z.object({
  newEmail: emailSchema,
  password: provingPassword,
});

export const deleteAccountSchema = z.object({ password: provingPassword });

/** The token of the link mailed to the new address. */
export const emailChangeLinkSchema = z.object({ token: z.string().min(1).max(2000).pipe(plainText()) });
