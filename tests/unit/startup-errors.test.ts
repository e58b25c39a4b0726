import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "../../common/shared/messages.ts";

const run = promisify(execFile);
let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the server started with a bad ADMIN_PASSWORD", () => {
  it("stops before it listens, with a message naming the variable and no stack trace", async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "plant-shop-startup-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: "4459",
      DATA_DIR: dataDir,
      SEED_SAMPLE_DATA: "false",
      ADMIN_EMAIL: "owner@nursery.example",
      ADMIN_PASSWORD: "password123",
    };
    delete env.SMTP_URL;
    delete env.DATABASE_URL;
    const failure = await run(path.resolve("node_modules/.bin/tsx"), ["server/main.ts"], { env }).then(
      () => undefined,
      (error: { code?: number; stderr?: string; stdout?: string }) => error,
    );
    expect(failure, "the server must not start").toBeDefined();
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`ADMIN_PASSWORD: ${messages.validation.passwordTooCommon}`);
    expect(failure?.stderr).not.toMatch(/^\s+at /m);
    expect(failure?.stdout).not.toContain("Plant Shop is ready");
  }, 60_000);
});
