import { Hono, type Context } from "hono";
import type { PlatformEnv } from "../../platform/http/http-env.ts";
import { ifNoneMatchHits } from "../../platform/http/response-cache.ts";
import type { SitemapService } from "./sitemaps.ts";

const XML = { "Content-Type": "application/xml; charset=utf-8" };

/** Sends XML written piece by piece: a products file of 50,000 addresses is never one string in memory. */
function streamXml(c: Context<PlatformEnv>, pieces: AsyncGenerator<string>, etag?: string) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await pieces.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return c.body(body, 200, etag === undefined ? XML : { ...XML, ETag: etag });
}

/** A 304 when the crawler already has this layout's files (the same If-None-Match rule as the response cache). */
function unchangedFor(c: Context<PlatformEnv>, etag: string): Response | undefined {
  return ifNoneMatchHits(c.req.header("If-None-Match"), etag) ? c.body(null, 304, { ETag: etag }) : undefined;
}

/** /robots.txt, and /sitemap.xml: an index of sitemap files of at most 50,000 addresses each. */
export function seoFiles(sitemaps: SitemapService, publicOrigin: string) {
  return new Hono<PlatformEnv>()
    .get("/robots.txt", (c) =>
      c.text(`User-agent: *\nAllow: /\nDisallow: /api/\nDisallow: /cart\n\nSitemap: ${publicOrigin}/sitemap.xml\n`),
    )
    .get("/sitemap.xml", async (c) => {
      const etag = await sitemaps.etag();
      return unchangedFor(c, etag) ?? c.body(await sitemaps.index(publicOrigin), 200, { ...XML, ETag: etag });
    })
    .get("/sitemaps/pages.xml", async (c) => {
      const etag = await sitemaps.etag();
      return unchangedFor(c, etag) ?? streamXml(c, sitemaps.pagesFile(publicOrigin), etag);
    })
    .get("/sitemaps/:file{products-[1-9][0-9]{0,5}\\.xml}", async (c) => {
      const n = Number(/\d+/.exec(c.req.param("file"))![0]);
      // Read afresh every time, without a tag: its lastmod dates change with every order (sitemaps.etag).
      return streamXml(c, await sitemaps.productsFile(n, publicOrigin));
    });
}
