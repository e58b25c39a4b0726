import { readFile } from "node:fs/promises";
import path from "node:path";
import { Hono } from "hono";
import { SHARE_IMAGE_SIZE } from "#common/shared/share-image.ts";
import type { PlatformEnv } from "./http-env.ts";

const SHARE_PATH = /^\/share\/(illustrations\/[a-z0-9/-]+)\.png$/;

/**
 * The shop's illustrations are SVG, which sites that show a link preview do not display: /share/… answers
 * the same picture as a 1200×630 PNG (the size those previews use), rendered once per process.
 */
export function shareImages(publicDir: string) {
  const rendered = new Map<string, Promise<Buffer | null>>();
  const render = async (name: string): Promise<Buffer | null> => {
    const svg = await readFile(path.join(publicDir, `${name}.svg`)).catch(() => null);
    if (!svg) return null;
    // Loaded on the first share image, not at start-up (docs/decisions/029-bounded-memory.md).
    const { default: sharp } = await import("sharp");
    return sharp(svg).resize(SHARE_IMAGE_SIZE.width, SHARE_IMAGE_SIZE.height, { fit: "contain", background: "#f1f8f1" }).flatten({ background: "#f1f8f1" }).png().toBuffer();
  };
  return new Hono<PlatformEnv>().get("/share/*", async (c) => {
    const name = SHARE_PATH.exec(c.req.path)?.[1];
    if (!name || name.includes("..")) return c.notFound();
    if (!rendered.has(name)) {
      const rendering = render(name);
      rendered.set(name, rendering);
      // A failed rendering is forgotten, so that the next request tries again.
      rendering.catch(() => rendered.delete(name));
    }
    const png = await rendered.get(name)!;
    if (!png) {
      rendered.delete(name);
      return c.notFound();
    }
    return c.body(new Uint8Array(png), 200, { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" });
  });
}
