import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql, type Kysely } from "kysely";
import { openDatabase, type Database } from "../server/platform/db/client.ts";
import { migrateToLatest } from "../server/migrations.ts";
import type { DB } from "../server/platform/db/schema.ts";
import { countFacetsWithList, createCatalogService, createProductSearch, encodeCursor, foldCellCountChanges, readFilteredPage, sampleProducts, seedSampleData } from "../server/modules/catalog/index.ts";
import { NO_FILTERS, readListFilters, type ListFilters } from "../common/catalog/list-filters.ts";
import { createPostgresDatabase, startShopProcess, stopShopProcess, waitUntilHealthy } from "../tests/support/shop-process.ts";
import { API_MAX_OFFSET } from "../common/shared/constants.ts";
import { percentile } from "./statistics.ts";
import { createRateLimiter } from "../server/platform/rate-limit/rate-limit.ts";

// Scale mode (docs/decisions/026): the same storefront pages and APIs at 10 products (or `--baseline M`) and at N (default 100,000), on SQLite
// and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL. Each size gets a fresh database: the sample
// catalogue, then a synthetic one written by a bulk loader (batched multi-row INSERTs through Kysely, so the search
// index's triggers and GIN indexes are maintained as for any product). Requests are sent one at a time to a warm
// server with the page cache off, so each request does its real work; it prints p50/p95/p99 per size and the ratio N/10.
const PORT = Number(process.env.BENCH_SCALE_PORT ?? 4472);
const WARM_UP = 10;
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 100);
/** Only the rows whose label contains this text (say `sale`), for a quick look at one page; unset: every row. */
const ONLY = process.env.BENCH_SCALE_ONLY;
/** One synthetic product in ON_SALE_EVERY is on sale (1 %, decision 047); one in ENDED_EVERY had a sale that ended. */
const ON_SALE_EVERY = 100;
const ENDED_EVERY = 200;
const BATCH = 500;
const SEARCHES = ["fern", "plant", "snak plnt", "bougainvilla", "xylophone", "bougainvil", "succulent", "red fern"];

const ADJECTIVES = ["Variegated", "Dwarf", "Golden", "Silver", "Giant", "Miniature", "Trailing", "Compact", "Red", "Blue", "Spotted", "Striped", "Curly", "Velvet", "Royal", "Wild", "Frosted", "Crested", "Weeping", "Upright"];
const CULTIVARS = ["Aurora", "Bella", "Cascade", "Diamond", "Emerald", "Firefly", "Glacier", "Harmony", "Indigo", "Jade", "Kasbah", "Lumina", "Meadow", "Nova", "Opal", "Prism", "Quartz", "Ruby", "Sunset", "Tundra", "Umber", "Vista", "Willow", "Xanadu", "Yarrow", "Zephyr"];
const POTS = ["9 cm pot", "12 cm pot", "15 cm pot", "17 cm pot", "21 cm pot", "24 cm pot", "27 cm pot", "30 cm pot"];
const SPECIES: [string, string][] = [
  ["Boston Fern", "Ferns"], ["Maidenhair Fern", "Ferns"], ["Bird's Nest Fern", "Ferns"], ["Staghorn Fern", "Ferns"],
  ["Areca Palm", "Palms"], ["Kentia Palm", "Palms"], ["Parlour Palm", "Palms"], ["Fan Palm", "Palms"],
  ["Snake Plant", "Indoor Plants"], ["Monstera", "Indoor Plants"], ["Peace Lily", "Indoor Plants"], ["Rubber Plant", "Indoor Plants"],
  ["Fiddle Leaf Fig", "Indoor Plants"], ["ZZ Plant", "Indoor Plants"], ["Pothos", "Hanging Plants"], ["String of Pearls", "Hanging Plants"],
  ["Aloe Vera", "Succulents"], ["Jade Plant", "Succulents"], ["Echeveria", "Succulents"], ["Haworthia", "Succulents"],
  ["Barrel Cactus", "Cacti"], ["Bunny Ear Cactus", "Cacti"], ["Moon Cactus", "Cacti"], ["Christmas Cactus", "Cacti"],
  ["Rose", "Flowering Plants"], ["Jasmine", "Flowering Plants"], ["Marigold", "Flowering Plants"], ["Hibiscus", "Flowering Plants"],
  ["Phalaenopsis Orchid", "Orchids"], ["Dendrobium Orchid", "Orchids"], ["Basil", "Herbs"], ["Rosemary", "Herbs"], ["Mint", "Herbs"],
  ["Bougainvillea", "Outdoor Plants"], ["Lavender", "Outdoor Plants"], ["Juniper Bonsai", "Bonsai"], ["Ficus Bonsai", "Bonsai"],
  ["Tillandsia", "Air Plants"], ["Venus Flytrap", "Carnivorous Plants"], ["Pitcher Plant", "Carnivorous Plants"],
  ["Money Plant", "Climbers"], ["Ivy", "Climbers"], ["Lemon Tree", "Fruit Trees"], ["Fountain Grass", "Grasses"],
];
const LIGHT = ["bright indirect light", "full sun", "partial shade", "low light", "a sunny windowsill"];
const WATER = ["water when the top soil is dry", "keep the soil evenly moist", "water sparingly", "mist the leaves often"];

/**
 * A care profile with a shop's spread (each part independent of the name, from a hash of the index): most plants
 * like medium or bright light, a third are safe for pets, half are for beginners, most live indoors; a few parts are
 * not known. The rarest combination the bench asks for (direct sun, pet safe, expert, indoor) is about 0.2 %.
 */
function syntheticCare(i: number) {
  let h = Math.imul(i + 1, 2654435761) >>> 0;
  const pick = <T>(weighted: [T, number][]) => {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    let roll = h % 100;
    for (const [value, weight] of weighted) if ((roll -= weight) < 0) return value;
    return weighted.at(-1)![0];
  };
  return {
    care_light: pick<"low" | "medium" | "bright-indirect" | "direct-sun" | null>([["low", 25], ["medium", 35], ["bright-indirect", 27], ["direct-sun", 8], [null, 5]]),
    care_pet_safe: pick<"yes" | "no" | null>([["yes", 35], ["no", 50], [null, 15]]),
    care_difficulty: pick<"beginner" | "intermediate" | "expert" | null>([["beginner", 50], ["intermediate", 35], ["expert", 10], [null, 5]]),
    care_place: pick<"indoor" | "outdoor" | "both" | null>([["indoor", 60], ["outdoor", 20], ["both", 15], [null, 5]]),
  };
}

/** Unique names: every combination of adjective, species, cultivar and pot appears at most once (≈ 183,000). */
function syntheticProduct(i: number) {
  let n = i;
  const pick = <T>(list: readonly T[]) => {
    const value = list[n % list.length]!;
    n = Math.floor(n / list.length);
    return value;
  };
  const [species, category] = pick(SPECIES);
  const adjective = pick(ADJECTIVES);
  const cultivar = pick(CULTIVARS);
  const pot = pick(POTS);
  return {
    name: `${adjective} ${species} '${cultivar}', ${pot}`,
    category,
    description: `A ${adjective.toLowerCase()} ${species.toLowerCase()} of the ${cultivar} line that likes ${LIGHT[i % LIGHT.length]}; ${WATER[i % WATER.length]}. Delivered in a ${pot}, ready to repot in spring.`,
    image: sampleProducts[i % sampleProducts.length]!.slug,
  };
}

export async function bulkLoad(db: Kysely<DB>, count: number) {
  const categoryIds = new Map((await db.selectFrom("categories").select(["id", "name"]).execute()).map((c) => [c.name, c.id]));
  const at = Date.parse("2026-01-01T00:00:00Z");
  for (const [, category] of SPECIES) {
    if (categoryIds.has(category)) continue;
    const id = `bench-cat-${categoryIds.size}`;
    await db
      .insertInto("categories")
      .values({ id, name: category, description: `All our ${category.toLowerCase()}.`, image_url: "/illustrations/categories/indoor-plants.svg", image_width: 600, image_height: 600, created_at: new Date(at).toISOString() })
      .execute();
    categoryIds.set(category, id);
  }
  for (let start = 0; start < count; start += BATCH * 20) {
    await db.transaction().execute(async (trx) => {
      for (let batch = start; batch < Math.min(count, start + BATCH * 20); batch += BATCH) {
        const products = [];
        const images = [];
        const variants = [];
        for (let i = batch; i < Math.min(count, batch + BATCH); i++) {
          const p = syntheticProduct(i);
          const id = `bench-${i}`;
          const when = new Date(at + i * 1000).toISOString();
          const price = 10_000 + (i % 90) * 1000;
          // 1 % on sale with no window, and as many again whose window has ended: /sale reads past those.
          const sale =
            i % ON_SALE_EVERY === 0
              ? { compare_at_paise: price + (i % 7) * 1000 + 1000 }
              : i % ENDED_EVERY === ON_SALE_EVERY / 2
                ? { compare_at_paise: price * 2, sale_ends_at: "2026-01-01T00:00:00.000Z" }
                : {};
          // Three sizes each (decision 048): the product's row summarises them (lowest price, highest, total stock).
          const sizes = [
            { label: 'Small · 4" pot', price_paise: price, stock: i % 50 },
            { label: 'Medium · 6" pot', price_paise: Math.round(price * 1.5), stock: i % 7 },
            { label: 'Large · 8" pot', price_paise: price * 2, stock: i % 3 },
          ];
          const stock = sizes.reduce((n, size) => n + size.stock, 0);
          products.push({ id, name: p.name, description: p.description, price_paise: price, max_price_paise: price * 2, ...sale, stock, category_id: categoryIds.get(p.category)!, created_at: when, updated_at: when, ...syntheticCare(i) });
          for (const [position, size] of sizes.entries()) {
            const compareAt = position === 0 && "compare_at_paise" in sale ? sale.compare_at_paise : null;
            variants.push({ id: `${id}-${position}`, product_id: id, position, sku: `BENCH-${i}-${position}`, ...size, compare_at_paise: compareAt, created_at: when, updated_at: when });
          }
          images.push({ id: `bench-img-${i}`, product_id: id, position: 0, url: `/illustrations/products/${p.image}-1.svg`, width: 800, height: 800 });
        }
        await trx.insertInto("products").values(products).execute();
        await trx.insertInto("product_variants").values(variants).execute();
        await trx.insertInto("product_images").values(images).execute();
      }
    });
  }
}

interface Latency {
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

async function measure(url: string): Promise<Latency> {
  return timeRepeatedly(async () => {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.ok;
  });
}

/** Warm-up, then SAMPLES timed calls one after another; `call` says whether the answer was a success. */
async function timeRepeatedly(call: () => Promise<boolean>): Promise<Latency> {
  const samples: number[] = [];
  let failures = 0;
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    const started = performance.now();
    const ok = await call();
    const took = performance.now() - started;
    if (!ok) failures++;
    if (i >= WARM_UP) samples.push(took);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99), failures };
}

/** The storefront pages and catalogue APIs measured (decision 026's table), named so both sizes line up. */
async function requestsFor(database: Database, size: number): Promise<[string, string][]> {
  const { db } = database;
  const biggest = await db
    .selectFrom("categories as c")
    .select("c.id")
    .where("c.name", "=", "Indoor Plants")
    .executeTakeFirstOrThrow();
  const middle = await db.selectFrom("products").select(["id", "created_at"]).orderBy("created_at").orderBy("id").offset(Math.floor(size / 2)).limit(1).executeTakeFirstOrThrow();
  const deep = await db.selectFrom("products").select(["id", "created_at"]).orderBy("created_at").orderBy("id").offset(Math.floor(size * 0.9)).limit(1).executeTakeFirstOrThrow();
  const lastSize = await db.selectFrom("product_variants").select("id").where("product_id", "=", middle.id).orderBy("position", "desc").limit(1).executeTakeFirstOrThrow();
  return [
    ["/", "/"],
    ["/shop", "/shop"],
    ["/shop?page=5", "/shop?page=5"],
    // The deepest page a list serves (SHOP_MAX_PAGES): its own twelve, as cheap as the first page's.
    ["/shop?page=100", "/shop?page=100"],
    ["category page", `/category/${biggest.id}`],
    ["product page", `/product/${middle.id}`],
    ["product page, its last size chosen", `/product/${middle.id}?variant=${lastSize.id}`],
    ["/api/products/{id} (with its sizes)", `/api/products/${middle.id}`],
    ["/api/products?limit=12", "/api/products?limit=12"],
    ["API deep page (after=cursor at 90%)", `/api/products?limit=12&after=${encodeCursor(deep)}`],
    // Deeper offsets are refused with a 400 pointing to `after` (decision 026, API_MAX_OFFSET): the deepest one served.
    ["API offset=1000 (deepest served)", `/api/products?limit=12&offset=${API_MAX_OFFSET}`],
    ["search common word 'fern'", "/api/products?limit=12&q=fern"],
    ["search common word 'plant'", "/api/products?limit=12&q=plant"],
    ["search typo 'snak plnt'", "/api/products?limit=12&q=snak%20plnt"],
    ["search typo 'bougainvilla'", "/api/products?limit=12&q=bougainvilla"],
    ["search no match 'xylophone'", "/api/products?limit=12&q=xylophone"],
    ["search two words 'red fern'", "/api/products?limit=12&q=red%20fern"],
    ["/shop?q=fern (page)", "/shop?q=fern"],
    ["/shop?q=plant (page)", "/shop?q=plant"],
    ["/shop?q=snak plnt (page)", "/shop?q=snak%20plnt"],
    ["/shop?q=bougainvilla (page)", "/shop?q=bougainvilla"],
    ["/shop?q=xylophone (page)", "/shop?q=xylophone"],
    ["/shop?q=red fern (page)", "/shop?q=red%20fern"],
    ["suggestions 'bougainvil'", "/api/products/suggestions?q=bougainvil"],
    ["suggestions 'fern'", "/api/products/suggestions?q=fern"],
    ["suggestions 'snak plnt'", "/api/products/suggestions?q=snak%20plnt"],
    ["suggestions 'xylophone'", "/api/products/suggestions?q=xylophone"],
    ["suggestions 'red fern'", "/api/products/suggestions?q=red%20fern"],
    ["/sitemap.xml (index)", "/sitemap.xml"],
    ["/sale (newest)", "/sale"],
    ["/sale?page=5", "/sale?page=5"],
    ["/sale?sort=saving", "/sale?sort=saving"],
    ["/sale?sort=price-asc", "/sale?sort=price-asc"],
    ["/api/categories (first page)", "/api/categories"],
    ...FILTERED.map((query): [string, string] => [`filter: /shop?${query}`, `/shop?${query}`]),
    [`filter: category page ?light=medium&sort=newest`, `/category/${biggest.id}?light=medium&sort=newest`],
    [`filter: category page ?${RARE}`, `/category/${biggest.id}?${RARE}`],
    ["filter: /sale?pets=safe", "/sale?pets=safe"],
    ["filter: /sale?light=low&sort=price-asc", "/sale?light=low&sort=price-asc"],
    ["filter: /api/products?light=low&pets=safe", "/api/products?limit=12&light=low&pets=safe"],
    ["filter: /api/products?sort=rating", "/api/products?limit=12&sort=rating"],
    [`filter: /api/products?${RARE}`, `/api/products?limit=12&${RARE}`],
    ["filter: /api/products?q=fern&pets=safe&sort=price-asc", "/api/products?limit=12&q=fern&pets=safe&sort=price-asc"],
  ];
}

/** The rarest combination asked for: about 0.2 % of the synthetic catalogue (syntheticCare). */
const RARE = "light=direct-sun&pets=safe&care=expert&place=indoor";
/** Filtered and ordered shop lists: typical choices, a rare one, a price range, deep pages, and searches. */
const FILTERED = [
  "light=low&pets=safe",
  "light=bright-indirect&sort=price-asc",
  "care=beginner&place=indoor&stock=1&sort=rating",
  // From one price mark to another (common/catalog/list-filters.ts): counted from whole bands.
  "min=300&max=500&sort=price-desc",
  // Ending between marks: the two bands it cuts are read for the counts they leave under the cap.
  "light=low&min=333&max=777",
  `${RARE}&min=300&max=500`,
  "sort=newest",
  RARE,
  `${RARE}&sort=price-asc`,
  "pets=safe&sort=price-asc&page=5",
  "light=low&care=expert&stock=1&page=5",
  "q=fern&pets=safe&sort=price-asc",
  "q=plant&light=low",
  `q=fern&${RARE}`,
];

/**
 * A search with filters, through the shop's list service in the bench process: the search, its matches filtered,
 * ordered and counted, and the page's twelve cards (its product rows), without HTTP and rendering.
 */
const SEARCH_FILTER_QUERIES = FILTERED.filter((query) => query.includes("q="));

/** The filtered lists' queries alone, in the bench process: a page of 12 and every option's count. */
const FILTER_QUERIES: [string, string][] = [
  ["none (the shop's order)", ""],
  ...FILTERED.filter((query) => !query.includes("q=") && !query.includes("page=")).map((query): [string, string] => [query, query]),
];

async function runSize(dialect: "sqlite" | "postgres", size: number, adminUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-scale-"));
  const pg = dialect === "postgres" ? await createPostgresDatabase(adminUrl!, "bench_scale") : undefined;
  const database = openDatabase(pg ? { databaseUrl: pg.url } : { sqliteFile: path.join(dataDir, "shop.db") });
  try {
    const loadStarted = performance.now();
    await migrateToLatest(database);
    await seedSampleData(database);
    if (size > sampleProducts.length) await bulkLoad(database.db, size - sampleProducts.length);
    // One sample plant on sale at every size, so /sale at 10 products renders a card too.
    const onSale = await database.db.selectFrom("products").select("id").where("name", "=", sampleProducts[0]!.name).executeTakeFirstOrThrow();
    await database.db.updateTable("products").set((eb) => ({ compare_at_paise: eb("price_paise", "*", 2) })).where("id", "=", onSale.id).execute();
    await database.db.updateTable("product_variants").set((eb) => ({ compare_at_paise: eb("price_paise", "*", 2) })).where("product_id", "=", onSale.id).execute();
    // What autovacuum does to a live database: statistics for the planner, GIN pending lists merged into the index
    // (a fresh bulk load leaves both undone, and a pending list is searched row by row).
    // What every server copy does within seconds of a write (docs/decisions/062): the load's cell count changes
    // folded into the settled counts.
    await foldCellCountChanges(database);
    if (pg) await sql`vacuum analyze`.execute(database.db);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const requests = (await requestsFor(database, size)).filter(([label]) => !ONLY || label.includes(ONLY));
    // The search itself, in this process on the loaded database: the server's time without HTTP and rendering.
    const search = createProductSearch(database.db);
    const searchTimes = new Map<string, Latency>();
    for (const q of ONLY ? [] : SEARCHES) searchTimes.set(q, await timeRepeatedly(async () => (await search.search(q, { limit: 13, offset: 0 }), true)));
    const filterTimes = new Map<string, Latency>();
    for (const [label, query] of !ONLY || "filter".includes(ONLY) ? FILTER_QUERIES : []) {
      const filters: ListFilters = query ? readListFilters(Object.fromEntries(new URLSearchParams(query))) : NO_FILTERS;
      filterTimes.set(
        label,
        await timeRepeatedly(async () => {
          // As the shop's page reads them: the options' counts with the list's, then the page.
          const { listCount } = await countFacetsWithList(database.db, {}, filters);
          await readFilteredPage(database.db, {}, filters, filters.sort ?? "oldest", { limit: 12, offset: 0, count: listCount });
          return true;
        }),
      );
    }
    // The search's rate limit is counted in the database: a limit far above these runs, so that each still pays for
    // its count as a shopper's search does.
    const catalog = createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db, { scale: 1_000_000, dialect: database.dialect }) });
    const searchFilterTimes = new Map<string, Latency>();
    for (const query of !ONLY || "filter".includes(ONLY) ? SEARCH_FILTER_QUERIES : []) {
      const input = Object.fromEntries(new URLSearchParams(query));
      searchFilterTimes.set(query, await timeRepeatedly(async () => ((await catalog.listShopPages(input, { clientIp: "127.0.0.1" })).items.length, true)));
    }
    const shop = startShopProcess({
      port: PORT,
      dataDir,
      ...(pg ? { databaseUrl: pg.url } : {}),
      env: { RATE_LIMIT_SCALE: "10000", PAGE_CACHE_SECONDS: "0" },
    });
    try {
      await waitUntilHealthy(shop);
      const results = new Map<string, Latency>();
      for (const [label, url] of requests) results.set(label, await measure(shop.url + url));
      return { results, searchTimes, filterTimes, searchFilterTimes, loadSeconds, labels: requests.map(([label]) => label) };
    } finally {
      await stopShopProcess(shop);
    }
  } finally {
    await database.destroy();
    await pg?.drop();
  }
}

const f = (v: number) => v.toFixed(1);
/** The queries alone take under a millisecond or two: a tenth would hide the ratio. */
const f2 = (v: number) => v.toFixed(2);

/**
 * The rows at `baseline` products (the sample catalogue's 10 unless `--baseline N`) and at `products`, with their
 * ratios. Against 10 products a row whose small list is empty (a search for a word no sample plant has, the rarest
 * combination) compares a page of twelve cards with a page of none; a baseline of thousands gives every row a full
 * page at both sizes, so its ratio is what a larger catalogue alone costs.
 */
export async function benchScale(products: number, baseline: number = sampleProducts.length) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const dialects: ("sqlite" | "postgres")[] = adminUrl ? ["sqlite", "postgres"] : ["sqlite"];
  if (!adminUrl) console.log("PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to an admin URL.");
  for (const dialect of dialects) {
    const small = await runSize(dialect, baseline, adminUrl);
    const large = await runSize(dialect, products, adminUrl);
    console.log(`\n${dialect}: ${SAMPLES} sequential requests per row after ${WARM_UP} warm-up, page cache off; loaded ${products} products in ${f(large.loadSeconds)} s`);
    console.log(`| request | ${baseline} products p50/p95/p99 ms | ${products} products p50/p95/p99 ms | ratio p50 | ratio p95 |`);
    console.log("|---|---|---|---|---|");
    for (const label of small.labels) {
      const a = small.results.get(label)!;
      const b = large.results.get(label)!;
      const failures = a.failures + b.failures ? ` (${a.failures + b.failures} non-2xx)` : "";
      console.log(`| ${label}${failures} | ${f(a.p50)} / ${f(a.p95)} / ${f(a.p99)} | ${f(b.p50)} / ${f(b.p95)} / ${f(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${(b.p95 / a.p95).toFixed(2)} |`);
    }
    console.log(`\n${dialect}: the search query alone (createProductSearch, in the bench process, ${SAMPLES} runs)`);
    console.log(`| search | ${baseline} products p50/p95/p99 ms | ${products} products p50/p95/p99 ms | ratio p50 | ratio p95 |`);
    console.log("|---|---|---|---|---|");
    for (const q of ONLY ? [] : SEARCHES) {
      const a = small.searchTimes.get(q)!;
      const b = large.searchTimes.get(q)!;
      console.log(`| '${q}' | ${f(a.p50)} / ${f(a.p95)} / ${f(a.p99)} | ${f(b.p50)} / ${f(b.p95)} / ${f(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${(b.p95 / a.p95).toFixed(2)} |`);
    }
    console.log(`\n${dialect}: a filtered list's queries alone (a page of 12 and every option's count, in the bench process, ${SAMPLES} runs)`);
    console.log(`| filters | ${baseline} products p50/p95/p99 ms | ${products} products p50/p95/p99 ms | ratio p50 | ratio p95 |`);
    console.log("|---|---|---|---|---|");
    for (const [label] of small.filterTimes) {
      const a = small.filterTimes.get(label)!;
      const b = large.filterTimes.get(label)!;
      console.log(`| ${label} | ${f2(a.p50)} / ${f2(a.p95)} / ${f2(a.p99)} | ${f2(b.p50)} / ${f2(b.p95)} / ${f2(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${(b.p95 / a.p95).toFixed(2)} |`);
    }
    console.log(`\n${dialect}: a search with filters through the list service (search, filters, counts and the page's cards, in the bench process, ${SAMPLES} runs)`);
    console.log(`| request | ${baseline} products p50/p95/p99 ms | ${products} products p50/p95/p99 ms | ratio p50 | ratio p95 |`);
    console.log("|---|---|---|---|---|");
    for (const [query] of small.searchFilterTimes) {
      const a = small.searchFilterTimes.get(query)!;
      const b = large.searchFilterTimes.get(query)!;
      console.log(`| /shop?${query} | ${f2(a.p50)} / ${f2(a.p95)} / ${f2(a.p99)} | ${f2(b.p50)} / ${f2(b.p95)} / ${f2(b.p99)} | ${(b.p50 / a.p50).toFixed(2)} | ${(b.p95 / a.p95).toFixed(2)} |`);
    }
  }
}
