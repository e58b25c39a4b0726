import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * AUTH_SECRET when set; otherwise one generated on first start and kept in DATA_DIR/auth-secret (README.md,
 * Configuration), so a single server needs no setting and its sessions survive a restart.
 * Created exclusively, so two processes starting together end up with the same secret.
 */
export async function loadAuthSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, "auth-secret");
  try {
    await writeFile(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return (await readFile(file, "utf8")).trim();
}
