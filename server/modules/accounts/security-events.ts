import type { Kysely } from "kysely";
import { SECURITY_EVENT_KINDS, type SecurityEventKind } from "#common/accounts/security-events.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";

export type { SecurityEventKind } from "#common/accounts/security-events.ts";

// The account's activity list: its security events, newest first, shown to its owner only. Each account keeps its
// newest KEPT_PER_ACCOUNT events: the list shows 50, and a busy account (or someone guessing its password) cannot
// grow the table without bound.

const KEPT_PER_ACCOUNT = 100;
/** The longest text kept from a client's User-Agent header: enough to name the browser and system. */
const USER_AGENT_CHARS = 400;

export interface SecurityEventInput {
  userId: string;
  kind: SecurityEventKind;
  /** How or what: "password", "e-mailed link", a provider's name, the session's browser… */
  method?: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface SecurityEvent {
  id: string;
  kind: SecurityEventKind;
  method: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** Records one event of an account; `db` may be the caller's transaction, so the event commits with what it records. */
export async function recordSecurityEvent(db: Kysely<DB>, event: SecurityEventInput, now = new Date()): Promise<void> {
  await db
    .insertInto("security_events")
    .values({
      id: crypto.randomUUID(),
      user_id: event.userId,
      kind: event.kind,
      method: event.method ?? null,
      ip: event.ip,
      user_agent: event.userAgent?.slice(0, USER_AGENT_CHARS) ?? null,
      created_at: now.toISOString(),
    })
    .execute();
  // The oldest event still kept, then everything older goes: two short index ranges of this account only.
  const oldestKept = await db
    .selectFrom("security_events")
    .select(["created_at", "id"])
    .where("user_id", "=", event.userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .offset(KEPT_PER_ACCOUNT - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  const keptAt = toIsoString(oldestKept.created_at);
  await db
    .deleteFrom("security_events")
    .where("user_id", "=", event.userId)
    .where((eb) => eb.or([eb("created_at", "<", keptAt), eb.and([eb("created_at", "=", keptAt), eb("id", "<", oldestKept.id)])]))
    .execute();
}

/** The account's newest events, newest first. */
export async function listSecurityEvents(db: Kysely<DB>, userId: string, limit = 50): Promise<SecurityEvent[]> {
  const rows = await db
    .selectFrom("security_events")
    .select(["id", "kind", "method", "ip", "user_agent", "created_at"])
    .where("user_id", "=", userId)
    // Only kinds this version can name.
    .where("kind", "in", SECURITY_EVENT_KINDS)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as SecurityEventKind,
    method: row.method,
    ip: row.ip,
    userAgent: row.user_agent,
    createdAt: toIsoString(row.created_at),
  }));
}
