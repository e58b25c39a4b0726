import { data } from "react-router";
import { isUserFacingError } from "#common/user-facing-error.ts";

/** Runs a service call for a page: a missing or malformed record becomes the page's 404, not a 500. */
export async function loadOr404<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isUserFacingError(error) && (error.status === 404 || error.status === 400)) {
      throw data({ message: error.message }, { status: 404 });
    }
    throw error;
  }
}

export interface ActionFailure {
  ok: false;
  message: string;
  fieldErrors: Record<string, string>;
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
    const failure: ActionFailure & Tag = { ...(tag as Tag), ok: false, message: error.message, fieldErrors: error.fieldErrors ?? {} };
    return data(failure, { status: error.status });
  }
}

/** The message to show above a form: only when no field carries it already. */
export function formLevelMessage(failure: Pick<ActionFailure, "message" | "fieldErrors"> | undefined): string | null {
  return failure && !Object.keys(failure.fieldErrors).length ? failure.message : null;
}
