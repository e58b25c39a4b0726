import { describe, expect, it } from "vitest";
import { safeRedirectTo } from "./session.ts";

describe("safeRedirectTo", () => {
  it("keeps a path on this site, with its query and fragment", () => {
    expect(safeRedirectTo("/add-product")).toBe("/add-product");
    expect(safeRedirectTo("/shop?q=fern&page=2#grid")).toBe("/shop?q=fern&page=2#grid");
    expect(safeRedirectTo("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
    expect(safeRedirectTo("/profile/../cart")).toBe("/cart");
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    " //evil.example",
    "/.//evil.example",
    "/a/../..//evil.example",
    "https://evil.example",
    "HTTPS://evil.example/login",
    "https:evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
  ])("refuses %j", (value) => {
    expect(safeRedirectTo(value)).toBe("/");
  });

  it("gives the fallback for nothing or a file upload", () => {
    expect(safeRedirectTo(null)).toBe("/");
    expect(safeRedirectTo(undefined, "/shop")).toBe("/shop");
    expect(safeRedirectTo("")).toBe("/");
    expect(safeRedirectTo(new File(["x"], "x.txt"))).toBe("/");
  });
});
