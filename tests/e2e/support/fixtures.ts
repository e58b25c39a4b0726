import { readFileSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";
import { openDatabase, type Database } from "../../../server/platform/db/client.ts";

/**
 * The e2e server's own database, for arranging data and checking what a page stored: the SQLite file in its data
 * folder, or the fresh PostgreSQL database playwright.config.ts made for it when E2E_DATABASE_URL is set.
 */
export function openShopDatabase(): Database {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is set by playwright.config.ts");
  const databaseUrl = process.env.E2E_SERVER_DATABASE_URL;
  return databaseUrl ? openDatabase({ databaseUrl, poolSize: 4 }) : openDatabase({ sqliteFile: path.join(dataDir, "shop.db") });
}

const axeSource = readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document);
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
}

/**
 * Every test fails on a browser console error or an uncaught page error — among them a script or style
 * that the Content-Security-Policy blocked.
 */
export const test = base.extend<{ shopDb: Database; consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors, "the browser reported errors").toEqual([]);
    },
    { auto: true },
  ],
  shopDb: async ({}, use) => {
    const database = openShopDatabase();
    await use(database);
    await database.destroy();
  },
});

/**
 * Chrome logs every 4xx answer as a console error, also those a test provokes on purpose (409 for a plant
 * that ran short, 403 for a forbidden page, 404 for someone else's order), and the fixture fails a test on
 * any console error; this drops only those statuses' lines.
 */
export function allowStatusLogs(consoleErrors: string[], ...statuses: number[]) {
  const expected = new RegExp(`^Failed to load resource: the server responded with a status of (${statuses.join("|")}) `);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !expected.test(error)));
}

export { expect };
