import { afterEach, beforeEach, expect, vi } from "vitest";

// A console.error during a test fails it: an error the code logs is a defect the test would otherwise pass over.
let calls: unknown[][] = [];

beforeEach(() => {
  calls = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    calls.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  expect(calls, "console.error was called during the test").toEqual([]);
});
