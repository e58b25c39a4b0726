import { APIError, isAPIError } from "better-auth/api";
import { messages } from "#common/shared/messages.ts";
import { registerSchema } from "#common/accounts/account-schemas.ts";
import { hasControlCharacters } from "#common/shared/fields.ts";
import { isCommonPassword } from "./common-passwords.ts";

// What the hooks check of, and do to, a request's body and an endpoint's answer.

/** The e-mail of a request, as failed passwords and mails are counted by it. */
export const emailOf = (body: Record<string, unknown>) => (typeof body.email === "string" ? body.email.trim().toLowerCase() : "");

export function hasErrorCode(returned: unknown, code: string): boolean {
  return isAPIError(returned) && (returned.body as { code?: unknown } | undefined)?.code === code;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/**
 * No field of an auth request takes a control character: a NUL in an e-mail or a token reached PostgreSQL,
 * which cannot compare it (it used to answer 500). Checked in every string, however deep.
 */
export function refuseControlCharacters(value: unknown, depth = 0): void {
  if (typeof value === "string") {
    if (hasControlCharacters(value)) throw new APIError("BAD_REQUEST", { message: messages.validation.controlCharactersInRequest, code: "CONTROL_CHARACTERS" });
  } else if (value !== null && typeof value === "object" && depth < 8) {
    for (const item of Object.values(value)) refuseControlCharacters(item, depth + 1);
  }
}

/** Where a password is typed to prove who one is, not chosen: an old one is checked, never judged. */
const TYPED_TO_PROVE = new Set(["/sign-in/email", "/verify-password", "/delete-user"]);

/** Our list of the most common passwords, for every new password (a sign-in only checks an old one). */
export function refuseCommonPassword(path: string, body: Record<string, unknown>) {
  if (TYPED_TO_PROVE.has(path)) return;
  for (const field of ["password", "newPassword"]) {
    const candidate = body[field];
    if (typeof candidate === "string" && isCommonPassword(candidate)) {
      throw new APIError("BAD_REQUEST", { message: messages.validation.passwordTooCommon, code: "PASSWORD_TOO_COMMON" });
    }
  }
}

/**
 * A sign-up, also through the JSON endpoint, carries the register form's fields and nothing else: no picture,
 * and the shown @username is the username itself (Better Auth would take any `image` and `displayUsername`).
 */
export function keepRegisterFields(body: Record<string, unknown>) {
  const parsed = registerSchema.safeParse(body);
  if (!parsed.success) throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]?.message ?? "The request is not valid." });
  for (const key of Object.keys(body)) delete body[key];
  Object.assign(body, parsed.data, { displayUsername: parsed.data.username });
}

/**
 * Better Auth's made-up answer to a sign-up with a taken address has every field of a real one but the role,
 * which the admin plugin sets as the row is written: set here, so the two answers cannot be told apart.
 * (Its `customSyntheticUser` option would drop the username fields, which it is not given.)
 */
export function giveNewUserRole(returned: unknown) {
  const body = isRecord(returned) && returned._flag === "json" ? returned.body : returned;
  const user = isRecord(body) ? body.user : undefined;
  if (isRecord(user) && user.role == null) user.role = "user";
}
