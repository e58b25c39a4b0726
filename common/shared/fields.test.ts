import { z } from "zod";
import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { addressSchema, emailSchema, requiredText } from "./fields.ts";

describe("emailSchema", () => {
  it.each(["asha@example.com", "a.b+c@mail.example.in", "A_B@x.co", "a@b.c", "a..b@x.com", "ü@x.com", ".a@x.com", "a@x", "a b@x.com"])(
    "agrees with z.email(), the rule Better Auth checks with: %s",
    (email) => {
      expect(emailSchema.safeParse(email).success).toBe(z.email().safeParse(email).success);
    },
  );
});

describe("text fields", () => {
  const name = requiredText("Name is required", 100);
  it.each(["a\u0000b", "a\u0001", "a\u001bb", "a\u007f", "a\u0085b", "line\nbreak", "a\tb"])("refuse a control character on one line: %j", (value) => {
    const result = name.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(messages.validation.controlCharacters);
  });

  it("take unicode, and tab and line breaks where text has several lines, but never NUL", () => {
    expect(name.parse("Ãsha 🌵 Kulkarni")).toBe("Ãsha 🌵 Kulkarni");
    expect(addressSchema.parse("12 MG Road\r\n\tPune")).toBe("12 MG Road\r\n\tPune");
    expect(addressSchema.safeParse("12 MG Road\u0000").success).toBe(false);
  });
});
