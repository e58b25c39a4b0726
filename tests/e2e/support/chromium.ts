import type { LaunchOptions } from "@playwright/test";

/**
 * Debian's Chromium, as every spec launches it: headless on a machine without a sandbox or a GPU, and with nothing
 * of its own talking to the network (no QUIC, updates, sync or background fetches) while the tests run.
 */
export const CHROMIUM_LAUNCH: LaunchOptions = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
