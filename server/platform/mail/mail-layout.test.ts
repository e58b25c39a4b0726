import { describe, expect, it } from "vitest";
import { escapeHtml } from "./mail-layout.ts";

describe("escapeHtml", () => {
  it("escapes the characters that matter in content and attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;",
    );
    expect(escapeHtml("Ānanda")).toBe("Ānanda");
  });
});
