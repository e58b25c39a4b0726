import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { uploadRateRules } from "../../server/modules/accounts/index.ts";
import { callerWith, signUpVerified } from "../support/accounts.ts";
import { createProduct } from "../support/factories.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { postJson } from "../support/test-app.ts";

// Bad input gets a 400 with a message, never a 500 (on PostgreSQL a NUL byte used to reach the database;
// docs/decisions/013).
const shop = useAppWithMail();
const nobody = callerWith(null);

describe("control characters", () => {
  it("are refused with a message in every field of Better Auth's JSON endpoints", async () => {
    for (const [path, body] of [
      ["/api/auth/sign-in/email", { email: "asha\u0000@example.com", password: "monstera-deliciosa-77" }],
      ["/api/auth/sign-up/email", { name: "Asha", username: "asha_1", email: "asha@example.com", password: "monstera\u0000deliciosa" }],
      ["/api/auth/request-password-reset", { email: "asha@example.com\u0000" }],
      ["/api/auth/send-verification-email", { email: "\u0007asha@example.com" }],
      ["/api/auth/reset-password", { token: "abc\u0000", newPassword: "monstera-deliciosa-77" }],
    ] as const) {
      const response = await shop.app.request(path, postJson(body));
      expect(response.status, path).toBe(400);
      expect((await response.json()).message, path).toBe(messages.validation.controlCharactersInRequest);
    }
  });

  it("are refused with a message in paths and query strings, e.g. a search or a profile id with a NUL", async () => {
    for (const path of ["/api/products?q=fern%00", "/api/products?%00=1", "/api/profiles/abc%00def", "/api/auth/verify-email?token=%00"]) {
      const response = await shop.app.request(path);
      expect(response.status, path).toBe(400);
      expect((await response.json()).message, path).toBe(messages.validation.controlCharactersInRequest);
    }
  });

  it("are refused beside the field in a JSON form, while a contact message may have several lines", async () => {
    const message = { name: "Ravi", email: "ravi@example.com", subject: "Hello", message: "First line\r\n\tsecond line" };
    expect((await shop.app.request("/api/contact", postJson(message))).status).toBe(201);
    const refused = await shop.app.request("/api/contact", postJson({ ...message, subject: "Hello\nthere" }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).fieldErrors).toEqual({ subject: messages.validation.controlCharacters });
    const withNul = await shop.app.request("/api/contact", postJson({ ...message, message: "a\u0000b" }));
    expect((await withNul.json()).fieldErrors).toEqual({ message: messages.validation.controlCharacters });
  });
});

describe("page cursors", () => {
  // JavaScript's Date.parse reads all of these; PostgreSQL refused each with an error, answered as a 500.
  const times = ["1", "hello 5", "2030-02-30T00:00:00.000Z", "0000-01-01T00:00:00.000Z", "-000001-01-01T00:00:00.000Z", "+010000-01-01T00:00:00.000Z"];
  const pair = (time: string, second: string) => Buffer.from(JSON.stringify([time, second])).toString("base64url");

  it("with a time PostgreSQL cannot read are a 400 with a message, for products, categories and reviews", async () => {
    const plant = await createProduct(shop.app.database.db);
    for (const time of times) {
      for (const path of [
        `/api/products?after=${pair(time, "abc")}`,
        `/api/categories?after=${pair(time, "Indoor")}`,
        `/api/products/${plant.id}/reviews?after=${encodeURIComponent(`${time}_00000000-0000-0000-0000-000000000000`)}`,
      ]) {
        const response = await shop.app.request(path);
        expect(response.status, `${path} (${time})`).toBe(400);
        expect((await response.json()).message, path).toMatch(/Not a valid page/);
      }
    }
  });
});

describe("e-mail addresses Better Auth refuses", () => {
  it.each(["a@b.c", "a..b@x.com", "ü@x.com", ".a@x.com"])("%s is refused as 'Invalid Email Address' by register, resend and reset", async (email) => {
    const { accounts } = shop.app.services;
    const person = { name: "Asha", username: "asha_x", email, password: "monstera-deliciosa-77" };
    await expect(accounts.register(person, nobody)).rejects.toMatchObject({ status: 400, message: messages.validation.invalidEmail });
    await expect(accounts.resendVerification({ email }, nobody)).rejects.toMatchObject({ status: 400, message: messages.validation.invalidEmail });
    await expect(accounts.requestPasswordReset({ email }, nobody)).rejects.toMatchObject({ status: 400, message: messages.validation.invalidEmail });
  });
});

describe("picture uploads", () => {
  const upload = (userId: string, cookie: string, bytes: Uint8Array, name = "me.png") => {
    const form = new FormData();
    form.set("image", new File([bytes as Uint8Array<ArrayBuffer>], name));
    return shop.app.request(`/api/profiles/${userId}/picture`, { method: "POST", headers: { Cookie: cookie, Origin: "http://127.0.0.1:4999" }, body: form });
  };

  it("refuse an SVG of nested <use> as too complex, without rendering it", async () => {
    const { userId, cookie } = await signUpVerified(shop.app, shop.capture);
    const levels = [1, 2, 3, 4, 5].map((level) => `<g id="l${level}">${`<use href="#l${level - 1}"/>`.repeat(10)}</g>`).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000"><defs><g id="l0"><rect width="1000" height="1000"/></g>${levels}</defs><use href="#l5"/></svg>`;
    const response = await upload(userId, cookie, new TextEncoder().encode(svg), "nested.svg");
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(messages.images.tooComplex);
  });

  it(`are limited to ${uploadRateRules.perAccount.limit} per account in ${uploadRateRules.perAccount.windowMs / 60_000} minutes`, async () => {
    const { userId, cookie } = await signUpVerified(shop.app, shop.capture);
    const png = new Uint8Array(await sharp({ create: { width: 4, height: 4, channels: 3, background: "#3a5" } }).png().toBuffer());
    for (let i = 0; i < uploadRateRules.perAccount.limit; i++) expect((await upload(userId, cookie, png)).status).toBe(200);
    const refused = await upload(userId, cookie, png);
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toBe(`${messages.images.tooManyUploads} Please try again in 10 minutes.`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
