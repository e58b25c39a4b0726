import { afterEach, describe, expect, it } from "vitest";
import type { PageHandler } from "../../server/pages.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "../support/test-app.ts";

// X-Forwarded-Proto and X-Forwarded-Host (decision 011): believed only with TRUST_PROXY, and never able to
// move the shop's own origin check away from PUBLIC_URL.

let app: TestApp | undefined;
afterEach(async () => {
  await app?.cleanup();
  app = undefined;
});

// Stands in for React Router: answers the request URL it was handed, which is what its own Origin check reads.
const echoUrl: PageHandler = async (c) => new Response(c.req.raw.url);

const SHOP = "https://shop.example";
const ADMIN = { email: "owner@shop.example", password: "owner-password-behind-tls-7" };
const viaProxy = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "shop.example", "X-Forwarded-For": "198.51.100.7" };
const message = { name: "Ravi", email: "ravi@example.com", subject: "Hello", message: "Do you deliver to Pune?" };
const jsonPost = (body: unknown, headers: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("without TRUST_PROXY", () => {
  it("ignores X-Forwarded-Proto and X-Forwarded-Host: pages see the connection's own URL", async () => {
    app = await createTestApp({}, { handler: echoUrl });
    const response = await app.request("http://127.0.0.1:4999/cart?x=1", { headers: viaProxy });
    expect(await response.text()).toBe("http://127.0.0.1:4999/cart?x=1");
  });

  it("refuses a form and a JSON post whose Origin matches a spoofed Host or X-Forwarded-Host but not PUBLIC_URL", async () => {
    app = await createTestApp({}, { handler: echoUrl });
    // The server builds the request URL from the Host header, so a spoofed Host gives this URL.
    const spoofedHost = await app.request("http://evil.example/login", { method: "POST", headers: { Origin: "http://evil.example" }, body: new URLSearchParams({ a: "b" }) });
    expect(spoofedHost.status).toBe(403);
    const spoofedForward = await app.request("/api/contact", jsonPost(message, { Origin: "https://evil.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example" }));
    expect(spoofedForward.status).toBe(403);
    // The same post from the shop's own origin goes through.
    expect((await app.request("/api/contact", jsonPost(message, { Origin: TEST_ORIGIN, "X-Forwarded-Host": "evil.example" }))).status).toBe(201);
  });
});

describe("with TRUST_PROXY=1 behind a TLS-terminating proxy", () => {
  const env = { TRUST_PROXY: "1", PUBLIC_URL: SHOP, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

  it("hands pages the browser's https URL, path and query kept", async () => {
    app = await createTestApp(env, { handler: echoUrl });
    const response = await app.request("http://127.0.0.1:4420/product/abc?tab=care", { headers: viaProxy });
    expect(await response.text()).toBe("https://shop.example/product/abc?tab=care");
  });

  it("keeps the connection's scheme and host when the proxy sends neither header", async () => {
    app = await createTestApp(env, { handler: echoUrl });
    expect(await (await app.request("http://127.0.0.1:4420/shop")).text()).toBe("http://127.0.0.1:4420/shop");
  });

  it("accepts a JSON post from the https origin, its body intact over a real connection", async () => {
    app = await createTestApp(env);
    const direct = await app.listen();
    const response = await fetch(`${direct}/api/contact`, jsonPost(message, { ...viaProxy, Origin: SHOP }));
    expect(response.status, await response.clone().text()).toBe(201);
    const stored = await app.database.db.selectFrom("contact_messages").select(["subject", "client_ip"]).execute();
    expect(stored).toEqual([{ subject: "Hello", client_ip: "198.51.100.7" }]);
  });

  it("still refuses an Origin that only a forged X-Forwarded-Host agrees with: the origin check is PUBLIC_URL's", async () => {
    app = await createTestApp(env, { handler: echoUrl });
    const forged = { ...viaProxy, "X-Forwarded-Host": "evil.example", Origin: "https://evil.example" };
    expect((await app.request("/api/contact", jsonPost(message, forged))).status).toBe(403);
    expect((await app.request("/login", { method: "POST", headers: forged, body: new URLSearchParams({ a: "b" }) })).status).toBe(403);
  });

  it("signs in through Better Auth from the https origin with a __Host- session cookie that is Secure", async () => {
    app = await createTestApp(env);
    const response = await app.request("http://127.0.0.1:4420/api/auth/sign-in/email", jsonPost(ADMIN, { ...viaProxy, Origin: SHOP }));
    expect(response.status, await response.clone().text()).toBe(200);
    const cookies = response.headers.getSetCookie();
    expect(cookies.length).toBeGreaterThan(0);
    const session = cookies.find((c) => c.startsWith("__Host-plant-shop.session_token="));
    expect(session).toMatch(/; Secure/i);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/; Secure/i);
  });
});

describe("Strict-Transport-Security over https", () => {
  const https = { PUBLIC_URL: SHOP, TRUST_PROXY: "1" };

  it("leaves subdomains out by default: the shop speaks only for its own host", async () => {
    app = await createTestApp(https, { handler: echoUrl });
    const response = await app.request("http://127.0.0.1:4420/cart", { headers: viaProxy });
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("includes subdomains when HSTS_INCLUDE_SUBDOMAINS is true, on pages and API answers alike", async () => {
    app = await createTestApp({ ...https, HSTS_INCLUDE_SUBDOMAINS: "true" }, { handler: echoUrl });
    for (const path of ["/cart", "/api/categories"]) {
      const response = await app.request(`http://127.0.0.1:4420${path}`, { headers: viaProxy });
      expect(response.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
    }
  });

  it("sends no Strict-Transport-Security when PUBLIC_URL is http, whatever the setting", async () => {
    app = await createTestApp({ HSTS_INCLUDE_SUBDOMAINS: "true" }, { handler: echoUrl });
    expect((await app.request("/cart")).headers.get("strict-transport-security")).toBeNull();
  });
});
