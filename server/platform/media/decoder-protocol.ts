import { InvalidInputError, ServiceError, TooManyRequestsError, type FieldErrors } from "../errors.ts";

// What crosses between the decoder pool (./decoder-pool.ts, in the server process) and a decoder process
// (./decoder-process.ts): both sides import this, and neither the other's code.

/** A picture to decode, as the decoder process receives it. */
export type DecodeJob = { kind: "square"; data: Uint8Array; size: number } | { kind: "variants"; data: Uint8Array };

/** A refusal crossing the process boundary: enough to make the same ServiceError again. */
export interface Refusal {
  status: ServiceError["status"];
  message: string;
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
}

/**
 * What a decoder process sends: `ready` once, when it can take pictures; while it decodes one, the CPU time it has
 * spent on it so far, every CPU_REPORT_MS; then its answer.
 */
export type DecoderMessage = { ready: true } | { cpuMs: number } | { ok: true; value: unknown } | { ok: false; refusal: Refusal };

/** How often a decoder says how much CPU time its picture has taken: the CPU limit is kept to about this much. */
export const CPU_REPORT_MS = 100;

/** A ServiceError raised in the decoder process, as it crosses to the server process. */
export function toRefusal(error: ServiceError): Refusal {
  const retryAfterSeconds = error instanceof TooManyRequestsError ? error.retryAfterSeconds : undefined;
  return { status: error.status, message: error.message, fieldErrors: error.fieldErrors, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
}

/** The same ServiceError again, in the server process. */
export function fromRefusal(refusal: Refusal): ServiceError {
  if (refusal.status === 429) return new TooManyRequestsError(refusal.message, refusal.retryAfterSeconds ?? 5);
  if (refusal.status === 400) return new InvalidInputError(refusal.message, refusal.fieldErrors);
  return new ServiceError(refusal.status, refusal.message, refusal.fieldErrors);
}
