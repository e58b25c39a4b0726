import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { ChangeFeed } from "../../platform/change-feed/change-feed.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { NotFoundError } from "../../platform/errors.ts";
import type { ListCursor } from "./list-cursor.ts";

/** The sitemap protocol's limit of addresses in one file. */
export const SITEMAP_MAX_URLS = 50_000;
/** Rows read from the database at a time while a file is written out. */
const BATCH = 1000;
const STATIC_PATHS = ["/", "/shop", "/sale", "/plant-finder"];

export type SitemapService = ReturnType<typeof createSitemapService>;

/** Where each products file starts in the (created_at, id) order: file n holds the keys from starts[n-1] up to starts[n]. */
interface SitemapLayout {
  generation: number;
  productFileStarts: ListCursor[];
}

/**
 * /sitemap.xml is an index of files of at most 50,000 addresses (/sitemaps/pages.xml, /sitemaps/products-N.xml).
 * Where each products file starts is found once by walking the key index in strides, and kept until the catalogue
 * changes (the change feed); a file is written out in batches by key, so no request holds the catalogue in memory.
 */
export function createSitemapService(db: Kysely<DB>, changes: ChangeFeed, { urlsPerFile = SITEMAP_MAX_URLS } = {}) {
  /**
   * Names this service's layouts in ETags. Each process counts its layouts from 0, so without it the tag of a layout
   * after a restart, or on another process, could be one a crawler kept for other files and be answered 304.
   */
  const instance = randomUUID().slice(0, 8);
  let generation = 0;
  let layout: Promise<SitemapLayout> | undefined;
  changes.subscribe((change) => {
    // Stock, reviews and profiles move no address: the files' list and the pages file stay as they are.
    if (change.type === "profile") return;
    if (change.type === "product" && change.aspects.every((aspect) => aspect === "stock" || aspect === "availability" || aspect === "reviews")) return;
    generation++;
    layout = undefined;
  });

  async function findLayout(): Promise<SitemapLayout> {
    const at = generation;
    const starts: ListCursor[] = [];
    let from: ListCursor | undefined;
    for (;;) {
      // The first key at or after `from`, skipping a whole file's worth: one stride of the index per file.
      const next = await db
        .selectFrom("products")
        .select(["created_at", "id"])
        .$if(from !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb("created_at", ">", from!.createdAt),
              eb.and([eb("created_at", "=", from!.createdAt), eb("id", ">=", from!.id)]),
            ]),
          ),
        )
        .orderBy("created_at")
        .orderBy("id")
        .limit(1)
        .offset(from === undefined ? 0 : urlsPerFile)
        .executeTakeFirst();
      if (!next) break;
      from = { createdAt: toIsoString(next.created_at), id: next.id };
      starts.push(from);
    }
    return { generation: at, productFileStarts: starts };
  }

  function currentLayout(): Promise<SitemapLayout> {
    if (!layout) {
      const finding = findLayout();
      layout = finding;
      finding.catch(() => {
        if (layout === finding) layout = undefined;
      });
    }
    return layout;
  }

  /** Product addresses of one file, read by key in batches. */
  async function* productEntries(start: ListCursor, end: ListCursor | undefined) {
    let from = start;
    let inclusive = true;
    for (;;) {
      const rows = await db
        .selectFrom("products")
        .select(["id", "created_at", "updated_at"])
        .where((eb) =>
          eb.or([
            eb("created_at", ">", from.createdAt),
            eb.and([eb("created_at", "=", from.createdAt), eb("id", inclusive ? ">=" : ">", from.id)]),
          ]),
        )
        .$if(end !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb("created_at", "<", end!.createdAt),
              eb.and([eb("created_at", "=", end!.createdAt), eb("id", "<", end!.id)]),
            ]),
          ),
        )
        .orderBy("created_at")
        .orderBy("id")
        .limit(BATCH)
        .execute();
      for (const row of rows) yield { path: `/product/${row.id}`, updatedAt: toIsoString(row.updated_at) };
      const last = rows.at(-1);
      if (rows.length < BATCH || !last) return;
      from = { createdAt: toIsoString(last.created_at), id: last.id };
      inclusive = false;
    }
  }

  return {
    /**
     * A tag for the index and the pages file, which change only with the layout (a product or category added,
     * changed or removed): crawlers asking again get 304 Not Modified. Not for a products file: its lastmod dates
     * move with every order (a stock change updates the product), which the layout does not follow.
     */
    async etag(): Promise<string> {
      return `W/"sitemap-${instance}-${(await currentLayout()).generation}"`;
    },

    async index(origin: string): Promise<string> {
      const { productFileStarts } = await currentLayout();
      const files = ["/sitemaps/pages.xml", ...productFileStarts.map((_, index) => `/sitemaps/products-${index + 1}.xml`)];
      return [
        `<?xml version="1.0" encoding="UTF-8"?>`,
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`,
        ...files.map((file) => `  <sitemap><loc>${escapeXml(origin + file)}</loc></sitemap>`),
        `</sitemapindex>`,
        "",
      ].join("\n");
    },

    /** The shop's own pages and its categories (a shop has far fewer than 50,000 categories; the list stops there). */
    async *pagesFile(origin: string): AsyncGenerator<string> {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
      for (const path of STATIC_PATHS) yield `  <url><loc>${escapeXml(origin + path)}</loc></url>\n`;
      const categories = await db
        .selectFrom("categories")
        .select(["id", "created_at"])
        .orderBy("created_at")
        .orderBy("id")
        .limit(urlsPerFile - STATIC_PATHS.length)
        .execute();
      for (const category of categories) yield urlEntry(origin, `/category/${category.id}`, toIsoString(category.created_at));
      yield `</urlset>\n`;
    },

    /** Products file `n` (from 1), or a 404 when the catalogue has fewer files. Checked before the first byte is sent. */
    async productsFile(n: number, origin: string): Promise<AsyncGenerator<string>> {
      const { productFileStarts } = await currentLayout();
      const start = productFileStarts[n - 1];
      if (!start) throw new NotFoundError("No such sitemap");
      const end = productFileStarts[n];
      return (async function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
        let lines: string[] = [];
        for await (const entry of productEntries(start, end)) {
          lines.push(urlEntry(origin, entry.path, entry.updatedAt));
          if (lines.length === BATCH) {
            yield lines.join("");
            lines = [];
          }
        }
        yield `${lines.join("")}</urlset>\n`;
      })();
    },
  };
}

function urlEntry(origin: string, path: string, updatedAt: string): string {
  return `  <url><loc>${escapeXml(origin + path)}</loc><lastmod>${updatedAt}</lastmod></url>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

