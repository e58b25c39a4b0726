import http from "node:http";
import { describe, expect, it } from "vitest";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertShoppers, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { postJson } from "../support/test-app.ts";

// Answers rendered for a signed-in person must never be kept by a shared cache (a proxy, a CDN) or by the browser
// (back/forward on a shared computer after logout); anonymous answers stay publicly cacheable with their ETag, and
// say that they vary on Cookie, so that a shared cache never hands one to a signed-in request (decision 027).

const PASSWORD = "monstera-deliciosa-77";
const PRIVATE = "private, no-store";

// A known secret, so that a test can sign in people it wrote into the database (insertSessions).
const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, PAGE_CACHE_SECONDS: "60" });

async function shopper() {
  const [person] = await insertShoppers(shop.app.database.db, 1, { password: PASSWORD, prefix: "private", dialect: shop.app.database.dialect });
  const { email } = await shop.app.database.db.selectFrom("users").select("email").where("id", "=", person!.userId).executeTakeFirstOrThrow();
  return { ...person!, email };
}

const varyNames = (response: Response | http.IncomingMessage) => {
  const vary = response instanceof Response ? response.headers.get("vary") : response.headers.vary;
  return (vary ?? "").split(",").map((name) => name.trim().toLowerCase());
};

/** A GET over loopback through the real listener (front cache first), with the headers as node received them. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ res: http.IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ res, body }));
      })
      .on("error", reject);
  });
}

describe("answers for a signed-in person", () => {
  it("GET /api/me and /api/profiles/<own id> answer Cache-Control: private, no-store and Vary: Cookie", async () => {
    const asha = await shopper();
    for (const path of ["/api/me", `/api/profiles/${asha.userId}`]) {
      const response = await shop.app.request(path, { headers: { Cookie: asha.cookie } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBe(PRIVATE);
      expect(varyNames(response), path).toContain("cookie");
    }
    // What makes them private: the owner's profile carries the e-mail.
    expect(await (await shop.app.request(`/api/profiles/${asha.userId}`, { headers: { Cookie: asha.cookie } })).json()).toMatchObject({ email: asha.email });
  });

  it("the owner's profile page and its page data answer Cache-Control: private, no-store, though the anonymous page at that URL is cached", async () => {
    const asha = await shopper();
    const path = `/profile/${asha.userId}`;
    await shop.app.request(path);
    expect((await shop.app.request(path)).headers.get("x-page-cache")).toBe("hit");
    for (const url of [path, `${path}.data`]) {
      const response = await shop.app.request(url, { headers: { Cookie: asha.cookie } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get("x-page-cache"), url).toBeNull();
      expect(response.headers.get("cache-control"), url).toBe(PRIVATE);
      expect(response.headers.get("etag"), url).toBeNull();
      expect(varyNames(response), url).toContain("cookie");
    }
    expect(await (await shop.app.request(`${path}.data`, { headers: { Cookie: asha.cookie } })).text()).toContain(asha.email);
  });

  it("a page that is cached for anonymous visitors (/shop) answers a signed-in person with Cache-Control: private, no-store", async () => {
    const asha = await shopper();
    await shop.app.request("/shop");
    const response = await shop.app.request("/shop", { headers: { Cookie: asha.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-page-cache")).toBeNull();
    expect(response.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("the catalogue's JSON, cached for anonymous callers, answers a signed-in person with Cache-Control: private, no-store", async () => {
    const asha = await shopper();
    await shop.app.request("/api/categories");
    const response = await shop.app.request("/api/categories", { headers: { Cookie: asha.cookie } });
    expect(response.headers.get("x-api-cache")).toBeNull();
    expect(response.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("an error answered to a signed-in person (an API 404) is Cache-Control: private, no-store too", async () => {
    const asha = await shopper();
    const response = await shop.app.request("/api/profiles/nobody-has-this-id", { headers: { Cookie: asha.cookie } });
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("the shop's illustrations keep their public lifetime for a signed-in person (/avatars/initials.svg)", async () => {
    const asha = await shopper();
    const response = await shop.app.request("/avatars/initials.svg?name=Asha", { headers: { Cookie: asha.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(varyNames(response)).not.toContain("cookie");
  });
});

describe("/api/auth", () => {
  it("answers a sign-in, which sets the session cookie to a request without one, with Cache-Control: private, no-store", async () => {
    const asha = await shopper();
    const response = await shop.app.request("/api/auth/sign-in/email", postJson({ email: asha.email, password: PASSWORD }));
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("plant-shop.session_token="))).toBe(true);
    expect(response.headers.get("cache-control")).toBe(PRIVATE);
  });

  it("answers Cache-Control: no-store without a session too (GET /api/auth/ok, /api/auth/get-session)", async () => {
    for (const path of ["/api/auth/ok", "/api/auth/get-session"]) {
      const response = await shop.app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control") ?? "(none)", path).toMatch(/(?:^|,)\s*no-store\s*(?:,|$)/);
    }
  });
});

describe("anonymous answers", () => {
  it("a cached anonymous page keeps its public policy (no Cache-Control, a weak ETag, 304 on If-None-Match) and says Vary: Cookie, Accept-Encoding", async () => {
    const asha = await shopper();
    const path = `/profile/${asha.userId}`;
    const first = await shop.app.request(path, { headers: { "Accept-Encoding": "br" } });
    const replay = await shop.app.request(path, { headers: { "Accept-Encoding": "br" } });
    expect(replay.headers.get("x-page-cache")).toBe("hit");
    for (const response of [first, replay]) {
      expect(response.headers.get("cache-control")).toBeNull();
      expect(response.headers.get("etag")).toMatch(/^W\/"/);
      expect(varyNames(response)).toEqual(expect.arrayContaining(["cookie", "accept-encoding"]));
    }
    expect(await replay.text()).not.toContain(asha.email);
    const notModified = await shop.app.request(path, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(notModified.status).toBe(304);
    expect(varyNames(notModified)).toContain("cookie");
  });

  it("the catalogue's cached anonymous JSON keeps no Cache-Control and its ETag, and says Vary: Cookie", async () => {
    await shop.app.request("/api/categories");
    const replay = await shop.app.request("/api/categories");
    expect(replay.headers.get("x-api-cache")).toBe("hit");
    expect(replay.headers.get("cache-control")).toBeNull();
    expect(replay.headers.get("etag")).toMatch(/^W\/"/);
    expect(varyNames(replay)).toContain("cookie");
  });
});

describe("the front cache (before Hono)", () => {
  it("replays an anonymous page with Vary: Cookie and its ETag, and never answers a signed-in request for that URL, which gets private, no-store", async () => {
    const asha = await shopper();
    const base = await shop.app.listen();
    const url = `${base}/profile/${asha.userId}`;
    await get(url);
    await get(url);
    const hit = await get(url);
    expect(hit.res.headers["x-page-cache"]).toBe("hit");
    expect(hit.res.headers["cache-control"]).toBeUndefined();
    expect(hit.res.headers.etag).toMatch(/^W\/"/);
    expect(varyNames(hit.res)).toContain("cookie");

    const own = await get(url, { Cookie: asha.cookie });
    expect(own.res.statusCode).toBe(200);
    expect(own.res.headers["x-page-cache"]).toBeUndefined();
    expect(own.res.headers["cache-control"]).toBe(PRIVATE);
    expect(own.res.headers.etag).toBeUndefined();
  });
});
