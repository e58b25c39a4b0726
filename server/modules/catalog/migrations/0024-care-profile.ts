import { sql, type Kysely } from "kysely";
import {
  CARE_FLOWERING_MAX_LENGTH,
  CARE_HEIGHT_CM_MAX,
  CARE_WATER_EVERY_DAYS_MAX,
  CARE_WATERING_MAX_LENGTH,
  DIFFICULTIES,
  LIGHT_LEVELS,
  PET_SAFETY,
  PLANT_PLACES,
} from "#common/catalog/care-profile.ts";
import type { MigrationContext } from "../../../platform/db/migrate.ts";

const oneOf = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(", ")})`);

/**
 * A plant's care profile on its product row (docs/decisions/049): light, watering, pet safety, difficulty, where it
 * lives, mature height and flowering season, each optional (null: not said). On the product's own row, because the
 * shop's lists filter on them beside price and stock, through the indexes the lists are read by. The checks keep
 * out any value the shop has no words for.
 */
export function careProfileMigration(_context: MigrationContext) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("products").addColumn("care_light", "text", (col) => col.check(oneOf("care_light", LIGHT_LEVELS))).execute();
      await db.schema
        .alterTable("products")
        .addColumn("care_watering", "text", (col) => col.check(sql.raw(`length(care_watering) <= ${CARE_WATERING_MAX_LENGTH}`)))
        .execute();
      await db.schema
        .alterTable("products")
        .addColumn("care_water_every_days", "integer", (col) => col.check(sql.raw(`care_water_every_days between 1 and ${CARE_WATER_EVERY_DAYS_MAX}`)))
        .execute();
      await db.schema.alterTable("products").addColumn("care_pet_safe", "text", (col) => col.check(oneOf("care_pet_safe", PET_SAFETY))).execute();
      await db.schema.alterTable("products").addColumn("care_difficulty", "text", (col) => col.check(oneOf("care_difficulty", DIFFICULTIES))).execute();
      await db.schema.alterTable("products").addColumn("care_place", "text", (col) => col.check(oneOf("care_place", PLANT_PLACES))).execute();
      await db.schema
        .alterTable("products")
        .addColumn("care_height_cm", "integer", (col) => col.check(sql.raw(`care_height_cm between 1 and ${CARE_HEIGHT_CM_MAX}`)))
        .execute();
      await db.schema
        .alterTable("products")
        .addColumn("care_flowering", "text", (col) => col.check(sql.raw(`length(care_flowering) <= ${CARE_FLOWERING_MAX_LENGTH}`)))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const column of ["care_light", "care_watering", "care_water_every_days", "care_pet_safe", "care_difficulty", "care_place", "care_height_cm", "care_flowering"]) {
        await db.schema.alterTable("products").dropColumn(column).execute();
      }
    },
  };
}
