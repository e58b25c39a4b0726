import { ServiceError } from "../errors.ts";
import { encodeSquareWebp, encodeVariants } from "./decode.ts";
import { CPU_REPORT_MS, toRefusal, type DecodeJob, type DecoderMessage } from "./decoder-protocol.ts";
import { loadSharp } from "./sharp-input.ts";

// A decoder process (./decoder-pool.ts starts it; ./decoder-protocol.ts says what it is sent and answers): decodes
// one picture at a time as the server process asks, and answers with the encoded files or a refusal. It ends with
// the server process (the IPC channel closes), or when the pool kills it.

const send = (message: DecoderMessage) => process.send?.(message);

process.on("message", (job: DecodeJob) => {
  // libvips and librsvg work on libuv's threads, so this thread is free to say how much CPU time (of every
  // thread) the picture has taken: the server kills this process past its limit.
  const started = process.cpuUsage();
  const reports = setInterval(() => {
    const used = process.cpuUsage(started);
    send({ cpuMs: (used.user + used.system) / 1000 });
  }, CPU_REPORT_MS);
  const work = job.kind === "square" ? encodeSquareWebp(job.data, job.size) : encodeVariants(job.data);
  work.finally(() => clearInterval(reports)).then(
    (value) => send({ ok: true, value }),
    (error: unknown) => {
      // The pipeline answers a ServiceError for anything the bytes cause; anything else is this process's fault,
      // said on its stderr (the server's log) and ended, so that the pool starts a fresh one.
      if (error instanceof ServiceError) {
        send({ ok: false, refusal: toRefusal(error) });
      } else {
        console.error(error);
        process.exit(1);
      }
    },
  );
});
// The server process is gone (or let this one go): end now, even in the middle of a picture. SIGKILL, since an exit
// can wait for the native code of the picture being decoded.
process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));

await loadSharp();
send({ ready: true });
