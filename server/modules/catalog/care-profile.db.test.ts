import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EMPTY_CARE_PROFILE } from "#common/catalog/care-profile.ts";
import { messages } from "#common/shared/messages.ts";
import { careProfile, createProduct } from "../../../tests/support/factories.ts";
import { createShopper } from "../../../tests/support/shoppers.ts";
import { createTestDatabase, dialectUnderTest, type TestDatabase } from "../../../tests/support/test-database.ts";
import { createLocalChangeFeed, type Change } from "../../platform/change-feed/change-feed.ts";
import { InvalidInputError } from "../../platform/errors.ts";
import type { SessionUser } from "../../platform/session-user.ts";
import { createCatalogEditingService, createCatalogService, type CatalogImages } from "./index.ts";
import { createRateLimiter } from "../../platform/rate-limit/rate-limit.ts";
import { sampleProducts } from "./sample-data.ts";
import { seedSampleData } from "./seed.ts";

const m = messages.careProfile;

const noImages: CatalogImages = {
  async fromUpload() {
    throw new Error("no uploads in these tests");
  },
  async removeUpload() {},
  async remove() {},
};

let database: TestDatabase;
let admin: SessionUser;
let changes: ReturnType<typeof createLocalChangeFeed>;
beforeEach(async () => {
  database = await createTestDatabase();
  admin = await createShopper(database.db, dialectUnderTest, { isAdmin: true });
  changes = createLocalChangeFeed();
});
afterEach(async () => {
  await database.cleanup();
});

const editing = () => createCatalogEditingService({ database, changes, images: noImages, timeZone: "Asia/Kolkata" });
const catalog = () => createCatalogService(database.db, { rateLimiter: createRateLimiter(database.db) });

/** The product form's fields for a product made by the factory, with its category and the care section given. */
async function formFor(productId: string, care: Record<string, unknown> | undefined) {
  const row = await database.db
    .selectFrom("products as p")
    .innerJoin("categories as c", "c.id", "p.category_id")
    .select(["p.name", "c.name as category"])
    .where("p.id", "=", productId)
    .executeTakeFirstOrThrow();
  return { name: row.name, description: "Feathery.", price: "750", stock: "3", stockBefore: "3", category: row.category, images: [], ...(care ? { care } : {}) };
}

const typed = {
  light: "bright-indirect",
  watering: "  When the top 2 cm of soil is dry ",
  waterEveryDays: "7",
  petSafe: "no",
  difficulty: "beginner",
  place: "indoor",
  heightCm: "120",
  flowering: "Spring",
};
/** What `typed` is saved as: trimmed, numbers as numbers. */
const saved = careProfile();
const emptied = Object.fromEntries(Object.keys(typed).map((part) => [part, ""]));

describe(`a product's care profile (${dialectUnderTest})`, () => {
  it("is saved from the form's typed fields, shown on the edit form and the product, and cleared part by part when emptied", async () => {
    const product = await createProduct(database.db, { stock: 3 });
    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, typed));
    expect((await editing().getProductForEdit(admin, { productId: product.id })).care).toEqual(saved);
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual(saved);

    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, { ...typed, petSafe: "", heightCm: "" }));
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual({ ...saved, petSafe: null, heightCm: null });

    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, emptied));
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual(EMPTY_CARE_PROFILE);
  });

  it("takes an API client's nulls and numbers, and keeps the profile when a save leaves `care` out", async () => {
    const product = await createProduct(database.db, { stock: 3 });
    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, { ...saved, flowering: null, waterEveryDays: 14 }));
    const expected = { ...saved, flowering: null, waterEveryDays: 14 };
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual(expected);
    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, undefined));
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual(expected);
  });

  it("publishes the edit as a change of the product's details, which drops its cached pages", async () => {
    const product = await createProduct(database.db, { stock: 3 });
    const seen: Change[] = [];
    changes.subscribe((change) => void seen.push(change));
    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, typed));
    expect(seen).toContainEqual(expect.objectContaining({ type: "product", productId: product.id, aspects: expect.arrayContaining(["details"]) }));
  });

  it("refuses values it has no words for, each under its own field, and saves nothing of the form", async () => {
    const product = await createProduct(database.db, { stock: 3, name: "Kept fern" });
    await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, typed));
    const bad = {
      light: "dark",
      watering: "x".repeat(121),
      waterEveryDays: "1.5",
      petSafe: "maybe",
      difficulty: "hard",
      place: "space",
      heightCm: "0",
      flowering: "y".repeat(61),
    };
    const error = await editing()
      .updateProduct(admin, { productId: product.id }, { ...(await formFor(product.id, bad)), name: "Renamed fern" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).fieldErrors).toEqual({
      "care.light": m.lightInvalid,
      "care.watering": m.wateringTooLong(120),
      "care.waterEveryDays": m.waterEveryDaysInvalid(90),
      "care.petSafe": m.petSafeInvalid,
      "care.difficulty": m.difficultyInvalid,
      "care.place": m.placeInvalid,
      "care.heightCm": m.heightInvalid(5000),
      "care.flowering": m.floweringTooLong(60),
    });
    const after = await catalog().getProduct({ productId: product.id });
    expect({ name: after.name, care: after.care }).toEqual({ name: "Kept fern", care: saved });
  });

  it("refuses a number of days or centimetres beyond the limits, or not whole, and text with control characters", async () => {
    const product = await createProduct(database.db, { stock: 3 });
    const refusal = async (care: Record<string, unknown>) =>
      ((await editing().updateProduct(admin, { productId: product.id }, await formFor(product.id, care)).catch((e: unknown) => e)) as InvalidInputError).fieldErrors;
    expect(await refusal({ waterEveryDays: "91" })).toEqual({ "care.waterEveryDays": m.waterEveryDaysInvalid(90) });
    expect(await refusal({ waterEveryDays: -3 })).toEqual({ "care.waterEveryDays": m.waterEveryDaysInvalid(90) });
    expect(await refusal({ heightCm: 2.5 })).toEqual({ "care.heightCm": m.heightInvalid(5000) });
    expect(await refusal({ heightCm: "5001" })).toEqual({ "care.heightCm": m.heightInvalid(5000) });
    expect(await refusal({ watering: "Daily\u0000" })).toEqual({ "care.watering": messages.validation.controlCharacters });
    expect(await refusal({ light: 3 })).toEqual({ "care.light": m.lightInvalid });
    expect((await catalog().getProduct({ productId: product.id })).care).toEqual(EMPTY_CARE_PROFILE);
  });
});

describe(`the sample catalogue's care profiles (${dialectUnderTest})`, () => {
  it("gives each sample plant the profile written for it", async () => {
    await seedSampleData(database);
    for (const sample of sampleProducts) {
      const row = await database.db.selectFrom("products").select("id").where("name", "=", sample.name).executeTakeFirstOrThrow();
      expect((await catalog().getProduct({ productId: row.id })).care, sample.name).toEqual({ ...EMPTY_CARE_PROFILE, ...sample.care });
    }
    const snake = sampleProducts.find((sample) => sample.slug === "snake-plant")!;
    expect(snake.care).toMatchObject({ light: "low", petSafe: "no", difficulty: "beginner", place: "indoor" });
  });
});
