import { afterAll, beforeAll } from "vitest";
import { loadPages } from "./page-build.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "./test-app.ts";

/**
 * For a test file: one app (one database) for the whole file, serving the real pages (the route modules,
 * compiled in-process by Vite) as well as the API, both configured by `env`. Read `.app` inside tests.
 */
export function useAppWithPages(env: NodeJS.ProcessEnv = {}) {
  let pages: Awaited<ReturnType<typeof loadPages>> | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    pages = await loadPages(TEST_ORIGIN, env);
    app = await createTestApp(env, { handler: pages.handler, personalParts: pages.personalParts });
  }, 120_000);
  afterAll(async () => {
    await app?.cleanup();
    await pages?.close();
  });
  return {
    get app(): TestApp {
      if (!app) throw new Error("the app exists only inside a test");
      return app;
    },
  };
}
