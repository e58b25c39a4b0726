import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals short texts for cookies the shop sets itself (decision 011): AES-256-GCM under a key derived from the
 * auth secret, so the browser holds neither the text in clear nor anything it could alter unseen. `purpose`
 * is authenticated too: a value sealed for one cookie cannot be replayed as another.
 */
export function createSealer(secret: string) {
  const key = Buffer.from(hkdfSync("sha256", secret, "plant-shop", "sealed cookie values", 32));
  return {
    seal(purpose: string, text: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(purpose));
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
    },
    /** The text, or null for anything that was not sealed by `seal(purpose, …)` under this secret. */
    open(purpose: string, value: string): string | null {
      const bytes = Buffer.from(value, "base64url");
      if (bytes.length < IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES)).setAAD(Buffer.from(purpose));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}

export type Sealer = ReturnType<typeof createSealer>;
