import { z } from "zod";
import { messages } from "#common/shared/messages.ts";
import type { SecurityEventKind } from "#common/accounts/security-events.ts";
import { InvalidInputError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireSignedIn, type SessionCaller, type SessionUser } from "../../platform/session-user.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { SESSION_MAX_AGE_MS } from "./auth/auth-rules.ts";
import type { AccountsContext } from "./accounts-context.ts";
import { authHeaders, callAuth } from "./auth-calls.ts";
import { deviceName } from "./device-names.ts";
import { LAST_USE_STEP_MS } from "./session-last-use.ts";
import { listSecurityEvents, recordSecurityEvent } from "./security-events.ts";

// The account's security page: its signed-in sessions (ended one by one or all but this one) and its activity list.
// Better Auth ends the sessions (revokeSession, revokeOtherSessions); the page never sees a session's token, only
// its id: tokens are credentials, and a page's data reaches scripts. The sessions are read from the table here
// rather than through Better Auth's listSessions, which refuses a session signed in more than a day ago (its
// "fresh session" rule, meant for its own endpoint) and knows nothing of the last use.

type SessionsContext = Pick<AccountsContext, "auth" | "db">;

export interface AccountSession {
  id: string;
  /** Browser and system in words ("Chrome 130 on Linux"). */
  device: string;
  ip: string | null;
  createdAt: string;
  /** The last use noted (session-last-use.ts), or the sign-in when none was noted yet. */
  lastUsedAt: string;
  /** Used within the last LAST_USE_STEP_MS: the page says so rather than a time it does not know precisely. */
  usedRecently: boolean;
  /** The session of the device asking. */
  current: boolean;
}

export interface ActivityEntry {
  id: string;
  kind: SecurityEventKind;
  method: string | null;
  ip: string | null;
  device: string;
  createdAt: string;
}

export interface SecurityOverview {
  sessions: AccountSession[];
  activity: ActivityEntry[];
  /** How precisely a last use is known, in minutes, for the page to explain. */
  lastUseStepMinutes: number;
}

const endSessionSchema = z.object({
  sessionId: z.string({ error: messages.security.sessionIdRequired }).trim().min(1, messages.security.sessionIdRequired).max(200, messages.security.sessionUnknown),
});

/** The token part of a session credential (`token.signature`), to tell the caller's own session among the rows. */
function tokenOf(caller: SessionCaller): string | null {
  const credential = caller.sessionCredential;
  if (!credential) return null;
  const dot = credential.lastIndexOf(".");
  return dot > 0 ? credential.slice(0, dot) : null;
}

/** The account's sessions that still let someone in (not expired, not past the maximum age), tokens included. */
async function liveSessionRows({ db }: Pick<AccountsContext, "db">, userId: string, now: number) {
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "token", "userAgent", "ipAddress", "createdAt", "lastUsedAt", "expiresAt"])
    .where("userId", "=", userId)
    .execute();
  return rows.filter((row) => new Date(row.expiresAt).getTime() > now && new Date(row.createdAt).getTime() >= now - SESSION_MAX_AGE_MS);
}

/** The owner's sessions (this device first, then the most recently used) and newest security events. */
export async function securityOverview(ctx: SessionsContext, viewer: SessionUser | null, caller: SessionCaller, now = Date.now()): Promise<SecurityOverview> {
  const user = requireSignedIn(viewer);
  const ownToken = tokenOf(caller);
  const sessions = (await liveSessionRows(ctx, user.id, now)).map((row): AccountSession => {
    const lastUsedAt = toIsoString(row.lastUsedAt ?? row.createdAt);
    const current = row.token === ownToken;
    return {
      id: row.id,
      device: deviceName(row.userAgent),
      ip: row.ipAddress,
      createdAt: toIsoString(row.createdAt),
      lastUsedAt,
      usedRecently: current || new Date(lastUsedAt).getTime() > now - LAST_USE_STEP_MS,
      current,
    };
  });
  sessions.sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt));
  const activity = (await listSecurityEvents(ctx.db, user.id)).map(({ userAgent, ...event }) => ({ ...event, device: deviceName(userAgent) }));
  return { sessions, activity, lastUseStepMinutes: LAST_USE_STEP_MS / 60_000 };
}

/**
 * Ends one of the owner's other sessions, by its id: found among the owner's own live sessions first, so an id of
 * another account's session (or a made-up one) ends nothing and gets the same answer as one already ended.
 */
export async function endSession(ctx: SessionsContext, viewer: SessionUser | null, caller: SessionCaller, input: unknown): Promise<{ device: string }> {
  const user = requireSignedIn(viewer);
  const { sessionId } = parseInput(endSessionSchema, input);
  const session = (await liveSessionRows(ctx, user.id, Date.now())).find((row) => row.id === sessionId);
  if (!session) throw new NotFoundError(messages.security.sessionUnknown);
  if (session.token === tokenOf(caller)) throw new InvalidInputError(messages.security.sessionIsThisDevice);
  // Better Auth checks again that the token is the caller's before it deletes the session.
  await callAuth(async () => ctx.auth.api.revokeSession({ body: { token: session.token }, headers: await authHeaders(ctx.auth, caller) }));
  const device = deviceName(session.userAgent);
  await recordSecurityEvent(ctx.db, { userId: user.id, kind: "session-ended", method: device, ip: caller.clientIp, userAgent: caller.userAgent });
  return { device };
}

/** Ends every session of the owner but the caller's; each one ended is recorded with its device. */
export async function endOtherSessions(ctx: SessionsContext, viewer: SessionUser | null, caller: SessionCaller): Promise<{ ended: number }> {
  const user = requireSignedIn(viewer);
  const ownToken = tokenOf(caller);
  const others = (await liveSessionRows(ctx, user.id, Date.now())).filter((row) => row.token !== ownToken);
  if (others.length === 0) return { ended: 0 };
  await callAuth(async () => ctx.auth.api.revokeOtherSessions({ headers: await authHeaders(ctx.auth, caller) }));
  // What Better Auth actually deleted: the ones listed before that are gone now (one signed in meanwhile stays).
  const remaining = new Set((await ctx.db.selectFrom("sessions").select("id").where("userId", "=", user.id).execute()).map((row) => row.id));
  const ended = others.filter((row) => !remaining.has(row.id));
  for (const session of ended) {
    await recordSecurityEvent(ctx.db, { userId: user.id, kind: "session-ended", method: deviceName(session.userAgent), ip: caller.clientIp, userAgent: caller.userAgent });
  }
  return { ended: ended.length };
}
