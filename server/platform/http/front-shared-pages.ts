import type http from "node:http";
import type { Logger } from "pino";
import { connectionClientIp } from "./client-ip.ts";
import { acceptsGzip, chooseEncoding, encode } from "./compression.ts";
import { frontCacheKey, frontRequestId, header } from "./front-cache.ts";
import { logRequest } from "./request-logger.ts";
import type { ResponseCache, StoredAnswer } from "./response-cache.ts";
import { deflatePieces, splicedGzip, type DeflatedPiece } from "./spliced-gzip.ts";

/** Who asks for a page, as the front reads it off the request. */
export interface FrontAsker {
  path: string;
  cookie: string;
  clientIp: string | null;
  userAgent: string | null;
}

export interface FrontSharedPagesOptions<Personal, Part> {
  /** The shared renders (page-cache.ts's sharedPageCache), with the headers the chain sent captured. */
  cache: ResponseCache;
  trustedProxies: number;
  logger: Logger;
  /** Whether a page and the cookies sent with it may be a shared page at all (no database): else Hono has it. */
  mayShare: (path: string, cookie: string) => boolean;
  /**
   * The person's parts, and their account, for a live session that needs no change and a page they share; else
   * undefined, and Hono answers (a sliding session's cookie, the owner, a page of one's own).
   */
  personalFor: (asker: FrontAsker, parts: readonly Part[]) => Promise<{ personal: Personal; accountId: string } | undefined>;
  /** Where a kept render has each part's place (global). */
  marker: RegExp;
  /** What a marker says of its part (read once per kept render). */
  readPart: (marker: RegExpMatchArray) => Part;
  /** The person's part for each place, in order, as UTF-8. */
  renderParts: (personal: Personal, parts: readonly Part[]) => Promise<Buffer[]>;
}

/**
 * A kept render cut at its parts' places once: the bytes between them, and which part goes after each piece; the
 * pieces compressed once too, on the first answer in gzip.
 */
interface Template<Part> {
  pieces: Buffer[];
  parts: Part[];
  deflated?: Promise<DeflatedPiece[]>;
}

function cut<Part>(body: Buffer, marker: RegExp, readPart: (marker: RegExpMatchArray) => Part): Template<Part> {
  const html = body.toString("utf8");
  const pieces: Buffer[] = [];
  const parts: Part[] = [];
  let from = 0;
  for (const match of html.matchAll(marker)) {
    pieces.push(Buffer.from(html.slice(from, match.index)));
    parts.push(readPart(match));
    from = match.index + match[0].length;
  }
  pieces.push(Buffer.from(html.slice(from)));
  return { pieces, parts };
}

/**
 * A signed-in shopper's shared page straight from node:http, before Hono, as the front cache answers visitors
 * (docs/decisions/027 and 045): one session read and the person's parts, filled into the kept render and sent with
 * the headers the whole chain sent when it was stored (private, no-store; its scripts by hash). Anything it cannot
 * answer so goes to Hono untouched: a miss, headers not captured yet, a session to slide or none, the owner.
 */
export function frontSharedPages<Personal, Part>({ cache, trustedProxies, logger, mayShare, personalFor, marker, readPart, renderParts }: FrontSharedPagesOptions<Personal, Part>) {
  /** Each kept render's cut, made on its first use and gone with it. */
  const templates = new WeakMap<StoredAnswer, Template<Part>>();
  /** Takes the request (true) or leaves it to Hono having done nothing (false); `toHono` answers it later if need be. */
  const serve = (req: http.IncomingMessage, res: http.ServerResponse, toHono: () => void): boolean => {
    const cookie = header(req, "cookie");
    if (req.method !== "GET" || !cookie || header(req, "authorization") !== undefined) return false;
    const key = frontCacheKey(req, trustedProxies);
    const path = req.url!.replace(/\?.*$/, "");
    if (key === undefined || !mayShare(path, cookie)) return false;
    const entry = cache.lookup(key);
    const wire = entry?.wire;
    if (!entry || !wire) return false;
    const started = performance.now();
    const clientIp = connectionClientIp(req, trustedProxies);
    void (async () => {
      let template = templates.get(entry);
      if (!template) templates.set(entry, (template = cut(entry.body, marker, readPart)));
      const found = await personalFor({ path, cookie, clientIp, userAgent: header(req, "user-agent") ?? null }, template.parts);
      if (!found) return toHono();
      const parts = await renderParts(found.personal, template.parts);
      const acceptEncoding = header(req, "accept-encoding");
      let body: Buffer;
      const encoding = acceptsGzip(acceptEncoding) ? "gzip" : chooseEncoding(acceptEncoding);
      if (encoding === "gzip") {
        // Every browser takes gzip: the kept pieces are compressed once and the parts spliced in (spliced-gzip.ts),
        // where brotli would compress the whole page again for every request.
        template.deflated ??= deflatePieces(template.pieces);
        body = splicedGzip(await template.deflated, parts);
      } else {
        const html = Buffer.concat(template.pieces.flatMap((piece, i) => (i < parts.length ? [piece, parts[i]!] : [piece])));
        body = encoding ? await encode(html, encoding) : html;
      }
      const requestId = frontRequestId(req);
      const headers = [...wire.ok, "X-Request-Id", requestId, entry.hitHeader, "hit", "Content-Length", String(body.byteLength)];
      if (encoding) headers.push("Content-Encoding", encoding);
      res.writeHead(200, headers).end(body);
      cache.countHit();
      logRequest(logger, { requestId, method: "GET", path, status: 200, started, clientIp, accountId: found.accountId });
    })().catch((error: unknown) => {
      // Nothing is written yet: Hono answers as it would have (a database away gets its 503 page there).
      logger.warn({ err: error }, "a shared page could not be answered before the app");
      if (!res.headersSent) toHono();
    });
    return true;
  };
  return { serve };
}
