import { expect, test } from "./support/fixtures.ts";

test.describe("page forms", () => {
  test("refuse a post sent from another site", async ({ request }) => {
    const response = await request.post("/login", {
      headers: { Origin: "https://evil.example" },
      form: { email: "owner@plant-shop.test", password: "e2e-admin-password-7" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    expect(response.headers()["set-cookie"]).toBeUndefined();
  });

  test("accept the same post from the shop itself", async ({ request, baseURL }) => {
    const response = await request.post("/login", {
      headers: { Origin: baseURL! },
      form: { email: "owner@plant-shop.test", password: "e2e-admin-password-7", redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
    expect(response.headers()["set-cookie"]).toContain("plant-shop.session_token=");
  });
});
