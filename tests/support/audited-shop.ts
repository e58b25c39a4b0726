import { afterEach, beforeEach } from "vitest";
import type { SessionUser } from "../../server/platform/session-user.ts";
import { createShopper } from "./shoppers.ts";
import { createTestApp, type TestApp } from "./test-app.ts";

/**
 * The audit trail's tests' set-up: before each test a fresh shop (with these settings) and its owner, an admin;
 * after it the shop is cleaned up. `activity` reads the activity page's records as the owner, newest first.
 */
export function auditedShop(env: NodeJS.ProcessEnv = {}) {
  let app: TestApp | undefined;
  let owner: SessionUser | undefined;
  beforeEach(async () => {
    app = await createTestApp(env);
    owner = await createShopper(app.database.db, app.database.dialect, { isAdmin: true });
  });
  afterEach(async () => {
    await app?.cleanup();
  });
  const shop = {
    get app(): TestApp {
      if (!app) throw new Error("the shop is made before each test");
      return app;
    },
    get owner(): SessionUser {
      if (!owner) throw new Error("the owner is made before each test");
      return owner;
    },
    activity: (query: Record<string, string> = {}) => shop.app.services.audit.listActivity(shop.owner, query),
  };
  return shop;
}
