import { describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";
import { careProfile, createProduct } from "../support/factories.ts";
import { useAppWithPages } from "../support/app-with-pages.ts";
import { insertSessions, SHOP_AUTH_SECRET } from "../support/shop-process.ts";
import { createShopper } from "../support/shoppers.ts";
import { TEST_ORIGIN } from "../support/test-app.ts";

// A plant's care profile through the owner's API and form, and on the product's JSON and page, through every cache
// that keeps a product page.

const shop = useAppWithPages({ AUTH_SECRET: SHOP_AUTH_SECRET, PAGE_CACHE_SECONDS: "300" });

/** Names are unique: the tests of this file share one database (and so one cache). */
let count = 0;
const newPlant = () => createProduct(shop.app.database.db, { name: `Care Fern ${++count}`, stock: 5 });

async function signedIn(isAdmin: boolean) {
  const user = await createShopper(shop.app.database.db, shop.app.database.dialect, { name: `Person ${++count}`, isAdmin });
  return (await insertSessions(shop.app.database.db, [user.id], SHOP_AUTH_SECRET))[0]!;
}

const send = (method: string, path: string, cookie: string, body?: unknown) =>
  shop.app.request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: { Origin: TEST_ORIGIN, Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function categoryOf(productId: string): Promise<string> {
  const row = await shop.app.database.db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select("c.name")
    .where("p.id", "=", productId)
    .executeTakeFirstOrThrow();
  return row.name;
}

/** The owner's save of the plant as the API takes it, with `care` as given (left out when undefined). */
async function apiForm(productId: string, name: string, care: unknown) {
  return { name, description: "Feathery fronds.", price: 750, stock: 5, stockBefore: 5, category: await categoryOf(productId), images: [], ...(care === undefined ? {} : { care }) };
}

async function page(path: string, cookie?: string) {
  const response = await shop.app.request(`${TEST_ORIGIN}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  return { response, html: await response.text() };
}

/** The page's words as a reader hears them: no tags, no React's text separators, entities read. */
const words = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, " ");

/** The care card's section of a page, or null when it has none. */
const careCard = (html: string) => /<section aria-labelledby="care-heading"[\s\S]*?<\/section>/.exec(html)?.[0] ?? null;

function structuredData(html: string): { additionalProperty?: unknown } {
  const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error("the page has no structured data");
  return JSON.parse(script) as { additionalProperty?: unknown };
}

const profile = careProfile();

describe("a plant's care profile through the admin API and the product's JSON", () => {
  it("is saved by PUT, answered by the edit form's GET and the product's detail, and kept by a PUT without `care`", async () => {
    const plant = await newPlant();
    const admin = await signedIn(true);
    const saved = await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, plant.name, profile));
    expect(saved.status).toBe(200);
    expect(((await (await send("GET", `/api/admin/products/${plant.id}`, admin)).json()) as { care: unknown }).care).toEqual(profile);
    expect(((await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { care: unknown }).care).toEqual(profile);

    expect((await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, plant.name, undefined))).status).toBe(200);
    expect(((await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { care: unknown }).care).toEqual(profile);

    const cleared = Object.fromEntries(Object.keys(profile).map((part) => [part, null]));
    expect((await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, plant.name, cleared))).status).toBe(200);
    expect(((await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { care: unknown }).care).toEqual(cleared);
  });

  it("refuses a value it has no words for with a 400 naming the field, and saves nothing; a shopper may not save one at all", async () => {
    const plant = await newPlant();
    const admin = await signedIn(true);
    const refused = await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, "Renamed", { ...profile, light: "dark", heightCm: 0 }));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fieldErrors: unknown }).fieldErrors).toEqual({
      "care.light": messages.careProfile.lightInvalid,
      "care.heightCm": messages.careProfile.heightInvalid(5000),
    });
    const notAProfile = await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, "Renamed", "sunny"));
    expect(notAProfile.status).toBe(400);
    expect(((await notAProfile.json()) as { fieldErrors: unknown }).fieldErrors).toEqual({ care: messages.careProfile.notAProfile });

    const shopper = await signedIn(false);
    expect((await send("PUT", `/api/admin/products/${plant.id}`, shopper, await apiForm(plant.id, "Renamed", profile))).status).toBe(403);
    const detail = (await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { name: string; care: { light: unknown } };
    expect({ name: detail.name, light: detail.care.light }).toEqual({ name: plant.name, light: null });
  });
});

describe("the product page's care card", () => {
  it("shows no card and no additionalProperty for a plant with no profile", async () => {
    const plant = await newPlant();
    const { html } = await page(`/product/${plant.id}`);
    expect(careCard(html)).toBeNull();
    expect(structuredData(html).additionalProperty).toBeUndefined();
  });

  it("appears for visitors and signed-in shoppers as soon as the owner saves a profile, through their cached pages", async () => {
    const plant = await newPlant();
    const admin = await signedIn(true);
    const shopper = await signedIn(false);
    const path = `/product/${plant.id}`;
    await page(path);
    await page(path, shopper);
    expect((await page(path)).response.headers.get("x-page-cache")).toBe("hit");
    expect((await page(path, shopper)).response.headers.get("x-shared-page-cache")).toBe("hit");

    expect((await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, plant.name, { ...profile, flowering: null }))).status).toBe(200);

    for (const viewer of [undefined, shopper]) {
      const card = careCard((await page(path, viewer)).html);
      expect(card, viewer ? "the shopper's page" : "the visitor's page").not.toBeNull();
      expect(words(card!).trim()).toBe(
        "Plant care Light: Bright indirect light Water: When the top 2 cm of soil is dry (about every 7 days) Pets: Not pet-safe — keep away from cats and dogs Care: Beginner Where: Indoor Height: up to 120 cm",
      );
      // Every icon is decoration: the words say it all.
      expect(card!.match(/<svg/g)).toHaveLength(6);
      expect(card!.match(/<svg[^>]*aria-hidden="true"/g)).toHaveLength(6);
    }
    expect(structuredData((await page(path)).html).additionalProperty).toEqual([
      { "@type": "PropertyValue", name: "Light", value: "Bright indirect light" },
      { "@type": "PropertyValue", name: "Watering", value: "When the top 2 cm of soil is dry (about every 7 days)" },
      { "@type": "PropertyValue", name: "Pet safety", value: "Not pet-safe" },
      { "@type": "PropertyValue", name: "Difficulty", value: "Beginner" },
      { "@type": "PropertyValue", name: "Where it grows", value: "Indoor" },
      { "@type": "PropertyValue", name: "Mature height", value: 120, unitCode: "CMT", unitText: "cm" },
    ]);
  });

  it("says nothing of pet safety that is not known, and never calls it safe", async () => {
    const plant = await newPlant();
    const admin = await signedIn(true);
    await send("PUT", `/api/admin/products/${plant.id}`, admin, await apiForm(plant.id, plant.name, { light: "low", petSafe: null }));
    const card = words(careCard((await page(`/product/${plant.id}`)).html) ?? "");
    expect(card).toContain("Light: Low light");
    expect(card).not.toMatch(/Pets|pet-safe/i);
  });
});

describe("the product form's Care section without JavaScript", () => {
  it("posts the care fields, shows a refused one's message under that field, and saves the profile once right", async () => {
    const plant = await newPlant();
    const admin = await signedIn(true);
    const fields = {
      name: plant.name,
      description: "Feathery fronds.",
      price: "750",
      stock: "5",
      stockBefore: "5",
      category: await categoryOf(plant.id),
      "care.light": "direct-sun",
      "care.watering": "",
      "care.waterEveryDays": "every week",
      "care.petSafe": "yes",
      "care.difficulty": "",
      "care.place": "both",
      "care.heightCm": "",
      "care.flowering": "",
    };
    const post = (body: Record<string, string>) =>
      shop.app.request(`${TEST_ORIGIN}/product/${plant.id}/edit`, {
        method: "POST",
        headers: { Origin: TEST_ORIGIN, Cookie: admin, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(body).toString(),
        redirect: "manual",
      });
    const refused = await post(fields);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toMatch(/id="field-care\.waterEveryDays"[^>]*aria-describedby="field-care\.waterEveryDays-error"/);
    expect(html).toContain(`<p id="field-care.waterEveryDays-error" class="field-error">${messages.careProfile.waterEveryDaysInvalid(90)}</p>`);
    expect(((await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { care: { light: unknown } }).care.light).toBeNull();

    const saved = await post({ ...fields, "care.waterEveryDays": "10" });
    expect(saved.status).toBe(302);
    expect(((await (await shop.app.request(`/api/products/${plant.id}`)).json()) as { care: unknown }).care).toEqual({
      light: "direct-sun",
      watering: null,
      waterEveryDays: 10,
      petSafe: "yes",
      difficulty: null,
      place: "both",
      heightCm: null,
      flowering: null,
    });
  });
});
