import { Hono } from "hono";
import type { AppEnv } from "../../app-env.ts";

const STATIC_PATHS = ["/", "/shop"];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** /sitemap.xml and /robots.txt for search engines. */
export function seoFiles(publicOrigin: string) {
  return new Hono<AppEnv>()
    .get("/robots.txt", (c) =>
      c.text(`User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /cart\n\nSitemap: ${publicOrigin}/sitemap.xml\n`),
    )
    .get("/sitemap.xml", async (c) => {
      const entries = await c.var.services.catalog.listSitemapEntries();
      const urls = [
        ...STATIC_PATHS.map((path) => `  <url><loc>${escapeXml(publicOrigin + path)}</loc></url>`),
        ...entries.map(
          (e) => `  <url><loc>${escapeXml(publicOrigin + e.path)}</loc><lastmod>${e.updatedAt}</lastmod></url>`,
        ),
      ];
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
      return c.body(body, 200, { "Content-Type": "application/xml; charset=utf-8" });
    });
}
