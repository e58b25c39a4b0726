import path from "node:path";
import type { ServerBuild } from "react-router";
import { loadConfig } from "../../server/config.ts";
import { createPageHandler, createPersonalParts, type PageHandler, type PersonalParts } from "../../server/pages.ts";

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * The shop's real pages (loaders and actions) in-process, compiled by Vite from the sources as in development,
 * but handled in production mode (errors reach the browser without their stack). No build needed.
 */
export async function loadPages(
  publicUrl: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ handler: PageHandler; personalParts: PersonalParts; close(): Promise<void> }> {
  const { createServer } = await import("vite");
  const vite = await createServer({
    root: PROJECT_ROOT,
    logLevel: "silent",
    appType: "custom",
    server: { middlewareMode: true, hmr: false, watch: null },
  });
  const build = (await vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
  // The shop's public settings (name, shipping fee, time zone) as the app's own configuration has them.
  const { shop } = loadConfig({ NODE_ENV: "test", DATA_DIR: "./unused", ...env, PUBLIC_URL: publicUrl });
  return { handler: createPageHandler(build, "production", shop), personalParts: createPersonalParts(build), close: () => vite.close() };
}
