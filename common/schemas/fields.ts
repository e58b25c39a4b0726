import { z } from "zod";
import { messages } from "../messages.ts";

// The spec's "simple address pattern" (section 5): something@something.something, no spaces.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Ids are opaque strings made by the server; anything else cannot name a record. */
export const idSchema = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "Not a valid id");

export function requiredText(message: string, max: number) {
  return z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);
}

export const emailSchema = requiredText(messages.validation.emailRequired, 254).regex(
  EMAIL_PATTERN,
  messages.validation.invalidEmail,
);

export const phoneSchema = requiredText(messages.validation.phoneRequired, 30).regex(/^\+?[0-9][0-9 -]{5,}$/, messages.validation.phoneInvalid);
export const addressSchema = requiredText(messages.validation.addressRequired, 500);
