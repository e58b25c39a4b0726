import type { Kysely, Selectable } from "kysely";
import { activityQuerySchema, type ActivityEntry, type ActivityPage, type AuditThingKind } from "#common/audit/audit-schemas.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { toIsoString } from "../../platform/db/values.ts";
import { parseInput } from "../../platform/errors.ts";
import { currentRequestScope } from "../../platform/event-log.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import type { AuditEventTable } from "./audit-tables.ts";

/** Who made a change: an admin's account as it was then, or the admin command (no account, no address). */
export interface Actor {
  id: string | null;
  name: string;
  email: string | null;
}

/** The admin command's changes (granting or revoking the admin role from the server's shell). */
export const ADMIN_COMMAND: Actor = { id: null, name: "admin command", email: null };

export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

export interface AdminChange {
  thing: { kind: AuditThingKind; id: string | null; label: string };
  /** The line the activity page shows, e.g. "Price of Monstera (60 cm pot) ₹499.00 → ₹449.00". */
  summary: string;
  changes: FieldChanges;
}

/** Only the fields whose value differs between `before` and `after` (compared as JSON). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): FieldChanges {
  const changes: FieldChanges = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[key] ?? null;
    const is = after[key] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(is)) changes[key] = { before: was, after: is };
  }
  return changes;
}

/**
 * Records a change an admin made, in `trx`: the transaction that makes the change, so a change that is refused or
 * rolled back leaves no record and none is made without its record. The address is the running request's.
 */
export async function recordAdminChange(trx: Kysely<DB>, actor: Actor, change: AdminChange): Promise<void> {
  const scope = currentRequestScope();
  await trx
    .insertInto("audit_events")
    .values({
      created_at: new Date().toISOString(),
      actor_id: actor.id,
      actor_name: actor.name,
      actor_email: actor.email,
      client_ip: actor.id === null ? null : (scope?.clientIp ?? null),
      thing_kind: change.thing.kind,
      thing_id: change.thing.id,
      thing_label: change.thing.label.slice(0, 200),
      summary: change.summary.slice(0, 1000),
      changes: JSON.stringify(change.changes).slice(0, 65536),
    })
    .execute();
}

export const ACTIVITY_PAGE_SIZE = 50;

export type AuditService = ReturnType<typeof createAuditService>;

/** The owner's activity page: newest first, filtered by person and by thing, paged by id (no OFFSET, no count). */
export function createAuditService(database: Pick<Database, "db">) {
  const { db } = database;
  return {
    async listActivity(viewer: SessionUser | null, input: unknown = {}): Promise<ActivityPage> {
      requireAdmin(viewer);
      const query = parseInput(activityQuerySchema, input);
      let select = db.selectFrom("audit_events").selectAll();
      if (query.actor) select = select.where("actor_id", "=", query.actor);
      if (query.kind) select = select.where("thing_kind", "=", query.kind);
      if (query.thing) select = select.where("thing_id", "=", query.thing);
      if (query.after) select = select.where("id", "<", Number(query.after));
      const rows = await select.orderBy("id", "desc").limit(ACTIVITY_PAGE_SIZE + 1).execute();
      const items = rows.slice(0, ACTIVITY_PAGE_SIZE).map(toEntry);
      return { items, next: rows.length > ACTIVITY_PAGE_SIZE ? items.at(-1)!.id : null };
    },
  };
}

function toEntry(row: Selectable<AuditEventTable>): ActivityEntry {
  return {
    id: String(row.id),
    at: toIsoString(row.created_at),
    actor: { id: row.actor_id, name: row.actor_name, email: row.actor_email },
    clientIp: row.client_ip,
    thing: { kind: row.thing_kind, id: row.thing_id, label: row.thing_label },
    summary: row.summary,
    changes: JSON.parse(row.changes) as ActivityEntry["changes"],
  };
}
