import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { sessionCookie } from "../support/accounts.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { postJson } from "../support/test-app.ts";

// REQUIRE_ADMIN_2FA=true: an admin without two-factor authentication is refused every admin page and API, with a
// message that says where to turn it on; once it is on, they are let in.

const shop = useAppWithPages({ REQUIRE_ADMIN_2FA: "true" });

const ADMIN = { email: "owner-2fa@plant-shop.test", password: "strelitzia-nicolai-44" };
const ADMIN_PAGES = ["/admin", "/admin/products", "/admin/orders", "/add-product"];
const ADMIN_APIS = ["/api/admin/overview", "/api/admin/orders", "/api/admin/messages"];

describe("REQUIRE_ADMIN_2FA", () => {
  it("refuses an admin without two-factor every admin page and API with a message pointing to /account/two-factor, and lets them in once it is on", async () => {
    const { app } = shop;
    await app.services.accounts.ensureAdmin(ADMIN);
    const signedIn = await app.request("/api/auth/sign-in/email", postJson(ADMIN));
    expect(signedIn.status).toBe(200);
    const before = sessionCookie(signedIn);

    for (const path of [...ADMIN_PAGES, ...ADMIN_APIS]) {
      const response = await app.request(path, { headers: { Cookie: before } });
      expect([path, response.status]).toEqual([path, 403]);
      expect(await response.text()).toContain("/account/two-factor");
    }
    const api = await app.request("/api/admin/overview", { headers: { Cookie: before } });
    expect((await api.json()).message).toBe(messages.twoFactor.adminRequired);
    // Turning it on is open to them: the page asks for the password.
    expect((await app.request("/account/two-factor", { headers: { Cookie: before } })).status).toBe(200);

    const enabled = await app.request("/api/auth/two-factor/enable", postJson({ password: ADMIN.password }, { Cookie: before }));
    const secret = new URL(((await enabled.json()) as { totpURI: string }).totpURI).searchParams.get("secret")!;
    const confirmed = await app.request("/api/auth/two-factor/verify-totp", postJson({ code: await generate({ secret }) }, { Cookie: before }));
    expect(confirmed.status).toBe(200);
    const after = sessionCookie(confirmed);

    for (const path of [...ADMIN_PAGES, ...ADMIN_APIS]) {
      const response = await app.request(path, { headers: { Cookie: after } });
      expect([path, response.status]).toEqual([path, 200]);
    }
  }, 60_000);
});
