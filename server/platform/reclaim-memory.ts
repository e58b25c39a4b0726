import vm from "node:vm";

/**
 * Asks V8 for a full garbage collection now, in a production process (no --expose-gc). What many closed
 * connections leave behind is garbage in V8's old generation, and V8 starts a full collection only when the heap
 * grows again: an idle server never does, so it kept that memory indefinitely (decision 033). An eager memory
 * measurement is the one public call that makes V8 collect: it marks the whole heap, frees what is dead, and that
 * collection lets V8's memory reducer give the emptied pages back to the system. It costs one full collection (a
 * few tens of ms on this shop's heap), so it is for rare moments, not for every request.
 *
 * vm.measureMemory is marked experimental and prints a one-time ExperimentalWarning, which would be the one
 * non-JSON line on the server's stderr; warnings are held back for this call only. Resolves once the collection is
 * done (callers need not wait).
 */
export function collectGarbage(): Promise<void> {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return vm.measureMemory({ mode: "summary", execution: "eager" }).then(
      () => undefined,
      () => undefined,
    );
  } catch {
    // A Node without it (it is experimental): the garbage waits for V8's own next collection.
    return Promise.resolve();
  } finally {
    process.emitWarning = emitWarning;
  }
}
