import { describe, expect, it } from "vitest";
import { freeDiskSpace } from "./free-disk-space.ts";

/** A statfs that counts its calls and answers `free` bytes (in 4 KiB blocks) at the moment it is called. */
function fakeStatfs(free: { bytes: number }) {
  const calls: string[] = [];
  return {
    calls,
    statfs: (directory: string) => {
      calls.push(directory);
      return Promise.resolve({ bavail: free.bytes / 4096, bsize: 4096 });
    },
  };
}

describe("the free space of the uploads folder's disk", () => {
  it("is the blocks available to the shop times their size, read once per second however many ask (the clock is the test's)", async () => {
    const free = { bytes: 4096 * 1000 };
    const disk = fakeStatfs(free);
    let now = 0;
    const available = freeDiskSpace({ directory: "/data/uploads", statfs: disk.statfs, now: () => now });

    expect(await Promise.all(Array.from({ length: 50 }, () => available()))).toEqual(Array(50).fill(4096 * 1000));
    free.bytes = 4096 * 10;
    now = 999;
    expect(await available()).toBe(4096 * 1000);
    expect(disk.calls).toEqual(["/data/uploads"]);

    now = 1000;
    expect(await available()).toBe(4096 * 10);
    expect(disk.calls).toHaveLength(2);
  });

  it("does not keep a failed reading: the next caller asks the disk again", async () => {
    let fail = true;
    const available = freeDiskSpace({
      directory: "/data/uploads",
      statfs: () => (fail ? Promise.reject(new Error("EIO")) : Promise.resolve({ bavail: 2, bsize: 4096 })),
      now: () => 0,
    });
    await expect(available()).rejects.toThrow("EIO");
    fail = false;
    expect(await available()).toBe(8192);
  });

  it("reads the real disk when no statfs is given", async () => {
    expect(await freeDiskSpace({ directory: "." })()).toBeGreaterThan(0);
  });
});
