import type { SessionUser } from "#common/shared/session-user.ts";
import { messages } from "#common/shared/messages.ts";
import { ForbiddenError, UnauthorizedError } from "./errors.ts";

export type { SessionUser };

/** Who is asking, as far as limits care: the client address they are counted by (null when unknown). */
export interface Caller {
  clientIp: string | null;
}

/**
 * A caller who may hold a session: the session credential they presented (the signed token, as issued), and the
 * software they use, which a new session records. The HTTP layer reads both from the request.
 */
export interface SessionCaller extends Caller {
  sessionCredential: string | null;
  userAgent: string | null;
  /**
   * The signed marker the auth library keeps beside a session made without "remember me" (as presented), or
   * null: such a session is never slid, and its credential lasts only as long as the browser keeps it.
   */
  forgetOnClose?: string | null | undefined;
}

/**
 * What an account action did to the caller's session, for the HTTP layer to pass on (as a cookie):
 * nothing; a credential issued (new, or the same one with its idle lifetime restarted); or the session ended.
 * `expiresInSeconds` null: the credential lasts as long as the browser keeps it (the caller asked not to be remembered).
 */
export type SessionOutcome =
  | { kind: "unchanged" }
  | { kind: "issued"; credential: string; expiresInSeconds: number | null }
  | { kind: "ended" };

export const SESSION_UNCHANGED: SessionOutcome = { kind: "unchanged" };

/** The person asking, refused with 401 when nobody is signed in. */
export function requireSignedIn(viewer: SessionUser | null): SessionUser {
  if (!viewer) throw new UnauthorizedError();
  return viewer;
}

/** The person asking if they are an admin: 401 for a visitor, 403 for anybody else. Every admin rule starts here. */
export function requireAdmin(viewer: SessionUser | null): SessionUser {
  if (requireSignedIn(viewer).adminNeedsTwoFactor) throw new ForbiddenError(messages.twoFactor.adminRequired);
  if (!viewer!.isAdmin) throw new ForbiddenError();
  return viewer as SessionUser;
}
