import { readFileSync } from "node:fs";

/**
 * A process's resident memory in MB, from Linux's /proc: `VmRSS` now, or `VmHWM`, the most it has held since it
 * started. NaN when the field is missing.
 */
export function residentMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}
