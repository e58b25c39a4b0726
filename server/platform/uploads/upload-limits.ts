import { messages } from "#common/shared/messages.ts";
import type { RateLimiter, RateRule } from "../rate-limit/rate-limit.ts";

/** Per account and per client address, in ten minutes: one rule for every way a shopper can send a picture. */
const PER_ACCOUNT = 10;
const PER_ADDRESS = 30;
const WINDOW_MS = 10 * 60_000;

export interface UploadLimits {
  perAccount: RateRule;
  perAddress: RateRule;
}

/**
 * A shopper's pictures, counted per account and per address under counters of their own (`${counter}-account`,
 * `${counter}-ip`): what is counted differs (a picture decoded, an upload started), the limits and the refusal
 * do not.
 */
export function uploadLimits(counter: string): UploadLimits {
  return {
    perAccount: { name: `${counter}-account`, limit: PER_ACCOUNT, windowMs: WINDOW_MS, message: messages.images.tooManyUploads },
    perAddress: { name: `${counter}-ip`, limit: PER_ADDRESS, windowMs: WINDOW_MS, message: messages.images.tooManyUploads },
  };
}

/** Counts one against both limits; past either, refuses with TooManyRequestsError (429). */
export async function countUpload(rateLimiter: RateLimiter, limits: UploadLimits, accountId: string, clientIp: string | null): Promise<void> {
  await rateLimiter.hit(limits.perAccount, accountId);
  await rateLimiter.hit(limits.perAddress, clientIp ?? "unknown");
}
