import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { messages } from "#common/shared/messages.ts";
import { InvalidInputError, TooManyRequestsError } from "../errors.ts";
import { fromRefusal, type DecodeJob, type DecoderMessage } from "./decoder-protocol.ts";

// Untrusted pictures are decoded in child processes, so that a decode can be stopped: librsvg and libvips run
// native code that neither sharp's `timeout` (checked only between libvips' stages) nor a worker thread's
// terminate() can interrupt, and that kept the server process busy, and alive after SIGTERM, for minutes. A
// decoder process that runs past its limit, or is still running when the server stops, is killed with SIGKILL
// and its picture refused. Decoders stay warm between pictures and end after a while with nothing to do.

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * The decoder process's module: the TypeScript beside this file when the sources run (tsx, vitest), else the
 * compiled one beside build/server/main.js, which scripts/build.mjs makes from the same source.
 */
export const DECODER_ENTRY = import.meta.url.endsWith(".ts") ? path.join(here, "decoder-process.ts") : path.join(here, "media-decoder.js");

/** The project's folder when the sources run (this file is server/platform/media/decoder-pool.ts): where tsx is found. */
const SOURCES_ROOT = path.resolve(here, "../../..");

/**
 * A warm decoder (about 80 MB resident in the build) ends after a minute with nothing to do: a burst of pictures
 * (an admin adding a product's images) shares one start (about 0.2 s), an idle shop holds no decoder.
 */
const DECODER_IDLE_MS = 60_000;

export interface DecoderPoolOptions {
  /** Pictures decoded at once, each in its own process. */
  concurrency: number;
  /** Pictures waiting for a decoder beyond this are told to come back. */
  waiting: number;
  /** CPU time (every thread of the decoder) one picture may take before its process is killed and the picture refused. */
  cpuLimitMs: number;
  /**
   * Wall time one picture may take, whatever its CPU time, before the same: for a decoder that cannot report (its
   * main thread blocked) or a machine so busy that the CPU limit would take too long to reach.
   */
  wallLimitMs: number;
  /** A decoder with nothing to do for this long ends, giving its memory back (a warm one spares the next picture a start). */
  idleMs?: number;
  /** The module a decoder process runs: DECODER_ENTRY unless a test gives its own. */
  entry?: string;
}

interface Decoder {
  child: ChildProcess;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  /** Set when the pool ends it: how its running picture is answered. */
  endedBecause?: "timeout" | "closing";
}

export type DecoderPool = ReturnType<typeof createDecoderPool>;

export function createDecoderPool(options: DecoderPoolOptions) {
  const entry = options.entry ?? DECODER_ENTRY;
  const idleMs = options.idleMs ?? DECODER_IDLE_MS;
  const idle: Decoder[] = [];
  const running = new Set<Decoder>();
  const waiting: Array<{ start: () => void; refuse: (error: Error) => void }> = [];
  let slotsInUse = 0;
  let closed = false;

  const restarting = () => new TooManyRequestsError(messages.images.restarting, 5);

  function start(): Decoder {
    const child = fork(entry, [], {
      // Source runs need tsx's loader, found from the project's folder; the build runs plain JavaScript.
      execArgv: entry.endsWith(".ts") ? ["--import", "tsx"] : [],
      ...(entry.endsWith(".ts") ? { cwd: SOURCES_ROOT } : {}),
      // Structured clone: pictures cross as bytes, not as JSON arrays of numbers.
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: DecoderMessage) => {
        if (!("ready" in message)) return;
        child.off("exit", onExit);
        resolve();
      };
      const onExit = () => {
        child.off("message", onMessage);
        reject(new Error("The picture decoder process ended before it was ready."));
      };
      child.once("message", onMessage);
      child.once("exit", onExit);
    });
    // A message that can no longer be sent, or a kill of a process already gone, is answered by the 'exit' path.
    child.on("error", () => {});
    // A failed start is reported to the picture that waited for it (below), not as an unhandled rejection.
    ready.catch(() => {});
    const decoder: Decoder = { child, ready };
    // One that ends while waiting (killed from outside, out of memory) is never handed a picture.
    child.once("exit", () => {
      clearTimeout(decoder.idleTimer);
      const at = idle.indexOf(decoder);
      if (at >= 0) idle.splice(at, 1);
    });
    return decoder;
  }

  /** Lets a decoder wait for the next picture without keeping the process alive; ends it after idleMs. */
  function putBack(decoder: Decoder) {
    decoder.child.unref();
    decoder.child.channel?.unref();
    decoder.idleTimer = setTimeout(() => {
      const at = idle.indexOf(decoder);
      if (at >= 0) idle.splice(at, 1);
      decoder.child.kill("SIGKILL");
    }, idleMs);
    decoder.idleTimer.unref();
    idle.push(decoder);
  }

  function take(): Decoder {
    const decoder = idle.pop() ?? start();
    clearTimeout(decoder.idleTimer);
    decoder.child.ref();
    decoder.child.channel?.ref();
    return decoder;
  }

  async function decodeIn(decoder: Decoder, job: DecodeJob): Promise<unknown> {
    running.add(decoder);
    const { child } = decoder;
    try {
      await decoder.ready;
      if (decoder.endedBecause) throw decoder.endedBecause === "closing" ? restarting() : tooSlow();
      return await new Promise<unknown>((resolve, reject) => {
        // The limits count from when the decoder has the picture: a process start is not the picture's cost.
        const timer = setTimeout(() => end(decoder, "timeout"), options.wallLimitMs);
        const settle = () => {
          clearTimeout(timer);
          child.off("message", onMessage);
          child.off("exit", onExit);
        };
        const onMessage = (message: DecoderMessage) => {
          if ("ready" in message) return;
          if ("cpuMs" in message) {
            if (message.cpuMs > options.cpuLimitMs) end(decoder, "timeout");
            return;
          }
          settle();
          if (message.ok) resolve(message.value);
          else reject(fromRefusal(message.refusal));
        };
        const onExit = () => {
          settle();
          // Killed for its time or by shutdown, answered as such; any other end (a crash, the kernel's
          // out-of-memory killer) was caused by the picture's bytes.
          if (decoder.endedBecause === "closing") reject(restarting());
          else if (decoder.endedBecause === "timeout") reject(tooSlow());
          else reject(unsupported());
        };
        child.on("message", onMessage);
        child.once("exit", onExit);
        child.send(job);
      });
    } catch (error) {
      if (decoder.endedBecause === "closing") throw restarting();
      if (decoder.endedBecause === "timeout") throw tooSlow();
      throw error;
    } finally {
      running.delete(decoder);
      if (child.exitCode === null && child.signalCode === null && !decoder.endedBecause && !closed) putBack(decoder);
      else end(decoder, decoder.endedBecause ?? "closing");
    }
  }

  function end(decoder: Decoder, reason: "timeout" | "closing") {
    decoder.endedBecause ??= reason;
    clearTimeout(decoder.idleTimer);
    decoder.child.kill("SIGKILL");
  }

  return {
    /**
     * Decodes `job` (or what it makes, once its turn comes) in a decoder process: at most `concurrency` at once, in arrival order; beyond `waiting` queued
     * ones the picture is refused as busy (429). A ServiceError the decoder raised comes back as one; a decode
     * past `cpuLimitMs` of CPU or `wallLimitMs` is killed and refused with messages.images.tooSlow.
     */
    async run<T>(job: DecodeJob | (() => Promise<DecodeJob>)): Promise<T> {
      if (closed) throw restarting();
      if (slotsInUse >= options.concurrency) {
        if (waiting.length >= options.waiting) throw new TooManyRequestsError(messages.images.busy, 5);
        await new Promise<void>((resolve, reject) => waiting.push({ start: resolve, refuse: reject }));
      } else {
        slotsInUse++;
      }
      try {
        // A job made once its turn comes (an upload read from disk then) refused while made takes no decoder.
        const ready = typeof job === "function" ? await job() : job;
        if (closed) throw restarting();
        return (await decodeIn(take(), ready)) as T;
      } finally {
        // The slot passes straight to the next picture in line, or is given back.
        const next = waiting.shift();
        if (next) next.start();
        else slotsInUse--;
      }
    },

    /** The process ids of the decoders now running or waiting warm (for tests and benches). */
    pids(): number[] {
      return [...running, ...idle].map((decoder) => decoder.child.pid).filter((pid): pid is number => pid !== undefined);
    },

    /**
     * Stops for good: pictures waiting are refused at once, warm decoders end, and pictures being decoded get
     * `graceMs` to finish before their processes are killed (their callers answered "restarting"). Resolves once
     * every decoder process has exited.
     */
    async close(graceMs = 0): Promise<void> {
      closed = true;
      for (const queued of waiting.splice(0)) queued.refuse(restarting());
      const exits = [...idle, ...running].map((decoder) =>
        decoder.child.exitCode !== null || decoder.child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => decoder.child.once("exit", () => resolve())),
      );
      for (const decoder of idle.splice(0)) end(decoder, "closing");
      const killer = setTimeout(() => {
        for (const decoder of running) end(decoder, "closing");
      }, graceMs);
      await Promise.all(exits);
      clearTimeout(killer);
    },
  };
}

function tooSlow(): InvalidInputError {
  return new InvalidInputError(messages.images.tooSlow, { image: messages.images.tooSlow });
}

function unsupported(): InvalidInputError {
  return new InvalidInputError(messages.images.unsupported, { image: messages.images.unsupported });
}
