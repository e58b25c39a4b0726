import { describe, expect, it } from "vitest";
import { initialsAvatarSvg, initialsOf } from "./avatars.ts";

describe("initials avatars", () => {
  it("takes the first letters of the first and last names", () => {
    expect(initialsOf("Asha Rani Kulkarni")).toBe("AK");
    expect(initialsOf("  meera ")).toBe("M");
    expect(initialsOf("Ānanda Tīrtha")).toBe("ĀT");
    expect(initialsOf("")).toBe("?");
  });

  it("draws a 100×100 SVG whose colour depends on the name, with nothing injectable", () => {
    const svg = initialsAvatarSvg("Asha Kulkarni");
    expect(svg).toContain('width="100" height="100"');
    expect(svg).toContain(">AK</text>");
    expect(initialsAvatarSvg("Asha Kulkarni")).toBe(svg);
    expect(initialsAvatarSvg("<script> x")).not.toContain("<script");
  });
});
