import { readFileSync } from "node:fs";

// What the benches read of a process from Linux's /proc.

/**
 * A process's resident memory in MB: `VmRSS` now, or `VmHWM`, the most it has held since it started. NaN when the
 * field is missing.
 */
export function residentMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? Number.NaN : Number(kb) / 1024;
}

/** /proc counts CPU time in clock ticks (USER_HZ = 100). */
export const TICK_MS = 1000 / 100;

/** The CPU time (user + system) a process has used so far, in ms; undefined when it cannot be read. */
export function cpuMs(pid: number | string | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/**
 * The process that does the work under `pid`: its first child's, recursively (tsx runs a program in a child
 * process of its own), or `pid` itself when it has none or its children cannot be read.
 */
export function innermostPid(pid: number): number {
  let children: string[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  } catch {
    return pid;
  }
  return children.length ? innermostPid(Number(children[0])) : pid;
}
