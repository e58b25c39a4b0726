import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startSmtpCapture, type SmtpCapture } from "./smtp-capture.ts";
import type { ComposeOptions } from "../../server/compose.ts";
import { createTestApp, type TestApp } from "./test-app.ts";

/**
 * For a test file: one loopback SMTP server for the whole file, and a fresh app (own database) per test whose
 * mail goes to it. Read `.app` and `.capture` inside tests.
 */
export function useAppWithMail(env: NodeJS.ProcessEnv = {}, shop: ComposeOptions = {}) {
  let capture: SmtpCapture | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    capture = await startSmtpCapture();
  });
  afterAll(async () => {
    await capture?.close();
  });
  beforeEach(async () => {
    app = await createTestApp({ SMTP_URL: capture!.url, ...env }, undefined, undefined, shop);
  });
  afterEach(async () => {
    await app?.cleanup();
  });
  return {
    get app(): TestApp {
      if (!app) throw new Error("the app exists only inside a test");
      return app;
    },
    get capture(): SmtpCapture {
      if (!capture) throw new Error("the SMTP capture exists only inside a test");
      return capture;
    },
  };
}
