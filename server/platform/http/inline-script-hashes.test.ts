import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./inline-script-hashes.ts";

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inline script hashes", () => {
  it("hashes each distinct inline script's text, reading CR LF as LF, and skips scripts with src and empty ones", () => {
    const html = `<script nonce="n">a()</script><script type="module" async="">import("/x.js")\r\n</script><script src="/y.js"></script><script></script><script>a()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha("a()"), sha('import("/x.js")\n')]);
  });
});
