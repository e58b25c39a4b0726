import { createHash } from "node:crypto";

/** An inline script: a `<script>` element without `src`, its text up to the closing tag (React escapes `</script`). */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const HAS_SRC = /(?:^|\s)src\s*=/i;

/**
 * The CSP hash sources (`'sha256-…'`) of a page's inline scripts, as the browser computes them: over the element's
 * text, UTF-8, after the HTML parser's newline normalisation (CR LF and lone CR read as LF). A page served from the
 * cache names its scripts by hash instead of by nonce (docs/decisions/004 and 027), so its bytes can stay fixed.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", text = ""] of html.matchAll(INLINE_SCRIPT)) {
    if (HAS_SRC.test(attributes) || !text) continue;
    const digest = createHash("sha256").update(text.replace(/\r\n?/g, "\n"), "utf8").digest("base64");
    hashes.add(`'sha256-${digest}'`);
  }
  return [...hashes];
}
