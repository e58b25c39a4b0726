// A stand-in decoder process for server/platform/media/decoder-pool.test.ts: ready at once, then busy for good
// with the first picture it is given, the way librsvg was with a costly drawing (a loop that never yields, so
// only a signal that cannot be caught ends it).
process.on("message", () => {
  for (;;) {
    // spinning
  }
});
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true });
