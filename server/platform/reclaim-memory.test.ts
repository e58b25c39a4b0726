import { describe, expect, it, vi } from "vitest";
import { collectGarbage } from "./reclaim-memory.ts";

/** Something only a WeakRef points to, made in a turn of its own (a WeakRef keeps its target until the turn ends). */
async function garbage(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: new Array(1000).fill("garbage") });
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
}

describe("collectGarbage", () => {
  it("makes V8 collect what nothing holds, in a process without --expose-gc, printing no warning", async () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    const warned = vi.fn();
    process.on("warning", warned);
    try {
      const ref = await garbage();
      expect(ref.deref()).toBeDefined();
      await collectGarbage();
      expect(ref.deref()).toBeUndefined();
      expect(warned).not.toHaveBeenCalled();
    } finally {
      process.off("warning", warned);
    }
  });
});
