import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { createProcessLogger } from "./process-logger.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Polls `file` until it contains `text`, within a bound. */
async function untilFileHolds(file: string, text: string, within = 10_000): Promise<void> {
  const deadline = Date.now() + within;
  while (!(existsSync(file) && readFileSync(file, "utf8").includes(text))) {
    if (Date.now() > deadline) throw new Error(`${file} did not hold ${text} within ${within} ms`);
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
  }
}

it("queues log lines instead of writing each one as it is logged, and flush() writes every queued line", async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "plant-shop-log-"));
  folders.push(folder);
  const file = path.join(folder, "server.log");
  const { logger, flush } = createProcessLogger("info", file);
  // The first line is in the file once the file is open, so the lines below go through the queue rather than
  // wait for the opening (and flush() has an open file to write to).
  logger.info({ n: 0 }, "request");
  await untilFileHolds(file, '"n":0');
  for (let n = 1; n < 200; n++) logger.info({ n }, "request");
  // Logged, yet not all written: the writes happen after this turn of the event loop, not inside logger.info().
  const writtenAtOnce = readFileSync(file, "utf8").split("\n").filter(Boolean).length;
  expect(writtenAtOnce).toBeLessThan(200);
  logger.error({ n: 200 }, "failure");
  flush();
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as { n: number; level: number });
  expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 201 }, (_, n) => n));
  expect(lines.at(-1)?.level).toBe(50);
});
