import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";

// The browser tests' PostgreSQL database (E2E_DATABASE_URL names the server): made afresh for each run, before
// Playwright starts the web server — which happens before global setup, and the config cannot wait for a
// promise — hence a short synchronous child process, the same way the drop runs as the runner exits.

function runSql(adminUrl: string, statement: string) {
  const script = `
    const pg = require("pg");
    const client = new pg.Client({ connectionString: process.env.ADMIN_URL });
    client.connect().then(() => client.query(process.env.STATEMENT)).then(
      () => client.end(),
      (error) => { console.error(error.message); process.exit(1); },
    );`;
  execFileSync(process.execPath, ["-e", script], {
    cwd: path.resolve(import.meta.dirname, "../../.."),
    env: { PATH: process.env.PATH, ADMIN_URL: adminUrl, STATEMENT: statement },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/** Creates an empty database on the server `adminUrl` points at; answers its URL, and drops it when this process exits. */
export function freshPostgresDatabase(adminUrl: string): string {
  const name = `e2e_${randomBytes(6).toString("hex")}`;
  runSql(adminUrl, `create database "${name}"`);
  process.once("exit", () => {
    try {
      runSql(adminUrl, `drop database if exists "${name}" with (force)`);
    } catch {
      console.error(`could not drop the browser tests' database ${name}`);
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}
