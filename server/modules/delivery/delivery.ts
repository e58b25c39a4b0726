import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { checkDeliverySchema, dispatchDaysSchema, MAX_ZONES, zoneSchema, type DeliveryAnswer, type DeliveryZone, type ZoneInput } from "#common/delivery/delivery-schemas.ts";
import { prefixesOf } from "#common/delivery/pin-areas.ts";
import { shopDay } from "#common/shared/dates.ts";
import { messages } from "#common/shared/messages.ts";
import { paiseToRupeesInput } from "#common/shared/money.ts";
import { shopClock } from "../../platform/clock.ts";
import type { Database } from "../../platform/db/client.ts";
import type { DB } from "../../platform/db/schema.ts";
import { inWriteTransaction, isUniqueViolation } from "../../platform/db/write-transaction.ts";
import { toFlag } from "../../platform/db/values.ts";
import { ConflictError, NotFoundError, parseInput } from "../../platform/errors.ts";
import { requireAdmin, type SessionUser } from "../../platform/session-user.ts";
import { idSchema } from "#common/shared/fields.ts";
import { changedFields, recordAdminChange } from "../audit/index.ts";
import { arrivalDay, deliveryZoneFor, describeDelivery, readDispatchDays, toZone, type ShopShipping } from "./zone-lookup.ts";

const m = messages.delivery;

/** A zone's fields as its edit form shows them (rupees as typed, entries one a line). */
export type ZoneFormValues = { name: string; areas: string; fee: string; freeAbove: string; daysMin: string; daysMax: string; codAllowed: boolean; codLimit: string };

export type DeliveryService = ReturnType<typeof createDeliveryService>;

/**
 * Delivery zones by PIN code, the shop's dispatch days, and the check a shopper makes (docs/decisions/053). The
 * owner's operations are admin-only; the check and the zone of a PIN code are for anybody.
 */
export function createDeliveryService(database: Pick<Database, "db" | "dialect">, { timeZone, shop }: { timeZone: string; shop: ShopShipping }) {
  const { db, dialect } = database;

  async function oneZone(zoneId: unknown): Promise<DeliveryZone> {
    const id = idSchema.safeParse(zoneId);
    const row = id.success ? await db.selectFrom("delivery_zones").selectAll().where("id", "=", id.data).executeTakeFirst() : undefined;
    if (!row) throw new NotFoundError(m.notFound);
    return toZone(row);
  }

  /** The zone's row and its prefixes, written in the caller's transaction (the old prefixes gone first on an edit). */
  async function writePrefixes(trx: Kysely<DB>, zoneId: string, zone: ZoneInput) {
    // One row per prefix: an entry overlapping another of the same zone keeps the narrower entry's span.
    const spans = new Map<string, number>();
    for (const area of zone.areas) {
      const span = area.hi - area.lo + 1;
      for (const prefix of prefixesOf(area.lo, area.hi)) spans.set(prefix, Math.min(span, spans.get(prefix) ?? span));
    }
    await trx.deleteFrom("delivery_zone_prefixes").where("zone_id", "=", zoneId).execute();
    const rows = [...spans].map(([prefix, span]) => ({ prefix, zone_id: zoneId, span }));
    // In slices: SQLite takes at most 32,766 parameters a statement.
    for (let i = 0; i < rows.length; i += 1000) await trx.insertInto("delivery_zone_prefixes").values(rows.slice(i, i + 1000)).execute();
  }

  const columns = (zone: ZoneInput) => ({
    name: zone.name,
    areas: zone.areas.map((a) => a.entry).join("\n"),
    fee_paise: zone.fee,
    free_above_paise: zone.freeAbove ?? null,
    days_min: zone.daysMin,
    days_max: zone.daysMax,
    cod_allowed: toFlag(dialect, zone.codAllowed),
    cod_limit_paise: zone.codLimit ?? null,
  });

  async function saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(m.nameTaken, { name: m.nameTaken });
      throw error;
    }
  }

  return {
    /** Every zone, by name: a shop keeps at most MAX_ZONES, so one page holds them. */
    async listZones(viewer: SessionUser | null): Promise<DeliveryZone[]> {
      requireAdmin(viewer);
      const rows = await db.selectFrom("delivery_zones").selectAll().orderBy("name").limit(MAX_ZONES).execute();
      return rows.map(toZone);
    },

    async getZoneForEditing(viewer: SessionUser | null, zoneId: unknown): Promise<{ zone: DeliveryZone; form: ZoneFormValues }> {
      requireAdmin(viewer);
      const zone = await oneZone(zoneId);
      return {
        zone,
        form: {
          name: zone.name,
          areas: zone.areas.join("\n"),
          fee: paiseToRupeesInput(zone.feePaise),
          freeAbove: zone.freeAbovePaise === null ? "" : paiseToRupeesInput(zone.freeAbovePaise),
          daysMin: String(zone.daysMin),
          daysMax: String(zone.daysMax),
          codAllowed: zone.codAllowed,
          codLimit: zone.codLimitPaise === null ? "" : paiseToRupeesInput(zone.codLimitPaise),
        },
      };
    },

    async createZone(viewer: SessionUser | null, input: unknown): Promise<DeliveryZone> {
      const admin = requireAdmin(viewer);
      const zone = parseInput(zoneSchema, input);
      const id = randomUUID();
      await saving(() =>
        inWriteTransaction(database, async (trx) => {
          const count = await trx.selectFrom("delivery_zones").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
          if (Number(count.n) >= MAX_ZONES) throw new ConflictError(m.tooManyZones(MAX_ZONES));
          await trx.insertInto("delivery_zones").values({ id, ...columns(zone), created_at: new Date().toISOString() }).execute();
          await writePrefixes(trx, id, zone);
          const after = await zoneTerms(trx, id);
          await recordAdminChange(trx, admin, { thing: { kind: "delivery", id, label: zone.name }, summary: `Added delivery zone ${zone.name}`, changes: changedFields({}, after ?? {}) });
        }),
      );
      return oneZone(id);
    },

    async updateZone(viewer: SessionUser | null, zoneId: unknown, input: unknown): Promise<DeliveryZone> {
      const admin = requireAdmin(viewer);
      const { id } = await oneZone(zoneId);
      const zone = parseInput(zoneSchema, input);
      await saving(() =>
        inWriteTransaction(database, async (trx) => {
          const before = await zoneTerms(trx, id!);
          const updated = await trx.updateTable("delivery_zones").set(columns(zone)).where("id", "=", id!).executeTakeFirst();
          if (!updated.numUpdatedRows || !before) throw new NotFoundError(m.notFound);
          await writePrefixes(trx, id!, zone);
          const changes = changedFields(before, (await zoneTerms(trx, id!)) ?? {});
          if (Object.keys(changes).length > 0) {
            await recordAdminChange(trx, admin, { thing: { kind: "delivery", id: id!, label: zone.name }, summary: `Delivery zone ${zone.name} edited: ${Object.keys(changes).join(", ")}`, changes });
          }
        }),
      );
      return oneZone(id);
    },

    /** Deletes a zone (its prefixes go with it). Placed orders keep their shipping and PIN code. */
    async deleteZone(viewer: SessionUser | null, zoneId: unknown): Promise<DeliveryZone> {
      const admin = requireAdmin(viewer);
      const zone = await oneZone(zoneId);
      await inWriteTransaction(database, async (trx) => {
        const before = await zoneTerms(trx, zone.id!);
        if (!before) return;
        await trx.deleteFrom("delivery_zones").where("id", "=", zone.id!).execute();
        await recordAdminChange(trx, admin, { thing: { kind: "delivery", id: zone.id!, label: zone.name }, summary: `Deleted delivery zone ${zone.name}`, changes: changedFields(before, {}) });
      });
      return zone;
    },

    /** The weekdays the shop does not dispatch, and every holiday it keeps (past ones too, until removed). */
    async getDispatchDays(viewer: SessionUser | null): Promise<{ closedWeekdays: number[]; holidays: string[] }> {
      requireAdmin(viewer);
      const [weekdays, holidays] = await Promise.all([
        db.selectFrom("delivery_closed_weekdays").select("weekday").orderBy("weekday").execute(),
        db.selectFrom("delivery_holidays").select("day").orderBy("day").limit(1000).execute(),
      ]);
      return { closedWeekdays: weekdays.map((w) => w.weekday), holidays: holidays.map((h) => h.day) };
    },

    /** Replaces the non-dispatch weekdays and the holidays with those sent. */
    async setDispatchDays(viewer: SessionUser | null, input: unknown): Promise<void> {
      const admin = requireAdmin(viewer);
      const days = parseInput(dispatchDaysSchema, input);
      await inWriteTransaction(database, async (trx) => {
        const before = await dispatchDaysIn(trx);
        await trx.deleteFrom("delivery_closed_weekdays").execute();
        await trx.deleteFrom("delivery_holidays").execute();
        const weekdays = [...new Set(days.closedWeekdays)];
        if (weekdays.length) await trx.insertInto("delivery_closed_weekdays").values(weekdays.map((weekday) => ({ weekday }))).execute();
        if (days.holidays.length) await trx.insertInto("delivery_holidays").values(days.holidays.map((day) => ({ day }))).execute();
        const changes = changedFields(before, await dispatchDaysIn(trx));
        if (Object.keys(changes).length > 0) await recordAdminChange(trx, admin, { thing: { kind: "delivery", id: null, label: "Dispatch days" }, summary: "Dispatch days changed", changes });
      });
    },

    /** The zone of a checked PIN code (null: not delivered there), for the checkout page's summary. */
    zoneFor(pin: string): Promise<DeliveryZone | null> {
      return deliveryZoneFor(db, pin, shop);
    },

    /**
     * 'Check delivery': the PIN code's zone in words, with the day it arrives by counted on the shop's dispatch
     * days from now on the shop's clock. Refuses a PIN code that is not one with a clear message.
     */
    async checkDelivery(input: unknown): Promise<DeliveryAnswer> {
      const { pin } = parseInput(checkDeliverySchema, input);
      const zone = await deliveryZoneFor(db, pin, shop);
      if (!zone) return describeDelivery(pin, null, null);
      const now = shopClock.now();
      const closed = await readDispatchDays(db, shopDay(new Date(now), timeZone));
      return describeDelivery(pin, zone, arrivalDay(zone, now, timeZone, closed));
    },
  };
}

/** A zone's terms as the activity records them (docs/decisions/057), read in the change's transaction; null: no such zone. */
async function zoneTerms(trx: Kysely<DB>, id: string): Promise<Record<string, unknown> | null> {
  const row = await trx.selectFrom("delivery_zones").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return {
    name: row.name,
    areas: row.areas,
    feePaise: Number(row.fee_paise),
    freeAbovePaise: row.free_above_paise === null ? null : Number(row.free_above_paise),
    daysMin: Number(row.days_min),
    daysMax: Number(row.days_max),
    codAllowed: Boolean(row.cod_allowed),
    codLimitPaise: row.cod_limit_paise === null ? null : Number(row.cod_limit_paise),
  };
}

/** The closed weekdays and holidays (at most a thousand, as the admin page reads them). */
async function dispatchDaysIn(trx: Kysely<DB>): Promise<Record<string, unknown>> {
  const [weekdays, holidays] = await Promise.all([
    trx.selectFrom("delivery_closed_weekdays").select("weekday").orderBy("weekday").execute(),
    trx.selectFrom("delivery_holidays").select("day").orderBy("day").limit(1000).execute(),
  ]);
  return { closedWeekdays: weekdays.map((w) => Number(w.weekday)), holidays: holidays.map((h) => h.day) };
}
