import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createVisitorCartCookies } from "../../server/modules/cart/index.ts";
import { createSealer } from "../../server/platform/sealed-values.ts";
import { newPerson, sessionCookie, signIn, signUpVerified, tokenFromMail } from "../support/accounts.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { createProduct } from "../support/factories.ts";
import { postJson, TEST_ORIGIN } from "../support/test-app.ts";

// A visitor's cart over the JSON API, and what signing in does with it (docs/decisions/037).

const shop = useAppWithMail();
const VISITOR_CART = "plant-shop.visitor_cart";
const NOTICE = "plant-shop.cart_notice";

const send = (method: string, path: string, cookie: string | null, body?: unknown) =>
  shop.app.request(path, {
    method,
    headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The Set-Cookie header a response sends for `name`, if any. */
const setCookie = (response: Response, name: string) => response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
/** The `name=value` a browser sends back after `response` set it. */
const cookieFrom = (response: Response, name: string) => {
  const header = setCookie(response, name);
  if (!header) throw new Error(`no ${name} cookie in: ${response.headers.getSetCookie().join(" | ")}`);
  return header.split(";")[0]!;
};

describe("a visitor's cart over the API", () => {
  it("is empty and sets no cookie until the visitor adds something; the first add sets an httpOnly, SameSite=Lax cookie", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5, price_paise: 45_000 });
    const before = await send("GET", "/api/cart", null);
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ lines: [], itemCount: 0 });
    expect(before.headers.getSetCookie()).toEqual([]);

    const added = await send("POST", "/api/cart/items", null, { productId: plant.id, quantity: 2 });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ itemCount: 2, subtotalPaise: 90_000, lines: [{ productId: plant.id, quantity: 2 }] });
    const header = setCookie(added, VISITOR_CART)!;
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Path=\//);
    expect(header).toMatch(/Max-Age=2592000/);
    expect(added.headers.get("cache-control")).toBe("private, no-store");

    const cookie = cookieFrom(added, VISITOR_CART);
    const mine = await send("GET", "/api/cart", cookie);
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(await mine.json()).toMatchObject({ itemCount: 2 });
    // Another visitor (no cookie) sees none of it.
    expect(await (await send("GET", "/api/cart", null)).json()).toMatchObject({ lines: [], itemCount: 0 });
  });

  it("answers a change by another visitor to this visitor's line with 404, and keeps the line", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5 });
    const first = await send("POST", "/api/cart/items", null, { productId: plant.id });
    const mine = cookieFrom(first, VISITOR_CART);
    const lineId = (await first.json()).lines[0].id as string;
    const theirs = cookieFrom(await send("POST", "/api/cart/items", null, { productId: plant.id }), VISITOR_CART);

    const refused = await send("PATCH", `/api/cart/items/${lineId}`, theirs, { quantity: 3 });
    expect(refused.status).toBe(404);
    expect((await refused.json()).message).toBe(`${messages.cart.updatePrefix} ${messages.cart.itemNotFound}`);
    expect((await send("DELETE", `/api/cart/items/${lineId}`, theirs)).status).toBe(404);
    expect((await send("DELETE", `/api/cart/items/${lineId}`, null)).status).toBe(404);
    expect(await (await send("GET", "/api/cart", mine)).json()).toMatchObject({ lines: [{ id: lineId, quantity: 1 }] });
  });

  it("refuses with the account cart's words, and treats a forged cookie as no cart: answered, never a 5xx, and the cookie cleared", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 2 });
    const first = await send("POST", "/api/cart/items", null, { productId: plant.id, quantity: 2 });
    const cookie = cookieFrom(first, VISITOR_CART);
    const tooMany = await send("POST", "/api/cart/items", cookie, { productId: plant.id });
    expect(tooMany.status).toBe(409);
    expect((await tooMany.json()).message).toBe(`${messages.cart.addPrefix} ${messages.cart.onlyLeft(2)}`);

    for (const forged of [`${VISITOR_CART}=${"A".repeat(43)}`, `${VISITOR_CART}=%E0%A4%A`, `${VISITOR_CART}=${"x".repeat(3000)}`]) {
      const read = await send("GET", "/api/cart", forged);
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ lines: [] });
      expect(setCookie(read, VISITOR_CART)).toMatch(/Max-Age=0/);
      const change = await send("PATCH", "/api/cart/items/some-line", forged, { quantity: 1 });
      expect(change.status).toBe(404);
    }
  });
});

describe("signing in with a visitor's cart", () => {
  it("merges it into the account's cart (added, capped by stock), clears the visitor's cookie and leaves a notice; the old cookie merges nothing again", async () => {
    const monstera = await createProduct(shop.app.database.db, { name: "Monstera", stock: 3 });
    const fern = await createProduct(shop.app.database.db, { name: "Fern", stock: 9 });
    const account = await signUpVerified(shop.app, shop.capture);
    await send("POST", "/api/cart/items", account.cookie, { productId: monstera.id, quantity: 2 });

    const first = await send("POST", "/api/cart/items", null, { productId: monstera.id, quantity: 2 });
    const visitor = cookieFrom(first, VISITOR_CART);
    await send("POST", "/api/cart/items", visitor, { productId: fern.id, quantity: 1 });

    const signedIn = await signIn(shop.app, account.person.email, account.person.password, { Cookie: visitor });
    expect(signedIn.status).toBe(200);
    expect(setCookie(signedIn, VISITOR_CART)).toMatch(/Max-Age=0/);
    expect(setCookie(signedIn, NOTICE)).toMatch(/HttpOnly/);
    const cart = await (await send("GET", "/api/cart", sessionCookie(signedIn))).json();
    expect(Object.fromEntries(cart.lines.map((line: { name: string; quantity: number }) => [line.name, line.quantity]))).toEqual({ Monstera: 3, Fern: 1 });

    // The notice, sealed in its cookie, reads as the shopper will read it.
    const notice = cookieFrom(signedIn, NOTICE).slice(NOTICE.length + 1);
    expect(shop.app.infrastructure.sealer.open("cart-merge-notice", decodeURIComponent(notice))).toBe(
      messages.cart.visitorCartMerged(2, [messages.cart.mergeLimitedByStock("Monstera", 3)]),
    );

    const again = await signIn(shop.app, account.person.email, account.person.password, { Cookie: visitor });
    expect(setCookie(again, NOTICE)).toBeUndefined();
    expect((await (await send("GET", "/api/cart", sessionCookie(again))).json()).itemCount).toBe(4);
  });

  it("merges it when a new account is verified and signed in by its link", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5 });
    const visitor = cookieFrom(await send("POST", "/api/cart/items", null, { productId: plant.id, quantity: 2 }), VISITOR_CART);
    const person = newPerson();
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(person, { Cookie: visitor }))).status).toBe(200);
    const token = await tokenFromMail(shop.capture, person.email, "/verify");
    const verified = await shop.app.request("/api/verification", postJson({ token, password: person.password }, { Cookie: visitor }));
    expect(verified.status).toBe(200);
    expect(setCookie(verified, VISITOR_CART)).toMatch(/Max-Age=0/);
    expect((await (await send("GET", "/api/cart", sessionCookie(verified))).json()).lines).toMatchObject([{ productId: plant.id, quantity: 2 }]);
  });

  it("keeps the visitor's cart when the password is wrong", async () => {
    const plant = await createProduct(shop.app.database.db, { stock: 5 });
    const account = await signUpVerified(shop.app, shop.capture);
    const visitor = cookieFrom(await send("POST", "/api/cart/items", null, { productId: plant.id }), VISITOR_CART);
    const refused = await signIn(shop.app, account.person.email, "not-the-password-1");
    expect(refused.status).toBe(401);
    expect(setCookie(refused, VISITOR_CART)).toBeUndefined();
    expect((await (await send("GET", "/api/cart", visitor)).json()).itemCount).toBe(1);
  });
});

describe("the visitor cart's cookie over https", () => {
  it("is Secure and bound to the origin by the __Host- prefix, like the session's", () => {
    const cookies = createVisitorCartCookies({ https: true, sealer: createSealer("a-secret-of-enough-length-0123456789abcdef") });
    const [header] = cookies.write({ kind: "issued", token: "t".repeat(43) });
    expect(header).toMatch(/^__Host-plant-shop\.visitor_cart=t{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(cookies.read(new Headers({ cookie: `__Host-plant-shop.visitor_cart=${"t".repeat(43)}` }))).toBe("t".repeat(43));
  });
});
