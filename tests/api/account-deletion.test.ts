import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { createProduct } from "../support/factories.ts";
import { callerWith, newPerson, sessionCookie, signIn, signUpVerified } from "../support/accounts.ts";
import { extractLinks } from "../support/smtp-capture.ts";
import { useAppWithMail } from "../support/app-with-mail.ts";
import { checkoutInput, createShopper, shipping } from "../support/shoppers.ts";
import { postJson } from "../support/test-app.ts";

// Deleting an account (decision 040): everything of the person goes in one transaction, their reviews stay as
// 'Anonymous', their orders stay for the shop's records with the delivery details and no link to them.

const shop = useAppWithMail();
const ac = messages.accountChanges;
const IP = "203.0.113.40";

async function signedIn(cookie: string) {
  const caller = callerWith(IP, cookie);
  const { user } = await shop.app.services.accounts.getSession(caller);
  if (!user) throw new Error("not signed in");
  return { caller, user };
}

const count = async (table: "sessions" | "accounts", userId: string) =>
  (await shop.app.database.db.selectFrom(table).select("id").where("userId", "=", userId).execute()).length;

describe("deleting an account", () => {
  it("removes the profile, sessions, credential, cart, reset links and activity, keeps reviews as 'Anonymous' and orders with the delivery details but no customer link", async () => {
    const { db } = shop.app.database;
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    const plant = await createProduct(db, { stock: 10 });
    await shop.app.services.cart.addToCart(user, { productId: plant.id, quantity: 1 });
    const order = await shop.app.services.orders.placeOrder(user, checkoutInput());
    await shop.app.services.cart.addToCart(user, { productId: plant.id, quantity: 2 });
    await shop.app.services.reviews.saveMyReview(user, plant.id, { text: "Thrives on my sill", rating: 5 });
    await shop.app.services.accounts.requestPasswordReset({ email: person.email }, callerWith(IP));
    await signIn(shop.app, person.email, person.password);
    expect(await count("sessions", userId)).toBe(2);
    expect(await db.selectFrom("verifications").select("id").where("value", "=", userId).execute()).toHaveLength(1);
    expect(await db.selectFrom("security_events").select("id").where("user_id", "=", userId).execute()).not.toHaveLength(0);

    const { session } = await shop.app.services.accounts.deleteAccount(user, { password: person.password }, caller);

    expect(session).toEqual({ kind: "ended" });
    expect(await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst()).toBeUndefined();
    expect(await count("sessions", userId)).toBe(0);
    expect(await count("accounts", userId)).toBe(0);
    expect(await db.selectFrom("verifications").select("id").where("value", "=", userId).execute()).toHaveLength(0);
    expect(await db.selectFrom("cart_items").select("id").where("user_id", "=", userId).execute()).toHaveLength(0);
    expect(await db.selectFrom("security_events").select("id").where("user_id", "=", userId).execute()).toHaveLength(0);
    expect((await shop.app.services.accounts.getSession(caller)).user).toBeNull();

    const page = await shop.app.services.reviews.listReviews(plant.id, {});
    expect(page.items).toMatchObject([{ text: "Thrives on my sill", rating: 5, authorName: messages.reviews.anonymous, authorId: null }]);
    const product = await shop.app.services.catalog.getProduct({ productId: plant.id });
    expect(product).toMatchObject({ reviewCount: 1, averageRating: 5 });

    const stored = await db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: null, ship_name: shipping.name, ship_phone: shipping.phone, ship_address: shipping.address });
    const admin = await createShopper(db, shop.app.database.dialect, { isAdmin: true });
    const seen = await shop.app.services.orders.getOrderForAdmin(admin, order.id);
    expect(seen).toMatchObject({ userId: null, customer: { name: shipping.name, email: null }, shipName: shipping.name, totalPaise: order.totalPaise });
    const listed = await shop.app.services.orders.listAllOrders(admin, {});
    expect(listed.items.find((o) => o.id === order.id)).toMatchObject({ customer: { name: shipping.name, email: null } });

    const mail = await shop.capture.waitFor((m) => m.to.includes(person.email) && m.subject.includes("account has been deleted"));
    expect(mail.text).toContain("Your reviews stay");
  });

  it("removes the uploaded picture's file once the account is gone", async () => {
    const { person, cookie } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    const picture = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#25632e" } }).png().toBuffer();
    const { avatarUrl } = await shop.app.services.profiles.setPicture(user, user.id, new Uint8Array(picture));
    const name = avatarUrl.slice(avatarUrl.lastIndexOf("/") + 1);
    expect(await shop.app.infrastructure.media.open(name)).not.toBeNull();

    await shop.app.services.accounts.deleteAccount(user, { password: person.password }, caller);

    expect(await shop.app.infrastructure.media.open(name)).toBeNull();
    // The picture starts a decoder process of its own, which takes seconds on a busy machine.
  }, 20_000);

  it("deletes nothing on a wrong password, and says so on the password field", async () => {
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    await expect(shop.app.services.accounts.deleteAccount(user, { password: `${person.password}x` }, caller)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { password: ac.passwordWrong },
    });
    await expect(shop.app.services.accounts.deleteAccount(user, {}, caller)).rejects.toMatchObject({ status: 400, fieldErrors: { password: messages.validation.passwordRequired } });
    expect(await count("accounts", userId)).toBe(1);
    expect((await shop.app.services.accounts.getSession(caller)).user?.id).toBe(userId);
  });

  it("refuses the shop's last admin with a clear message, and lets an admin go once another remains", async () => {
    const first = await signUpVerified(shop.app, shop.capture);
    await shop.app.services.accounts.setAdmin(first.person.email, true);
    const { caller, user } = await signedIn(first.cookie);
    expect(user.isAdmin).toBe(true);
    await expect(shop.app.services.accounts.deleteAccount(user, { password: first.person.password }, caller)).rejects.toMatchObject({ status: 409, message: ac.lastAdmin });
    expect(await count("accounts", first.userId)).toBe(1);

    const second = await signUpVerified(shop.app, shop.capture);
    await shop.app.services.accounts.setAdmin(second.person.email, true);
    await shop.app.services.accounts.deleteAccount(user, { password: first.person.password }, caller);
    expect(await count("accounts", first.userId)).toBe(0);
    const remaining = await signedIn(second.cookie);
    await expect(shop.app.services.accounts.deleteAccount(remaining.user, { password: second.person.password }, remaining.caller)).rejects.toMatchObject({
      message: ac.lastAdmin,
    });
  });

  it("leaves the address free: it registers again, as a new account", async () => {
    const { person, cookie, userId } = await signUpVerified(shop.app, shop.capture);
    const { caller, user } = await signedIn(cookie);
    await shop.app.services.accounts.deleteAccount(user, { password: person.password }, caller);

    const again = newPerson({ email: person.email, password: "a-brand-new-fern-31" });
    const mailsBefore = shop.capture.messages.length;
    expect((await shop.app.request("/api/auth/sign-up/email", postJson(again))).status).toBe(200);
    // The new account's own link (the first account's, still in the mailbox, names the account it was made for).
    const mail = await shop.capture.waitFor((m) => shop.capture.messages.indexOf(m) >= mailsBefore && m.to.includes(person.email) && m.text.includes("/verify?"));
    const token = new URL(extractLinks(mail.text).find((l) => new URL(l).pathname === "/verify")!).searchParams.get("token");
    const verified = await shop.app.request("/api/verification", postJson({ token, password: again.password }));
    expect(verified.status).toBe(200);
    const me = await (await shop.app.request("/api/me", { headers: { Cookie: sessionCookie(verified) } })).json();
    expect(me).toMatchObject({ email: person.email, username: again.username });
    expect(me.id).not.toBe(userId);
  });

  it("asks an account without a password for a login in the last few minutes instead", async () => {
    const { db } = shop.app.database;
    const { cookie, userId } = await signUpVerified(shop.app, shop.capture);
    // As an account made by signing in with an outside provider has it: no password.
    await db.updateTable("accounts").set({ password: null }).where("userId", "=", userId).execute();
    const { caller, user } = await signedIn(cookie);
    const anHourAgo = new Date(Date.now() - 3600_000).toISOString();
    await db.updateTable("sessions").set({ createdAt: anHourAgo }).where("userId", "=", userId).execute();
    await expect(shop.app.services.accounts.deleteAccount(user, {}, caller)).rejects.toMatchObject({ status: 403, message: ac.freshSignInNeeded(10) });
    expect(await count("accounts", userId)).toBe(1);

    await db.updateTable("sessions").set({ createdAt: new Date().toISOString() }).where("userId", "=", userId).execute();
    await shop.app.services.accounts.deleteAccount(user, {}, caller);
    expect(await db.selectFrom("users").select("id").where("id", "=", userId).executeTakeFirst()).toBeUndefined();
  });
});
