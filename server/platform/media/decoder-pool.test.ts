import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { messages } from "#common/shared/messages.ts";
import { LONG_LINES_SVG } from "../../../tests/support/costly-drawings.ts";
import { createDecoderPool, type DecoderPool } from "./decoder-pool.ts";
import { createMediaService } from "./media.ts";

// Decoder processes: a decode past its limit, or still running at shutdown, ends with its process killed and its
// picture refused. The decoder here is mostly a stand-in that never finishes (tests/support/spinning-decoder.ts), so the
// limits can be tiny and no slow picture is needed; another stand-in reports more CPU time than allowed.

const SPINNING = path.resolve("tests/support/spinning-decoder.ts");
const CPU_HUNGRY = path.resolve("tests/support/cpu-hungry-decoder.ts");
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
  it("kills a decoder process that reports more CPU time than its limit and refuses the picture as too slow", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 1_000, wallLimitMs: 600_000, entry: CPU_HUNGRY });
    const decoding = pool.run(picture);
    const pid = await startedDecoder(pool);

    await expect(decoding).rejects.toMatchObject({ status: 400, message: messages.images.tooSlow });
    expect(exists(pid)).toBe(false);
  });

  it("the real decoder reports its CPU time: a drawing of 30,000 long lines is killed at a 1 ms CPU limit and refused as too slow", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 1, wallLimitMs: 600_000 });
    const decoding = pool.run({ kind: "square", data: new TextEncoder().encode(LONG_LINES_SVG), size: 256 });
    const pid = await startedDecoder(pool);

    await expect(decoding).rejects.toMatchObject({ status: 400, message: messages.images.tooSlow });
    expect(exists(pid)).toBe(false);
  });

  it("kills a decoder process that runs past its wall-time limit without a word and refuses the picture as too slow", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 60_000, wallLimitMs: 100, entry: SPINNING });
    const decoding = pool.run(picture);
    const pid = await startedDecoder(pool);

    await expect(decoding).rejects.toMatchObject({ status: 400, message: messages.images.tooSlow, fieldErrors: { image: messages.images.tooSlow } });
    expect(exists(pid)).toBe(false);
    expect(pool.pids()).toEqual([]);
  });

  it("refuses a picture as busy when every decoder is taken and the queue is full", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 0, cpuLimitMs: 60_000, wallLimitMs: 60_000, entry: SPINNING });
    const decoding = pool.run(picture);
    decoding.catch(() => {});
    await expect(pool.run(picture)).rejects.toMatchObject({ status: 429, message: messages.images.busy, retryAfterSeconds: 5 });
  });

  it("on close, kills the decode in progress and refuses it and the pictures waiting as restarting", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 4, cpuLimitMs: 60_000, wallLimitMs: 60_000, entry: SPINNING });
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
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 60_000, wallLimitMs: 60_000 });
    const drawing = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    await pool.run({ kind: "square", data: drawing, size: 8 });
    const [first] = pool.pids();
    await pool.run({ kind: "square", data: drawing, size: 8 });
    expect(pool.pids()).toEqual([first]);
  });
  it("starts a fresh decoder process when the warm one was killed from outside while it waited", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 60_000, wallLimitMs: 60_000 });
    const drawing = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>');
    await pool.run({ kind: "square", data: drawing, size: 8 });
    const [warm] = pool.pids();
    process.kill(warm!, "SIGKILL");
    await expect.poll(() => pool!.pids(), { timeout: 20_000 }).toEqual([]);

    await pool.run({ kind: "square", data: drawing, size: 8 });
    expect(pool.pids()).toHaveLength(1);
    expect(pool.pids()).not.toContain(warm);
    // Bounded by the poll's own 20 s, not the default 5 s: two processes start and one dies on a busy machine.
  }, 30_000);
});

describe("media service close", () => {
  it("answers a picture being decoded at shutdown as restarting, within the grace it is given, and leaves no decoder", async () => {
    pool = createDecoderPool({ concurrency: 1, waiting: 1, cpuLimitMs: 60_000, wallLimitMs: 60_000, entry: SPINNING });
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
