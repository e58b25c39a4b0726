import type { Kysely } from "kysely";
import { compiledOnce } from "../../platform/db/compiled-once.ts";
import type { DB } from "../../platform/db/schema.ts";

// When each session was last used, for its owner's security page. Nearly every request of a signed-in person reads
// its session, and most of them must stay a single read: the use is written at most once every LAST_USE_STEP_MS per
// session, by a conditional UPDATE that only the first request after the step runs, and that changes nothing when
// another process got there first.

/** How precisely the page knows when a session was last used. */
export const LAST_USE_STEP_MS = 5 * 60_000;

/** Whether a session's recorded last use is old enough (or missing) that this use should be written. */
export function lastUseDue(lastUsedAt: string | Date | null, now: number): boolean {
  return lastUsedAt === null || new Date(lastUsedAt).getTime() <= now - LAST_USE_STEP_MS;
}

const noteUse = compiledOnce((db, { id, at, staleBefore }: { id: string; at: string; staleBefore: string }) =>
  db
    .updateTable("sessions")
    .set({ lastUsedAt: at })
    .where("id", "=", id)
    .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<=", staleBefore)])),
);

const noteUseByToken = compiledOnce((db, { token, at, staleBefore }: { token: string; at: string; staleBefore: string }) =>
  db
    .updateTable("sessions")
    .set({ lastUsedAt: at })
    .where("token", "=", token)
    .where((eb) => eb.or([eb("lastUsedAt", "is", null), eb("lastUsedAt", "<=", staleBefore)])),
);

const values = (now: number) => ({ at: new Date(now).toISOString(), staleBefore: new Date(now - LAST_USE_STEP_MS).toISOString() });

/** Notes a use of the session (known by its id) when its last use is due; the caller read `lastUsedAt` already. */
export async function noteSessionUse(db: Kysely<DB>, session: { id: string; lastUsedAt: string | Date | null }, now: number): Promise<void> {
  if (!lastUseDue(session.lastUsedAt, now)) return;
  await noteUse.execute(db, { id: session.id, ...values(now) });
}

/** Notes a use of the session with this token, if due: for the rarer requests Better Auth answers itself. */
export async function noteSessionUseByToken(db: Kysely<DB>, token: string, now: number): Promise<void> {
  await noteUseByToken.execute(db, { token, ...values(now) });
}
