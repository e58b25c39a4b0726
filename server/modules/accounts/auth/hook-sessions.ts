import { SESSION_MAX_AGE_MS } from "./auth-rules.ts";
import type { AuthHooksContext } from "./hooks-context.ts";

// The session cookie of a request, read by the hooks before the endpoint reads it.

type SessionCookieContext = Pick<AuthHooksContext, "database" | "sessionCookie" | "secret">;
type SignedCookies = { getSignedCookie(name: string, secret: string): Promise<string | null | false> };

/** The account of the request's session cookie, if it is a live session (checked again by the endpoint). */
export async function signedInUserId({ database, sessionCookie, secret }: SessionCookieContext, request: SignedCookies) {
  const token = await request.getSignedCookie(sessionCookie, secret);
  if (!token) return undefined;
  const row = await database.db
    .selectFrom("sessions")
    .select("userId")
    .where("token", "=", token)
    .where("expiresAt", ">", new Date().toISOString())
    .executeTakeFirst();
  return row?.userId;
}

/** Sessions slide for 7 idle days but never outlive 30 days from sign-in: an older one is deleted on sight. */
export async function expireOldSession({ database, sessionCookie, secret }: SessionCookieContext, request: SignedCookies) {
  const token = await request.getSignedCookie(sessionCookie, secret);
  if (!token) return;
  const cutoff = new Date(Date.now() - SESSION_MAX_AGE_MS).toISOString();
  await database.db.deleteFrom("sessions").where("token", "=", token).where("createdAt", "<", cutoff).execute();
}
