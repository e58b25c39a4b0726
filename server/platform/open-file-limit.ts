import { readFileSync } from "node:fs";

/**
 * What the process is assumed to have where its limit cannot be read (not Linux): the soft limit most systems
 * start a shell with. Node raises its soft limit to the hard one at start-up, so this undercounts rather than
 * overcounts, which only makes the stream cap smaller.
 */
export const FALLBACK_OPEN_FILE_LIMIT = 1024;

/**
 * The soft "Max open files" of a /proc/<pid>/limits text: a number, Infinity for "unlimited", undefined when the
 * line is missing or unreadable.
 */
export function parseMaxOpenFiles(limits: string): number | undefined {
  const soft = /^Max open files\s+(\S+)\s+\S+/m.exec(limits)?.[1];
  if (soft === undefined) return undefined;
  if (soft === "unlimited") return Number.POSITIVE_INFINITY;
  const value = Number(soft);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * How many files (sockets included) this process may have open at once: the soft RLIMIT_NOFILE, read from
 * /proc/self/limits on Linux (Node exposes no getrlimit), FALLBACK_OPEN_FILE_LIMIT elsewhere.
 */
export function openFileLimit(readLimits: () => string = () => readFileSync("/proc/self/limits", "utf8")): number {
  try {
    return parseMaxOpenFiles(readLimits()) ?? FALLBACK_OPEN_FILE_LIMIT;
  } catch {
    return FALLBACK_OPEN_FILE_LIMIT;
  }
}
