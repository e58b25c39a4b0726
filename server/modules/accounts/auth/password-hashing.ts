import { hash, verify, type Algorithm } from "@node-rs/argon2";

// The library declares its algorithms as a const enum, which isolated modules cannot read: Argon2id is 2.
const ARGON2ID = 2 as Algorithm.Argon2id;

// OWASP's minimum for argon2id (Password Storage Cheat Sheet): 19 MiB of memory, 2 iterations, 1 lane.
// Better Auth's default scrypt parameters are below OWASP's minimum, so we hash ourselves.
export const ARGON2_PARAMS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  if (!stored.startsWith("$argon2")) return false;
  return verify(stored, password);
}
