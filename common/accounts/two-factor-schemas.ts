import { z } from "zod";
import { messages } from "../shared/messages.ts";
import { formCheckbox, plainText } from "../shared/fields.ts";
import { PASSWORD_MAX } from "./account-schemas.ts";

const t = messages.twoFactor;

/** Turning two-factor on or off: the account's password, as the library checks it. */
export const twoFactorPasswordSchema = z.object({
  password: z.string({ error: t.passwordRequired }).min(1, t.passwordRequired).max(PASSWORD_MAX, t.passwordRequired).pipe(plainText()),
});

/** The first code from the authenticator app, which confirms it was set up. */
export const twoFactorConfirmSchema = z.object({
  code: z
    .string({ error: t.setupCodeRequired })
    .trim()
    .transform((code) => code.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, t.setupCodeRequired)),
});

/** The second step of a sign-in: a 6-digit code from the app, or a recovery code (xxxxx-xxxxx). */
export const secondFactorSchema = z.object({
  code: z
    .string({ error: t.codeRequired })
    .trim()
    .transform((code) => code.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^(\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, t.codeRequired)),
  trustDevice: formCheckbox(),
});

/** Whether a second-factor code is one of the recovery codes rather than the app's. */
export const isRecoveryCode = (code: string) => !/^\d{6}$/.test(code);
