// A stand-in decoder process for server/platform/media/decoder-pool.test.ts: given a picture, it says it has spent
// a minute of CPU time on it, and then never answers — what a real decoder inside a costly drawing reports.
process.on("message", () => {
  process.send?.({ cpuMs: 60_000 });
  // Kept alive, as a decoder in the middle of its work is, until the pool kills it.
  setInterval(() => {}, 1_000);
});
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true });
