import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { createDecoderPool, type DecoderPool } from "./decoder-pool.ts";
import { createMediaService } from "./media.ts";

// Decoder processes: a decode past its limit, or still running at shutdown, ends with its process killed and its
// picture refused. The decoder here is a stand-in that never finishes (tests/support/spinning-decoder.ts), so the
// limits can be tiny and no slow picture is needed.

const SPINNING = path.resolve("tests/support/spinning-decoder.ts");
const picture = { kind: "square" as const, data: new Uint8Array([1, 2, 3]), size: 8 };

/** Whether a process with this id exists (signal 0 only asks). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Waits (up to 20 s) until the pool has started a decoder process, and answers its id. */
async function startedDecoder(pool: DecoderPool): Promise<number> {
  for (let tries = 0; tries < 400; tries++) {
    const [pid] = pool.pids();
    if (pid !== undefined) return pid;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no decoder process was started");
}

let pool: DecoderPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("decoder pool", () => {
  it("kills a decoder process that runs past its limit and refuses the picture as too slow", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, timeoutMs: 100, entry: SPINNING });
    const decoding = pool.run(picture);
    const pid = await startedDecoder(pool);

    await expect(decoding).rejects.toMatchObject({ status: 400, message: messages.images.tooSlow, fieldErrors: { image: messages.images.tooSlow } });
    expect(exists(pid)).toBe(false);
    expect(pool.pids()).toEqual([]);
  });

  it("refuses a picture as busy when every decoder is taken and the queue is full", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 0, timeoutMs: 60_000, entry: SPINNING });
    const decoding = pool.run(picture);
    decoding.catch(() => {});
    await expect(pool.run(picture)).rejects.toMatchObject({ status: 429, message: messages.images.busy, retryAfterSeconds: 5 });
  });

  it("on close, kills the decode in progress and refuses it and the pictures waiting as restarting", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 4, timeoutMs: 60_000, entry: SPINNING });
    const decoding = pool.run(picture);
    const waiting = pool.run(picture);
    const pid = await startedDecoder(pool);
    const outcomes = Promise.allSettled([decoding, waiting]);

    await pool.close(0);
    for (const outcome of await outcomes) expect(outcome).toMatchObject({ status: "rejected", reason: { status: 429, message: messages.images.restarting } });
    expect(exists(pid)).toBe(false);
    await expect(pool.run(picture)).rejects.toMatchObject({ status: 429, message: messages.images.restarting });
  });

  it("keeps a decoder process warm between pictures: the real decoder takes a second picture in the same process", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, timeoutMs: 60_000 });
    const drawing = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    await pool.run({ kind: "square", data: drawing, size: 8 });
    const [first] = pool.pids();
    await pool.run({ kind: "square", data: drawing, size: 8 });
    expect(pool.pids()).toEqual([first]);
  });
  it("starts a fresh decoder process when the warm one was killed from outside while it waited", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, timeoutMs: 60_000 });
    const drawing = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    await pool.run({ kind: "square", data: drawing, size: 8 });
    const [warm] = pool.pids();
    process.kill(warm!, "SIGKILL");
    await expect.poll(() => pool!.pids(), { timeout: 20_000 }).toEqual([]);

    await pool.run({ kind: "square", data: drawing, size: 8 });
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()).not.toContain(warm);
  });
});

describe("media service close", () => {
  it("answers a picture being decoded at shutdown as restarting, within the grace it is given, and leaves no decoder", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, timeoutMs: 60_000, entry: SPINNING });
    const media = createMediaService({ mediaDir: path.resolve("unused-media-dir"), decoders: pool });
    const amber = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#d2781e"/></svg>';
    const saving = media.saveSquareImage(new TextEncoder().encode(amber));
    const pid = await startedDecoder(pool);

    await media.close(0);
    await expect(saving).rejects.toMatchObject({ status: 429, message: messages.images.restarting });
    expect(exists(pid)).toBe(false);
    await expect(media.saveSquareImage(new TextEncoder().encode(amber))).rejects.toMatchObject({ status: 429, message: messages.images.restarting });
  });
});
