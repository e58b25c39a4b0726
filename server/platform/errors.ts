import type { z } from "zod";
import { USER_FACING_ERROR, type ErrorCode } from "#common/shared/user-facing-error.ts";

export type FieldErrors = Record<string, string>;

/** A failure a person can understand; one place (server/platform/http/errors.ts) turns it into an HTTP answer. */
export class ServiceError extends Error {
  readonly [USER_FACING_ERROR] = true;

  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503,
    message: string,
    readonly fieldErrors?: FieldErrors,
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidInputError extends ServiceError {
  constructor(message: string, fieldErrors?: FieldErrors) {
    super(400, message, fieldErrors);
  }
}

export class NotFoundError extends ServiceError {
  constructor(message = "Not found") {
    super(404, message);
  }
}

export class UnauthorizedError extends ServiceError {
  constructor(message = "Please log in first.") {
    super(401, message);
  }
}

export class ForbiddenError extends ServiceError {
  constructor(message = "You are not allowed to do that.") {
    super(403, message);
  }
}

export class ConflictError extends ServiceError {
  constructor(message: string, fieldErrors?: FieldErrors, code?: ErrorCode) {
    super(409, message, fieldErrors, code);
  }
}

/** A conflict about one field of a form, e.g. a username someone else has: its message shows beside that field. */
export function fieldConflict(field: string, message: string): ConflictError {
  return new ConflictError(message, { [field]: message });
}

export class TooManyRequestsError extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/**
 * Something the shop needs is away for a moment (its database): not the caller's fault and not a defect, so
 * answered 503 with Retry-After rather than logged as a failure of ours.
 */
export class ServiceUnavailableError extends ServiceError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message);
  }
}

/** Validates input with its shared schema; the first problem becomes the message, all of them the field errors. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fieldErrors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join(".") || "_";
    fieldErrors[field] ??= issue.message;
  }
  const first = result.error.issues[0];
  const message = first?.path.length ? first.message : "The request is not valid.";
  throw new InvalidInputError(message, fieldErrors);
}

/**
 * Runs `work`; a ServiceError it throws goes on with `prefix` before its message (the API's 'Failed to add
 * review: …', 'Failed to add product to cart: …'), its field errors keeping the bare text for the form.
 */
export function withMessagePrefix<T>(prefix: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ServiceError) throw new ServiceError(error.status, `${prefix} ${error.message}`, error.fieldErrors, error.code);
    throw error;
  }
}
