import type { ColumnType } from "kysely";
import type { Timestamp } from "../../platform/db/values.ts";

// The delivery module's tables as Kysely sees them, created by ./migrations and added to the database's type (DB)
// here, so that the platform names no feature.

/** 0/1 on SQLite, a boolean on PostgreSQL (toFlag writes it). */
type Flag = ColumnType<boolean | number, boolean | number, boolean | number>;

export interface DeliveryZoneTable {
  id: string;
  name: string;
  /** The entries as the owner wrote them, one a line: what the edit form shows again. */
  areas: string;
  fee_paise: number;
  free_above_paise: number | null;
  days_min: number;
  days_max: number;
  cod_allowed: Flag;
  cod_limit_paise: number | null;
  created_at: Timestamp;
}

/**
 * The decimal prefixes a zone's entries are made of ('560000-599999' is 56, 57, 58, 59), each with the number of
 * PIN codes of the entry it came from: a PIN code's zone is the row of its own prefixes with the smallest span.
 */
export interface DeliveryZonePrefixTable {
  prefix: string;
  zone_id: string;
  span: number;
}

/** A weekday the shop does not dispatch: 0 = Sunday … 6 = Saturday. */
export interface DeliveryClosedWeekdayTable {
  weekday: number;
}

/** A day the shop does not dispatch, YYYY-MM-DD in the shop's time zone. */
export interface DeliveryHolidayTable {
  day: string;
}

declare module "../../platform/db/schema.ts" {
  interface DB {
    delivery_zones: DeliveryZoneTable;
    delivery_zone_prefixes: DeliveryZonePrefixTable;
    delivery_closed_weekdays: DeliveryClosedWeekdayTable;
    delivery_holidays: DeliveryHolidayTable;
  }
}
