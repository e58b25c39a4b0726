import { statfs as statfsOnDisk } from "node:fs/promises";

/** How many bytes the file system holding a folder still has for the shop (what an unprivileged process may use). */
export type FreeDiskSpace = () => Promise<number>;

export interface FreeDiskSpaceOptions {
  /** Any folder on the file system to measure (the uploads folder: the database lives beside it in DATA_DIR). */
  directory: string;
  /** How long one reading is reused: new uploads come in bursts, and each needs the figure. */
  cacheMs?: number;
  /** The file system's figures; node's own unless given (tests count the calls). */
  statfs?: (directory: string) => Promise<{ bavail: number; bsize: number }>;
  /** The clock the cache reads; Date.now unless given. */
  now?: () => number;
}

/**
 * The free space of the file system under `directory`, read at most once per `cacheMs` (one second by default):
 * a burst of new uploads shares one statfs call, and callers that ask while it runs wait for that same call. The
 * figure is blocks available to unprivileged users (`bavail`), not `bfree`: the root reserve is not the shop's.
 */
export function freeDiskSpace({ directory, cacheMs = 1000, statfs = statfsOnDisk, now = Date.now }: FreeDiskSpaceOptions): FreeDiskSpace {
  let reading: { at: number; bytes: Promise<number> } | undefined;
  return () => {
    const at = now();
    if (!reading || at - reading.at >= cacheMs) {
      const bytes = statfs(directory).then((figures) => figures.bavail * figures.bsize);
      // A failed reading is not kept: the next caller asks again.
      bytes.catch(() => {
        if (reading?.bytes === bytes) reading = undefined;
      });
      reading = { at, bytes };
    }
    return reading.bytes;
  };
}
