import type { Selectable, Updateable } from "kysely";
import type { CareProfile } from "#common/catalog/care-profile.ts";
import type { ProductTable } from "./catalog-tables.ts";

// The care profile (docs/product.md, Product page) on the product's row: its columns, read and written in one place.

/** The columns a product's care profile is read from; the page and the edit form read them, product cards never. */
export const CARE_COLUMNS = [
  "p.care_light",
  "p.care_watering",
  "p.care_water_every_days",
  "p.care_pet_safe",
  "p.care_difficulty",
  "p.care_place",
  "p.care_height_cm",
  "p.care_flowering",
] as const;

type CareRow = Pick<
  Selectable<ProductTable>,
  "care_light" | "care_watering" | "care_water_every_days" | "care_pet_safe" | "care_difficulty" | "care_place" | "care_height_cm" | "care_flowering"
>;

export function careFromRow(row: CareRow): CareProfile {
  return {
    light: row.care_light,
    watering: row.care_watering,
    waterEveryDays: row.care_water_every_days,
    petSafe: row.care_pet_safe,
    difficulty: row.care_difficulty,
    place: row.care_place,
    heightCm: row.care_height_cm,
    flowering: row.care_flowering,
  };
}

/** The row's values for a profile: every part written, so a part no longer said is cleared. */
export function careColumns(care: CareProfile): Required<Pick<Updateable<ProductTable>, keyof CareRow>> {
  return {
    care_light: care.light,
    care_watering: care.watering,
    care_water_every_days: care.waterEveryDays,
    care_pet_safe: care.petSafe,
    care_difficulty: care.difficulty,
    care_place: care.place,
    care_height_cm: care.heightCm,
    care_flowering: care.flowering,
  };
}
