import path from "node:path";
import { expect, test } from "@playwright/test";
import { messages } from "../../common/shared/messages.ts";
import { openDatabase } from "../../server/platform/db/client.ts";
import { LONG_LINES_SVG } from "../support/costly-drawings.ts";
import { descendants, extraPort, insertShoppers, isRunning, startShopProcess, stopShopProcess, waitUntilHealthy, type ShopProcess } from "../support/shop-process.ts";

// Shutdown of the compiled server while a picture is being decoded: decoding runs in decoder processes below the
// server (build/server/media-decoder.js), which shutdown kills once its budget is nearly spent, so that a decode in
// native code (librsvg drawing a costly path) neither keeps the process alive nor leaves its request unanswered.
// No browser is needed.

const PORT = extraPort(3);


let shop: ShopProcess | undefined;
test.afterEach(async () => {
  if (shop) await stopShopProcess(shop);
  shop = undefined;
});

test("SIGTERM while a profile picture is being decoded: the picture is answered 429 'restarting', its decoder process is killed, and the server exits 0", async () => {
  test.setTimeout(90_000);
  shop = startShopProcess({ port: PORT, env: { SHUTDOWN_TIMEOUT_SECONDS: "1" } });
  const server = shop;
  await waitUntilHealthy(server);
  const database = openDatabase({ sqliteFile: path.join(server.dataDir, "shop.db") });
  const [shopper] = await insertShoppers(database.db, 1, { password: "monstera-deliciosa-77", prefix: "decoding", dialect: "sqlite" });
  await database.destroy();

  const form = new FormData();
  form.set("image", new File([LONG_LINES_SVG], "lines.svg", { type: "image/svg+xml" }));
  const answer = fetch(`${server.url}/api/profiles/${shopper!.userId}/picture`, {
    method: "POST",
    headers: { Origin: server.url, Cookie: shopper!.cookie },
    body: form,
  }).then(
    async (response) => ({ status: response.status, body: (await response.json()) as unknown }),
    (error: Error) => ({ status: 0, body: error.message }),
  );
  // The server starts its first decoder process for this picture: then the picture is with it.
  await expect.poll(() => descendants(server.child.pid!).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const decoders = descendants(server.child.pid!);

  server.child.kill("SIGTERM");
  expect(await answer).toMatchObject({ status: 429, body: { message: messages.images.restarting } });
  expect(await server.exited).toBe(0);
  expect(decoders.filter(isRunning)).toEqual([]);
});
