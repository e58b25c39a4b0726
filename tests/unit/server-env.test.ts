import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PRODUCTION_NODE_FLAGS, serverEnvironment } from "../support/server-env.ts";

/** The environment a child process actually gets from `env`, as it reports it. */
function seenByChild(env: Record<string, string | undefined>): Record<string, string> {
  return JSON.parse(execFileSync(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], { env, encoding: "utf8" })) as Record<string, string>;
}

describe("serverEnvironment", () => {
  const shell = {
    PATH: process.env.PATH,
    HOME: "/home/someone",
    DATABASE_URL: "postgres://someone@db.example/production",
    SHIPPING_FEE_PAISE: "0",
    SMTP_URL: "smtp://mail.example",
    AUTH_SECRET: "a-secret-from-the-shell-0123456789abcdef",
  };

  it("keeps the caller's shop settings away from the server even when the spawner merges process.env under it", () => {
    // Playwright's webServer spawns with { ...process.env, ...webServer.env }.
    const child = seenByChild({ ...shell, ...serverEnvironment({ PORT: "4477", DATA_DIR: "/tmp/e2e" }, shell) });
    expect(child).toMatchObject({ PATH: process.env.PATH, HOME: "/home/someone", PORT: "4477", DATA_DIR: "/tmp/e2e" });
    for (const name of ["DATABASE_URL", "SHIPPING_FEE_PAISE", "SMTP_URL", "AUTH_SECRET"]) expect(child).not.toHaveProperty(name);
  });

  it("lets the test's own settings win over the machine's", () => {
    expect(seenByChild(serverEnvironment({ HOME: "/tmp/shop-home", DATABASE_URL: "postgres://127.0.0.1/e2e" }, shell))).toMatchObject({
      HOME: "/tmp/shop-home",
      DATABASE_URL: "postgres://127.0.0.1/e2e",
    });
  });
});

describe("PRODUCTION_NODE_FLAGS", () => {
  it("are exactly the flags of package.json's start and serve and of the Dockerfile's CMD, so tests and benches run what production runs", () => {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    for (const name of ["start", "serve"]) {
      expect(/exec node (.*) build\/server\/main\.js/.exec(scripts[name] ?? "")?.[1]?.split(" ")).toEqual(PRODUCTION_NODE_FLAGS);
    }
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync("Dockerfile", "utf8"))?.[1];
    expect(JSON.parse(cmd ?? "[]")).toEqual(["node", ...PRODUCTION_NODE_FLAGS, "build/server/main.js"]);
  });

  it("are accepted by this node (it refuses to start on a flag it does not know)", () => {
    expect(execFileSync(process.execPath, [...PRODUCTION_NODE_FLAGS, "-e", "process.stdout.write('started')"], { encoding: "utf8" })).toBe("started");
  });
});
