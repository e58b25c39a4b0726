import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FALLBACK_OPEN_FILE_LIMIT, openFileLimit, parseMaxOpenFiles } from "./open-file-limit.ts";

const limits = (soft: string, hard: string) =>
  [
    "Limit                     Soft Limit           Hard Limit           Units     ",
    "Max processes             63439                63439                processes ",
    `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     `,
    "Max locked memory         8388608              8388608              bytes     ",
  ].join("\n");

describe("the open-file limit", () => {
  it("reads the soft limit of Linux's /proc/<pid>/limits, 'unlimited' as no limit", () => {
    expect(parseMaxOpenFiles(limits("20000", "1048576"))).toBe(20_000);
    expect(parseMaxOpenFiles(limits("unlimited", "unlimited"))).toBe(Number.POSITIVE_INFINITY);
    expect(parseMaxOpenFiles("Max processes 1 1 processes")).toBeUndefined();
  });

  it("falls back to a constant where the limits cannot be read or make no sense", () => {
    expect(openFileLimit(() => limits("4096", "4096"))).toBe(4096);
    expect(
      openFileLimit(() => {
        throw new Error("ENOENT: no /proc here");
      }),
    ).toBe(FALLBACK_OPEN_FILE_LIMIT);
    expect(openFileLimit(() => limits("-1", "0"))).toBe(FALLBACK_OPEN_FILE_LIMIT);
  });

  it("reads this process's own soft limit from /proc/self/limits (the tests run on Linux)", () => {
    expect(openFileLimit()).toBe(parseMaxOpenFiles(readFileSync("/proc/self/limits", "utf8")));
  });
});
