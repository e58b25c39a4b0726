import { createRequire } from "node:module";
import type * as LanguageCommon from "@zxcvbn-ts/language-common";

const require = createRequire(import.meta.url);
let common: Set<string> | undefined;

// About 49,000 of the most common passwords (zxcvbn-ts's list, drawn from public breach corpora), loaded with the
// first password checked: most processes (and most requests) never check one, and the list is ~5 MB of heap
// (docs/decisions/029-bounded-memory.md).
function commonPasswords(): Set<string> {
  if (!common) {
    const { dictionary } = require("@zxcvbn-ts/language-common") as typeof LanguageCommon;
    common = new Set((dictionary["passwords-common"] as string[]).map((word) => word.toLowerCase()));
  }
  return common;
}

export function commonPasswordCount(): number {
  return commonPasswords().size;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
