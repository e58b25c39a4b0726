import { dictionary } from "@zxcvbn-ts/language-common";

// About 49,000 of the most common passwords (zxcvbn-ts's list, drawn from public breach corpora).
const COMMON = new Set((dictionary["passwords-common"] as string[]).map((word) => word.toLowerCase()));

export const COMMON_PASSWORD_COUNT = COMMON.size;

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
