import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WISHLIST_MAX_ITEMS } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";
import { createCategory, createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { setTestClock } from "../../platform/clock.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

const shopper = (name: string, isAdmin = false) => createShopper(app.database.db, app.database.dialect, { name, isAdmin });
const wishlist = () => app.services.wishlist;
const namesOf = async (user: Parameters<ReturnType<typeof wishlist>["list"]>[0]) => (await wishlist().list(user, {})).items.map((item) => item.product.name);

describe("saving and removing", () => {
  it("saves a plant once however often it is saved, and removing it (or one never saved) changes nothing more", async () => {
    const monstera = await createProduct(app.database.db, { name: "Monstera" });
    const asha = await shopper("Asha Kulkarni");

    expect(await wishlist().save(asha, monstera.id)).toEqual({ productId: monstera.id, saved: true, created: true });
    expect(await wishlist().save(asha, monstera.id)).toEqual({ productId: monstera.id, saved: true, created: false });
    expect(await namesOf(asha)).toEqual(["Monstera"]);
    expect(await wishlist().isSaved(asha, monstera.id)).toBe(true);

    expect(await wishlist().remove(asha, monstera.id)).toEqual({ productId: monstera.id, saved: false });
    expect(await wishlist().remove(asha, monstera.id)).toEqual({ productId: monstera.id, saved: false });
    expect(await wishlist().remove(asha, "no-such-product")).toEqual({ productId: "no-such-product", saved: false });
    expect(await namesOf(asha)).toEqual([]);
    expect(await wishlist().isSaved(asha, monstera.id)).toBe(false);
  });

  it("refuses a visitor (401), an id that is not one (400) and a plant that does not exist (404)", async () => {
    const monstera = await createProduct(app.database.db);
    const asha = await shopper("Asha Kulkarni");
    await expect(wishlist().save(null, monstera.id)).rejects.toMatchObject({ status: 401, message: messages.wishlist.logInFirst });
    await expect(wishlist().remove(null, monstera.id)).rejects.toMatchObject({ status: 401 });
    await expect(wishlist().list(null, {})).rejects.toMatchObject({ status: 401 });
    await expect(wishlist().save(asha, "not an id!")).rejects.toMatchObject({ status: 400 });
    await expect(wishlist().save(asha, "no-such-product")).rejects.toMatchObject({ status: 404, message: messages.product.notFound });
    await expect(wishlist().list(asha, { after: "nonsense" })).rejects.toMatchObject({ status: 400, message: messages.wishlist.notValidPage });
    expect(await wishlist().isSaved(null, monstera.id)).toBe(false);
    expect(await wishlist().savedAmong(null, [monstera.id])).toEqual([]);
  });

  it(`keeps at most ${WISHLIST_MAX_ITEMS} plants per person, saying so, while saving one already saved still answers saved`, async () => {
    const asha = await shopper("Asha Kulkarni");
    const category = await createCategory(app.database.db);
    const now = new Date().toISOString();
    const ids = Array.from({ length: WISHLIST_MAX_ITEMS + 1 }, () => randomUUID());
    await app.database.db
      .insertInto("products")
      .values(ids.map((id, i) => ({ id, name: `Plant ${i}`, description: "For a test", price_paise: 10_000, stock: 1, category_id: category.id, created_at: now, updated_at: now })))
      .execute();
    // The list filled to the cap directly: the rule under test is the next save's.
    await app.database.db
      .insertInto("wishlist_items")
      .values(ids.slice(0, WISHLIST_MAX_ITEMS).map((id) => ({ user_id: asha.id, product_id: id, created_at: now })))
      .execute();

    await expect(wishlist().save(asha, ids[WISHLIST_MAX_ITEMS])).rejects.toMatchObject({ status: 409, message: messages.wishlist.full(WISHLIST_MAX_ITEMS) });
    expect(await wishlist().save(asha, ids[0])).toMatchObject({ saved: true, created: false });
    await wishlist().remove(asha, ids[0]);
    expect(await wishlist().save(asha, ids[WISHLIST_MAX_ITEMS])).toMatchObject({ saved: true, created: true });
  });
});

describe("whose list", () => {
  it("shows each person only their own list and their own hearts", async () => {
    const monstera = await createProduct(app.database.db, { name: "Monstera" });
    const fern = await createProduct(app.database.db, { name: "Boston Fern" });
    const asha = await shopper("Asha Kulkarni");
    const ravi = await shopper("Ravi Menon");
    await wishlist().save(asha, monstera.id);
    await wishlist().save(ravi, fern.id);

    expect(await namesOf(asha)).toEqual(["Monstera"]);
    expect(await namesOf(ravi)).toEqual(["Boston Fern"]);
    expect(await wishlist().savedAmong(asha, [monstera.id, fern.id])).toEqual([monstera.id]);
    expect(await wishlist().savedAmong(ravi, [monstera.id, fern.id])).toEqual([fern.id]);
    // Ravi removing Asha's plant touches only his own (empty) entry for it.
    await wishlist().remove(ravi, monstera.id);
    expect(await namesOf(asha)).toEqual(["Monstera"]);
  });

  it("goes with the account when it is deleted", async () => {
    const monstera = await createProduct(app.database.db);
    const asha = await shopper("Asha Kulkarni");
    await wishlist().save(asha, monstera.id);
    // Account deletion ends with the users row (account-deletion.ts): the list follows by the foreign key's cascade.
    await app.database.db.deleteFrom("users").where("id", "=", asha.id).execute();
    expect(await app.database.db.selectFrom("wishlist_items").select("product_id").where("user_id", "=", asha.id).execute()).toEqual([]);
  });
});

describe("the list", () => {
  it("lists newest first with each plant's current price, sale and stock, a page at a time by key", async () => {
    const asha = await shopper("Asha Kulkarni");
    const plants = [];
    for (const name of ["First", "Second", "Third"]) plants.push(await createProduct(app.database.db, { name, stock: name === "Second" ? 0 : 5 }));
    // Saved a minute apart by the shop's clock: two saves within one millisecond would be ordered by their ids.
    const start = Date.parse("2026-06-01T10:00:00Z");
    try {
      for (const [i, plant] of plants.entries()) {
        setTestClock(start + i * 60_000);
        await wishlist().save(asha, plant.id);
      }
    } finally {
      setTestClock(Date.now());
    }

    const first = await wishlist().list(asha, { limit: "2" });
    expect(first.items.map((item) => item.product.name)).toEqual(["Third", "Second"]);
    expect(first.items[1]!.product).toMatchObject({ stock: 0, pricePaise: 99_900, sale: null });
    expect(first.nextCursor).not.toBeNull();
    const second = await wishlist().list(asha, { limit: 2, after: first.nextCursor });
    expect(second.items.map((item) => item.product.name)).toEqual(["First"]);
    expect(second.nextCursor).toBeNull();
  });

  it("loses a plant the owner deletes", async () => {
    const monstera = await createProduct(app.database.db, { name: "Monstera" });
    const fern = await createProduct(app.database.db, { name: "Boston Fern" });
    const asha = await shopper("Asha Kulkarni");
    const owner = await shopper("Owner", true);
    await wishlist().save(asha, monstera.id);
    await wishlist().save(asha, fern.id);
    await app.services.adminCatalog.deleteProduct(owner, { productId: monstera.id });
    expect(await namesOf(asha)).toEqual(["Boston Fern"]);
    expect(await wishlist().isSaved(asha, monstera.id)).toBe(false);
  });
});
