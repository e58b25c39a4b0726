import { readdirSync, readFileSync } from "node:fs";
import { descendants } from "../tests/support/shop-process.ts";

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
 * The CPU time (user + system, in ms) of `pid` and of every live process below it (a server's decoder processes),
 * plus what its children that have ended and been waited for used (cutime, cstime): a killed decoder's work too.
 */
export function treeCpuMs(pid: number): number {
  let total = 0;
  for (const each of [pid, ...descendants(pid)]) total += cpuMs(each) ?? 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return total + (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return total;
  }
}

/** Each live `postgres` process's CPU time so far, by pid. */
export function postgresCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    const ms = cpuMs(pid);
    if (ms !== undefined) byPid.set(pid, ms);
  }
  return byPid;
}

/** The machine's busy and total CPU time so far, all cores, from the first line of /proc/stat. */
export function machineCpuMs(): { busy: number; total: number } {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
  const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!;
  return { busy: (total - idle! - iowait!) * TICK_MS, total: total * TICK_MS };
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
