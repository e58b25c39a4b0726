import { readFileSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "../../app/routes.ts";
import { OPEN_AUTH_PATHS } from "../../server/modules/accounts/index.ts";
import { signUpVerified } from "../support/accounts.ts";
import { createProduct } from "../support/factories.ts";
import { loadPages } from "../support/page-build.ts";
import { startSmtpCapture, type SmtpCapture } from "../support/smtp-capture.ts";
import { createTestApp, postJson, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// Every JSON endpoint and every page action, driven with arbitrary input, answers below 500 and never
// with a stack trace. Requests go in batches of BATCH at once; BATCHES × BATCH requests per database.
const BATCH = 8;
const BATCHES = 1_300;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now());

type Who = "nobody" | "shopper" | "admin";
interface Probe {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData | Uint8Array<ArrayBuffer>;
  who: Who;
}

// ---------------------------------------------------------------------------------------------------------
// Values: arbitrary text with control characters, unicode and long strings; wrong types; known troublemakers.

const TROUBLE = [
  "\u0000", "a\u0000b", "x\u0001y", "\u0007", "\u001b[31m", "\u007f", "\u0085", "\u009b", "\t", "line\nbreak", "\r\n", "\u2028",
  "\uD800", "\uDFFF", "😀🌵", "ü@x.com", "a@b.c", "a..b@x.com", "asha@example.com", "ADMIN@EXAMPLE.COM", " ", "", "%00", "%",
  "%ZZ", "%C0%80", "../../etc/passwd", "'; drop table users; --", "\\", "<script>alert(1)</script>", "null", "NaN", "-1", "0",
  "1e309", "99999999999999999999", "__proto__", "constructor", "true", "on", "javascript:alert(1)", "//evil.example", "\uFEFF",
  "\u202Eevil", "x".repeat(101), "pending", "shipped", "cancelled",
];
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 30 }) },
  { weight: 4, arbitrary: fc.constantFrom(...TROUBLE) },
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...TROUBLE)).map(([around, bad]) => around + bad + around) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 70_000 }).map((length) => "ẍ".repeat(length)) },
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(text, text, { maxKeys: 3 }) },
);

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, "\uFFFD")); // a lone surrogate cannot be encoded
  }
}
/** Query strings: well-encoded arbitrary text, or raw bytes of a broken encoding. */
const queryValue = fc.oneof({ weight: 4, arbitrary: text.map(encode) }, { weight: 1, arbitrary: fc.constantFrom("%00", "%", "%ZZ", "%C0%80", "%FF%FE", "a%00b", "%0A") });
const queryString = (names: string[]) =>
  fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names, "x"), text.map(encode)), queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));

// ---------------------------------------------------------------------------------------------------------
// Bodies: JSON from the endpoint's fields, malformed JSON, forms (urlencoded, multipart with files), garbage.

const record = (fields: string[]) =>
  fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: text }), anyValue), { maxLength: fields.length + 2 }).map((pairs) => {
    const body: Record<string, unknown> = {};
    for (const [key, value] of pairs) Object.defineProperty(body, key, { value, enumerable: true, configurable: true, writable: true });
    return body;
  });
const MALFORMED_JSON = ['{"email":', "[", "nul", '{"a":1}}', "\u0000", '{"email":"\\u0000"}', '"just a string"', "1e99999", '{"__proto__":{"isAdmin":true}}', "{".repeat(5_000)];
const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const NESTED_USE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs><g id="l0"><rect width="1000" height="1000"/></g>${[1, 2, 3, 4, 5]
  .map((level) => `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`)
  .join("")}</defs><use href="#l5"/></svg>`;
const fileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.constantFrom(new Uint8Array(PNG_1X1), new TextEncoder().encode(NESTED_USE_SVG), new TextEncoder().encode("<svg>\u0000</svg>")),
);

function jsonBody(fields: string[]) {
  return fc.oneof(
    { weight: 6, arbitrary: record(fields).map((body) => ({ contentType: "application/json", body: JSON.stringify(body) })) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ contentType: "application/json", body: JSON.stringify(value) ?? "null" })) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((body) => ({ contentType: "application/json", body })) },
    { weight: 1, arbitrary: text.map((body) => ({ contentType: "text/plain", body })) },
    { weight: 1, arbitrary: record(fields).map((body) => ({ contentType: "application/x-www-form-urlencoded", body: formText(body) })) },
  );
}

function formText(body: Record<string, unknown>): string {
  return Object.entries(body)
    .map(([key, value]) => `${encode(key)}=${encode(typeof value === "string" ? value : JSON.stringify(value) ?? "")}`)
    .join("&");
}

function formBody(fields: string[]) {
  const pairs = fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields) }, { weight: 1, arbitrary: text }), text), { maxLength: fields.length + 2 });
  return fc.oneof(
    { weight: 5, arbitrary: pairs.map((entries) => ({ contentType: "application/x-www-form-urlencoded", body: entries.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&") })) },
    {
      weight: 3,
      arbitrary: fc.tuple(pairs, fc.option(fc.tuple(fc.constantFrom("image", ...fields), fileBytes, text))).map(([entries, file]) => {
        const form = new FormData();
        for (const [k, v] of entries) form.append(k, v);
        if (file) form.append(file[0], new File([file[1] as Uint8Array<ArrayBuffer>], file[2] || "x.png", { type: "image/png" }));
        return { contentType: undefined, body: form };
      }),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("multipart/form-data", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json"), text).map(([contentType, body]) => ({ contentType, body })) },
    { weight: 1, arbitrary: fc.constant({ contentType: undefined, body: undefined }) },
  );
}

// ---------------------------------------------------------------------------------------------------------
// What is driven: the OpenAPI document's operations (each answer checked against it too), Better Auth's endpoints, and every page's loader and action.

interface Ids {
  productId: string;
  categoryId: string;
  orderId: string;
  itemId: string;
  shopperId: string;
}

interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

const AUTH_FIELDS = ["email", "password", "name", "username", "token", "newPassword", "currentPassword", "callbackURL", "redirectTo", "revokeOtherSessions", "rememberMe", "image"];
/** Requests that would end the fuzzing session: sent by nobody. */
const ENDS_SESSION = /sign-out|revoke|change-password|logout/;

/**
 * The fields each page's action reads, where its own module does not name them all (its form sits in a
 * component): a hint for the fuzzer, not the list of pages — that comes from app/routes.ts below.
 */
const ACTION_FIELDS: Record<string, string[]> = {
  "/": ["name", "email", "subject", "message", "intent"],
  "/product/{productId}": ["productId", "quantity", "intent", "text", "rating", "reviewId"],
  "/login": ["email", "password", "redirectTo"],
  "/register": ["name", "username", "email", "password"],
  "/verify": ["email", "token", "intent"],
  "/logout": [],
  "/forgot-password": ["email"],
  "/reset-password": ["token", "password"],
  "/profile/{userId}": ["intent", "name", "username", "phone", "address", "location", "currentPassword", "newPassword", "image"],
  "/add-product": ["name", "description", "price", "stock", "category", "categoryImage", "categoryDescription", "images"],
  "/product/{productId}/edit": ["name", "description", "price", "stock", "category", "categoryImage", "categoryDescription", "images"],
  "/admin/products": ["intent", "productId", "stock"],
  "/admin/categories": ["intent", "categoryId", "name", "image"],
  "/admin/messages": ["id", "handled"],
  "/cart": ["intent", "itemId", "quantity", "code"],
  "/checkout": ["name", "phone", "address", "saveToProfile", "gift", "giftName", "giftPhone", "giftMessage", "giftHidePrices", "idempotencyKey", "cartFingerprint", "intent", "code"],
  "/admin/coupons": ["intent", "id", "code", "kind", "value", "minSubtotal", "startsAt", "endsAt", "maxUses", "oncePerCustomer", "categoryIds"],
  "/orders/{orderId}": ["confirm"],
  "/admin/orders/{orderId}": ["status"],
};

/**
 * Every page of app/routes.ts as [path pattern, fields of its action (null: the module has no action)]: a new
 * page is fuzzed without anyone adding it here. Dynamic segments become `{name}` (filled by pathWith with a real
 * id or a placeholder); the catch-all becomes a path no page has.
 */
function pagesOf(routes: RouteConfigEntry[], parent = ""): Array<[string, string[] | null]> {
  return routes.flatMap((entry) => {
    const own = entry.index ? "" : (entry.path ?? "");
    const joined = `${parent}/${own === "*" ? "no-such-page" : own}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
    const pattern = joined.replace(/:(\w+)/g, "{$1}");
    const source = readFileSync(path.join(APP_DIR, entry.file), "utf8");
    const hasAction = /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b/.test(source);
    const named = [...source.matchAll(/name="(\w+)"|\.get\("(\w+)"\)/g)].map((m) => m[1] ?? m[2]!);
    const fields = hasAction ? (ACTION_FIELDS[pattern] ?? [...new Set(["intent", ...named])]) : null;
    const page: Array<[string, string[] | null]> = entry.path === undefined && !entry.index ? [] : [[pattern, fields]];
    return [...page, ...pagesOf(entry.children ?? [], joined)];
  });
}
const APP_DIR = path.resolve(import.meta.dirname, "../../app");
const PAGES = pagesOf(routes);
const PAGE_QUERY = ["q", "page", "token", "redirectTo", "status", "edit", "index", "_data", "reviewsAfter"];

function pathWith(pattern: string, ids: Ids) {
  const real: Record<string, string> = { productId: ids.productId, categoryId: ids.categoryId, orderId: ids.orderId, itemId: ids.itemId, userId: ids.shopperId };
  const names = [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return fc.tuple(...names.map((name) => fc.oneof({ weight: 2, arbitrary: fc.constant(real[name] ?? "x") }, { weight: 1, arbitrary: fc.oneof(text.map(encode), queryValue) }))).map((values) => {
    let at = 0;
    return pattern.replace(/\{(\w+)\}/g, () => values[at++] ?? "x");
  });
}

/** Who sends a request. Half go without a session: its lookup goes through Better Auth and costs ~10 ms here. */
const who = fc.constantFrom<Who>("nobody", "nobody", "nobody", "shopper", "shopper", "admin");
/**
 * Most page requests go to React Router's data URL (`/login.data`), as its scripts send them: the same loaders
 * and actions without rendering HTML, which costs ten times as much; one in eight is a plain HTML request.
 */
const dataRequest = fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

function probes(ids: Ids, document: { paths: Record<string, Record<string, OpenApiOperation>> }): fc.Arbitrary<Probe> {
  const api: Array<fc.Arbitrary<Probe>> = [];
  const auth: Array<fc.Arbitrary<Probe>> = [];
  for (const [pattern, operations] of Object.entries(document.paths)) {
    const patterns = pattern === "/auth/{endpoint}" ? OPEN_AUTH_PATHS.map((p) => `/auth${p.replace(/:(\w+)/, "{$1}")}`) : [pattern];
    for (const concrete of patterns) {
      for (const [method, operation] of Object.entries(operations)) {
        // The auth entry is documented for GET and POST; each of its probes tries both already.
        if (concrete.startsWith("/auth") && method !== "post") continue;
        const query = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
        const fields = concrete.startsWith("/auth") ? AUTH_FIELDS : Object.keys(operation.requestBody?.content?.["application/json"]?.schema?.properties ?? { image: 1 });
        const methods = concrete.startsWith("/auth") ? ["POST", "GET"] : [method.toUpperCase()];
        (concrete.startsWith("/auth") ? auth : api).push(
          fc.record({ path: pathWith(concrete, ids), query: queryString(query.length ? query : ["q"]), method: fc.constantFrom(...methods), body: jsonBody(fields), who }).map(({ path, query, method, body, who: as }): Probe => ({
            method,
            path: `/api${path}${query}`,
            headers: { "Content-Type": body.contentType },
            ...(method === "GET" || method === "HEAD" ? {} : { body: body.body }),
            who: ENDS_SESSION.test(path) ? "nobody" : as,
          })),
        );
      }
    }
  }
  api.push(fc.record({ body: formBody(["image"]), who }).map(({ body, who: as }): Probe => ({ method: "POST", path: `/api/profiles/${ids.shopperId}/picture`, headers: body.contentType ? { "Content-Type": body.contentType } : {}, ...(body.body === undefined ? {} : { body: body.body }), who: as })));

  const pages = PAGES.flatMap(([pattern, fields]) => {
    const loader = fc.record({ path: pathWith(pattern, ids), query: queryString(PAGE_QUERY), who, data: dataRequest }).map(({ path, query, who: as, data }): Probe => ({
      method: "GET",
      path: `${data ? `${path === "/" ? "/_root" : path}.data` : path}${query}`,
      headers: {},
      who: as,
    }));
    if (!fields) return [loader];
    const action = fc.record({ path: pathWith(pattern, ids), query: queryString(PAGE_QUERY), who, data: dataRequest, body: formBody(fields.length ? fields : ["x"]) }).map(({ path, query, who: as, data, body }): Probe => ({
      method: "POST",
      path: `${data ? `${path === "/" ? "/_root" : path}.data` : path}${query}`,
      headers: body.contentType ? { "Content-Type": body.contentType } : {},
      ...(body.body === undefined ? {} : { body: body.body }),
      who: ENDS_SESSION.test(pattern) ? "nobody" : as,
    }));
    return [loader, action, action];
  });
  // Weighed by cost: a call into Better Auth takes 8-18 ms in-process, a page 15 ms (60 ms as HTML), any
  // other JSON call 1-5 ms; so the run stays near a minute per database yet reaches every operation often.
  return fc.oneof({ weight: 65, arbitrary: fc.oneof(...api) }, { weight: 10, arbitrary: fc.oneof(...auth) }, { weight: 25, arbitrary: fc.oneof(...pages) });
}

// ---------------------------------------------------------------------------------------------------------

const STACK_TRACE = /^\s+at .+:\d+:\d+\)?$|\.tsx?:\d+:\d+/m;

let capture: SmtpCapture;
let app: TestApp;
let pages: Awaited<ReturnType<typeof loadPages>>;

beforeAll(async () => {
  capture = await startSmtpCapture();
  pages = await loadPages(TEST_ORIGIN);
  app = await createTestApp({ SMTP_URL: capture.url }, { handler: pages.handler, personalParts: pages.personalParts });
}, 120_000);

afterAll(async () => {
  await app?.cleanup();
  await pages?.close();
  await capture?.close();
});

describe("fuzzing every JSON endpoint and every page action", () => {
  it("drives every page of app/routes.ts, the admin overview and its inbox among them", () => {
    const patterns = PAGES.map(([pattern]) => pattern);
    expect(patterns).toEqual(expect.arrayContaining(["/", "/admin", "/admin/messages", "/product/{productId}/edit", "/admin/orders/{orderId}", "/no-such-page"]));
    expect(patterns.length).toBeGreaterThanOrEqual(routes.length);
    // A hint for a page that is gone would hide a renamed page's fields: each names a page that exists.
    expect(Object.keys(ACTION_FIELDS).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
    expect(PAGES.find(([pattern]) => pattern === "/admin/messages")?.[1]).toEqual(["id", "handled"]);
    expect(PAGES.find(([pattern]) => pattern === "/admin")?.[1]).toBeNull();
  });

  it(`answers ${BATCH * BATCHES} arbitrary requests without a 5xx or a stack trace`, async () => {
    const shopper = await signUpVerified(app, capture);
    const admin = await signUpVerified(app, capture);
    await app.services.accounts.setAdmin(admin.person.email, true);
    const product = await createProduct(app.database.db, { stock: 1_000 });
    const cart = await (await app.request("/api/cart/items", postJson({ productId: product.id, quantity: 2 }, { Cookie: shopper.cookie }))).json();
    const order = await (
      await app.request("/api/orders", postJson({ name: "Asha", phone: "+91 98765 43210", address: "12 MG Road", idempotencyKey: "fuzz-order-1" }, { Cookie: shopper.cookie }))
    ).json();
    await app.request("/api/cart/items", postJson({ productId: product.id, quantity: 1 }, { Cookie: shopper.cookie }));
    const ids: Ids = { productId: product.id, categoryId: product.category_id, orderId: order.id ?? "x", itemId: cart.lines?.[0]?.id ?? "x", shopperId: shopper.userId };
    const cookies: Record<Who, string | undefined> = { nobody: undefined, shopper: shopper.cookie, admin: admin.cookie };

    // The operations come from the document the server serves; every answer is also checked against it (test-app.ts).
    const document = await (await app.request("/api/openapi.json")).json();

    let sent = 0;
    const serverErrors: string[] = [];
    const stackTraces: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(probes(ids, document), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        await Promise.all(
          batch.map(async (probe) => {
            const cookie = cookies[probe.who];
            const headers = { Origin: TEST_ORIGIN, ...probe.headers, ...(cookie ? { Cookie: cookie } : {}) };
            const response = await app.request(probe.path, { method: probe.method, headers, ...(probe.body === undefined ? {} : { body: probe.body }) });
            // An event stream (a live product page's) never ends by itself: its status and headers are the answer.
            const streaming = response.headers.get("content-type")?.startsWith("text/event-stream");
            const body = streaming ? (await response.body?.cancel(), "") : await response.text();
            sent++;
            const what = `${probe.method} ${probe.path.slice(0, 200)} as ${probe.who} → ${response.status}: ${body.slice(0, 300)}`;
            if (response.status >= 500) serverErrors.push(what);
            if (STACK_TRACE.test(body)) stackTraces.push(what);
          }),
        );
      }),
      { numRuns: BATCHES, seed: SEED, endOnFailure: true },
    );

    // Printed for the record (how many requests were sent on each database); FUZZ_SEED=<seed> replays a run.
    console.info(`fuzz (${process.env.TEST_DB}): ${sent} requests, ${serverErrors.length} answered 5xx, ${stackTraces.length} with a stack trace; seed ${SEED}`);
    expect(sent).toBe(BATCH * BATCHES);
    expect(serverErrors, `5xx answers (seed ${SEED})`).toEqual([]);
    expect(stackTraces, `stack traces (seed ${SEED})`).toEqual([]);
  }, 900_000);
});
