import { describe, expect, it } from "vitest";
import { createSealer } from "./sealed-values.ts";

const sealer = createSealer("a-test-secret-of-at-least-32-characters!!");

describe("sealed cookie values", () => {
  it("opens what it sealed, and the sealed form does not show the text", () => {
    const sealed = sealer.seal("pending-email", "asha.kulkarni@example.com");
    expect(sealed).not.toContain("asha");
    expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("asha");
    expect(sealer.open("pending-email", sealed)).toBe("asha.kulkarni@example.com");
  });

  it("seals the same text differently each time", () => {
    expect(sealer.seal("pending-email", "a@example.com")).not.toBe(sealer.seal("pending-email", "a@example.com"));
  });

  it("refuses a value sealed for another purpose or under another secret", () => {
    const sealed = sealer.seal("pending-email", "a@example.com");
    expect(sealer.open("flash", sealed)).toBeNull();
    expect(createSealer("another-secret-of-at-least-32-characters!").open("pending-email", sealed)).toBeNull();
  });

  it("refuses an altered, cut or made-up value", () => {
    const sealed = Buffer.from(sealer.seal("pending-email", "a@example.com"), "base64url");
    const flipped = Buffer.from(sealed);
    flipped[14] = flipped[14]! ^ 1;
    expect(sealer.open("pending-email", flipped.toString("base64url"))).toBeNull();
    expect(sealer.open("pending-email", sealed.subarray(0, sealed.length - 1).toString("base64url"))).toBeNull();
    for (const value of ["", "a@example.com", "%%%", "x".repeat(40)]) expect(sealer.open("pending-email", value), value).toBeNull();
  });
});
