import { getMigrations } from "better-auth/db/migration";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/support/test-app.ts";

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});
afterEach(async () => {
  await app.cleanup();
});

describe("the accounts migration", () => {
  it("creates every table and column Better Auth expects, so it needs no schema changes of its own", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(app.services.authOptions);
    expect(toBeCreated).toEqual([]);
    expect(toBeAdded).toEqual([]);
  });
});
