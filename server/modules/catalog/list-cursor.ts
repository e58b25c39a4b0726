import { isServerInstant } from "#common/shared/timestamps.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { InvalidInputError } from "../../platform/errors.ts";

/** Where a page of the oldest-first list ended: the last product's created_at and id (the list's sort key). */
export interface ListCursor {
  createdAt: string;
  id: string;
}

const CURSOR_MESSAGE = "Not a valid page cursor";

export function encodeCursor(row: { created_at: string | Date; id: string }): string {
  return Buffer.from(JSON.stringify([toIsoString(row.created_at), row.id])).toString("base64url");
}

/**
 * The two strings of a cursor the server handed out (a time, then the key's second part, checked by `valid`), or a
 * 400: a client's made-up cursor never reaches the database as anything else.
 */
function decodePair(cursor: string, valid: (second: string) => boolean): [string, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new InvalidInputError(CURSOR_MESSAGE, { after: CURSOR_MESSAGE });
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "string" ||
    typeof parsed[1] !== "string" ||
    !isServerInstant(parsed[0]) ||
    !valid(parsed[1])
  ) {
    throw new InvalidInputError(CURSOR_MESSAGE, { after: CURSOR_MESSAGE });
  }
  return [parsed[0], parsed[1]];
}

/** A product cursor (its id is one of ours: letters, digits, - and _). */
export function decodeCursor(cursor: string): ListCursor {
  const [createdAt, id] = decodePair(cursor, (second) => /^[A-Za-z0-9_-]{1,64}$/.test(second));
  return { createdAt, id };
}

/** Where a page of categories ended: the last category's created_at and name (the categories' sort key, unique). */
export interface CategoryCursor {
  createdAt: string;
  name: string;
}

export function encodeCategoryCursor(row: { created_at: string | Date; name: string }): string {
  return Buffer.from(JSON.stringify([toIsoString(row.created_at), row.name])).toString("base64url");
}

/** A category cursor (a name, at most 200 characters). */
export function decodeCategoryCursor(cursor: string): CategoryCursor {
  const [createdAt, name] = decodePair(cursor, (second) => second.length <= 200);
  return { createdAt, name };
}
