import { z } from "zod";
import { messages } from "./messages.ts";

/**
 * The e-mail rule of zod's `z.email()`, which Better Auth checks every address with (its sign-up, sign-in,
 * reset and verification endpoints): one rule, so an address the form accepts is never refused by the
 * library (`a@b.c`, `a..b@x`, `ü@x` once passed a looser pattern and then failed as a 500).
 */
export const EMAIL_PATTERN = z.regexes.email;

/**
 * Characters no text field takes: C0 controls (NUL among them: PostgreSQL cannot store it), DEL and C1
 * controls. Tab, line feed and carriage return are allowed only in multi-line fields (see `multiLine`).
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Whether a value holds a character no single-line field takes. */
export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTERS.test(value);
}

/** A string of one line: control characters (tab and line breaks too) are refused with a message. */
export function plainText() {
  return z.string().refine((value) => !CONTROL_CHARACTERS.test(value), messages.validation.controlCharacters);
}

/** A string of several lines (a message, an address): tab and line breaks are kept, other controls refused. */
export function multiLineText() {
  return z.string().refine((value) => !CONTROL_CHARACTERS_BUT_LINES.test(value), messages.validation.controlCharacters);
}

/**
 * A number as a form sends it ("4", " -1 ") or JSON does (4), checked by `number`. Nothing else is read as one:
 * z.coerce turned null, "" and false into 0 (which removes a cart line), true into 1 and [5] into 5.
 */
export function formNumber<T extends z.ZodType>(number: T) {
  return z.preprocess((value) => (typeof value === "string" && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : value), number);
}

/** A checkbox as a form sends it ("on", or nothing at all when unticked) or as JSON does (true): false unless ticked. */
export const formCheckbox = () => z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean()).default(false);

/** Ids are opaque strings made by the server; anything else cannot name a record. */
export const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Not a valid id");

export function requiredText(message: string, max: number, { multiLine = false }: { multiLine?: boolean } = {}) {
  const lines = multiLine ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS;
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `At most ${max} characters`)
    .refine((value) => !lines.test(value), messages.validation.controlCharacters);
}

export const emailSchema = requiredText(messages.validation.emailRequired, 254).regex(EMAIL_PATTERN, messages.validation.invalidEmail);

/** Digits, spaces and dashes after an optional +: a phone number as people type it. */
export const PHONE_PATTERN = /^\+?[0-9][0-9 -]{5,}$/;
export const phoneSchema = requiredText(messages.validation.phoneRequired, 30).regex(PHONE_PATTERN, messages.validation.phoneInvalid);
/** A postal address may be typed on several lines. */
export const addressSchema = requiredText(messages.validation.addressRequired, 500, { multiLine: true });
