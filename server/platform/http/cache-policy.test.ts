import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { cachePolicy } from "./cache-policy.ts";
import type { PlatformEnv } from "./http-env.ts";

const SESSION = "plant-shop.session_token=token.signature";

/** Routes that choose their own Cache-Control (or none), behind the policy. */
function appWithPolicy() {
  const app = new Hono<PlatformEnv>();
  app.use(cachePolicy({ neverStored: (path) => path.startsWith("/auth/") }));
  app.get("/page", (c) => c.html("<p>hello</p>"));
  app.get("/revalidated", (c) => c.html("<p>hello</p>", 200, { "Cache-Control": "no-cache" }));
  app.get("/asset", (c) => c.body("x", 200, { "Cache-Control": "public, max-age=31536000, immutable" }));
  app.get("/asset-with-cookie", (c) => c.body("x", 200, { "Cache-Control": "public, max-age=60", "Set-Cookie": "a=b" }));
  app.get("/stream", (c) => c.body("x", 200, { "Cache-Control": "no-store" }));
  app.get("/moved", () => Response.redirect("http://localhost/page", 302));
  app.get("/auth/ok", (c) => c.json({ ok: true }, 200, { "Cache-Control": "public, max-age=60" }));
  return app;
}

const policyOf = async (path: string, headers: Record<string, string> = {}) => {
  const response = await appWithPolicy().request(path, { headers });
  return { cacheControl: response.headers.get("cache-control"), vary: response.headers.get("vary"), status: response.status };
};

describe("the cache policy", () => {
  it("makes a session's answer private, no-store even where its route chose a weaker policy (no-cache), and leaves the anonymous one's", async () => {
    expect(await policyOf("/revalidated", { Cookie: SESSION })).toMatchObject({ cacheControl: "private, no-store", vary: "Cookie" });
    expect(await policyOf("/revalidated")).toMatchObject({ cacheControl: "no-cache", vary: null });
  });

  it("makes the answer private, no-store for any Cookie (the session's or another, like /verify's pending address) or an Authorization header; without them it only adds Vary: Cookie", async () => {
    expect((await policyOf("/page", { Cookie: `theme=dark; ${SESSION}` })).cacheControl).toBe("private, no-store");
    expect((await policyOf("/page", { Cookie: "plant-shop.pending-email=sealed" })).cacheControl).toBe("private, no-store");
    expect((await policyOf("/page", { Authorization: "Bearer x" })).cacheControl).toBe("private, no-store");
    expect(await policyOf("/page")).toMatchObject({ cacheControl: null, vary: "Cookie" });
  });

  it("keeps a public policy for a session (the same bytes for everyone), unless the answer sets a cookie", async () => {
    expect(await policyOf("/asset", { Cookie: SESSION })).toMatchObject({ cacheControl: "public, max-age=31536000, immutable", vary: null });
    expect((await policyOf("/asset-with-cookie")).cacheControl).toBe("private, no-store");
  });

  it("keeps no-store as it is, and makes every answer under the never-stored paths private, no-store whoever asks", async () => {
    expect((await policyOf("/stream", { Cookie: SESSION })).cacheControl).toBe("no-store");
    expect((await policyOf("/auth/ok")).cacheControl).toBe("private, no-store");
  });

  it("sets the policy on an answer whose headers are immutable (Response.redirect) instead of failing it", async () => {
    expect(await policyOf("/moved", { Cookie: SESSION })).toMatchObject({ status: 302, cacheControl: "private, no-store", vary: "Cookie" });
  });
});
