import { afterAll, beforeAll } from "vitest";
import { loadPages } from "./page-build.ts";
import { startSmtpCapture, type SmtpCapture } from "./smtp-capture.ts";
import { createTestApp, TEST_ORIGIN, type TestApp } from "./test-app.ts";

/**
 * For a test file: one app (one database) for the whole file, serving the real pages (the route modules,
 * compiled in-process by Vite) as well as the API, both configured by `env` (its PUBLIC_URL, TEST_ORIGIN unless
 * given, is the origin to request). Read `.app` inside tests. With `mail`, the app's mail goes to a loopback SMTP
 * server of the file's, read as `.capture`.
 */
export function useAppWithPages(env: NodeJS.ProcessEnv = {}, { mail = false }: { mail?: boolean } = {}) {
  let pages: Awaited<ReturnType<typeof loadPages>> | undefined;
  let app: TestApp | undefined;
  let capture: SmtpCapture | undefined;
  beforeAll(async () => {
    if (mail) capture = await startSmtpCapture();
    pages = await loadPages(env.PUBLIC_URL ?? TEST_ORIGIN, env);
    app = await createTestApp({ ...env, ...(capture ? { SMTP_URL: capture.url } : {}) }, { handler: pages.handler, personalParts: pages.personalParts });
  }, 120_000);
  afterAll(async () => {
    await app?.cleanup();
    await pages?.close();
    await capture?.close();
  });
  return {
    get app(): TestApp {
      if (!app) throw new Error("the app exists only inside a test");
      return app;
    },
    get capture(): SmtpCapture {
      if (!capture) throw new Error("the SMTP capture exists only inside a test of a file that asked for mail");
      return capture;
    },
  };
}
