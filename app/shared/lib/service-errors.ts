import { data } from "react-router";
import { isUserFacingError, type ErrorCode } from "#common/shared/user-facing-error.ts";

/**
 * Runs a service call for a page: a failure meant for people becomes the page's own error answer with its
 * status and message (shown by the nearest error boundary), never a 500.
 */
export async function loadOrRefuse<T>(load: () => Promise<T>, { malformedIsMissing = false } = {}): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isUserFacingError(error)) throw error;
    const status = malformedIsMissing && error.status === 400 ? 404 : error.status;
    throw data({ message: error.message }, { status });
  }
}

/** loadOrRefuse for a page about one record: a malformed id is as missing as an unknown one (404). */
export function loadOr404<T>(load: () => Promise<T>): Promise<T> {
  return loadOrRefuse(load, { malformedIsMissing: true });
}

export interface ActionFailure {
  ok: false;
  message: string;
  fieldErrors: Record<string, string>;
  code?: ErrorCode;
}

/**
 * Runs a service call for a form: user-facing failures come back as the form's errors with their status.
 * `tag` is added to both outcomes (e.g. which of a page's forms was sent).
 */
export async function actionResult<T extends object, Tag extends object = object>(run: () => Promise<T>, tag?: Tag) {
  try {
    return { ok: true as const, ...(tag as Tag), ...(await run()) };
  } catch (error) {
    if (!isUserFacingError(error)) throw error;
    const failure: ActionFailure & Tag = {
      ...(tag as Tag),
      ok: false,
      message: error.message,
      fieldErrors: error.fieldErrors ?? {},
      ...(error.code ? { code: error.code } : {}),
    };
    return data(failure, { status: error.status });
  }
}

/** The message to show above a form: only when no field carries it already. */
export function formLevelMessage(failure: Pick<ActionFailure, "message" | "fieldErrors"> | undefined): string | null {
  return failure && !Object.keys(failure.fieldErrors).length ? failure.message : null;
}
