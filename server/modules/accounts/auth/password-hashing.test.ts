import { describe, expect, it } from "vitest";
import { commonPasswordCount, isCommonPassword } from "./common-passwords.ts";
import { hashPassword, verifyPassword } from "./password-hashing.ts";

describe("password hashing", () => {
  it("uses argon2id at OWASP's minimum parameters and verifies", async () => {
    const stored = await hashPassword("purple-monstera-42");
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword({ hash: stored, password: "purple-monstera-42" })).toBe(true);
    expect(await verifyPassword({ hash: stored, password: "purple-monstera-43" })).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same password")).not.toBe(await hashPassword("same password"));
  });

  it("refuses hashes it did not make", async () => {
    expect(await verifyPassword({ hash: "salt:deadbeef", password: "x" })).toBe(false);
  });
});

describe("common passwords", () => {
  it("ships at least 10,000 and recognises them ignoring case", () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
    for (const password of ["password", "12345678", "Qwerty123", "iloveyou", "SUNSHINE"]) expect(isCommonPassword(password)).toBe(true);
    expect(isCommonPassword("purple-monstera-42")).toBe(false);
  });
});
