import { z } from "zod";
import { plainText } from "../shared/fields.ts";
import { messages } from "../shared/messages.ts";
import {
  CARE_FLOWERING_MAX_LENGTH,
  CARE_HEIGHT_CM_MAX,
  CARE_WATER_EVERY_DAYS_MAX,
  CARE_WATERING_MAX_LENGTH,
  DIFFICULTIES,
  LIGHT_LEVELS,
  PET_SAFETY,
  PLANT_PLACES,
  type CareProfile,
} from "./care-profile.ts";

const m = messages.careProfile;

// A care profile as the product form posts it (every part a text field, '' for not said) or an API client sends it
// (null or left out for not said, numbers as numbers). Every part is optional: what is not said is stored as null.

/** Empty, null or left out → null; else trimmed text. */
function said(value: string | number | null | undefined): string | null {
  const text = value === null || value === undefined ? "" : String(value).trim();
  return text === "" ? null : text;
}

function choice<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z
    .union([z.string(), z.null()], { error: message })
    .optional()
    .transform(said)
    .pipe(z.enum(values, { error: message }).nullable());
}

function words(max: number, message: string) {
  return z
    .union([z.string(), z.null()], { error: message })
    .optional()
    .transform(said)
    .pipe(z.string().max(max, message).pipe(plainText()).nullable());
}

/** A whole number from 1 to `max`, typed ('14') or sent (14); '1.5', '0' and '-3' are refused, not rounded. */
function wholeNumber(max: number, message: string) {
  return z
    .union([z.string(), z.number(), z.null()], { error: message })
    .optional()
    .transform(said)
    .pipe(
      z
        .string()
        .regex(/^\d{1,9}$/, message)
        .transform(Number)
        .pipe(z.int().min(1, message).max(max, message))
        .nullable(),
    );
}

export const careProfileInputSchema = z.object(
  {
    light: choice(LIGHT_LEVELS, m.lightInvalid),
    watering: words(CARE_WATERING_MAX_LENGTH, m.wateringTooLong(CARE_WATERING_MAX_LENGTH)),
    waterEveryDays: wholeNumber(CARE_WATER_EVERY_DAYS_MAX, m.waterEveryDaysInvalid(CARE_WATER_EVERY_DAYS_MAX)),
    petSafe: choice(PET_SAFETY, m.petSafeInvalid),
    difficulty: choice(DIFFICULTIES, m.difficultyInvalid),
    place: choice(PLANT_PLACES, m.placeInvalid),
    heightCm: wholeNumber(CARE_HEIGHT_CM_MAX, m.heightInvalid(CARE_HEIGHT_CM_MAX)),
    flowering: words(CARE_FLOWERING_MAX_LENGTH, m.floweringTooLong(CARE_FLOWERING_MAX_LENGTH)),
  },
  { error: m.notAProfile },
) satisfies z.ZodType<CareProfile, unknown>;

/** A care profile as the API answers it: every part present, null when not said. */
export const careProfileSchema = z
  .strictObject({
    light: z.enum(LIGHT_LEVELS).nullable(),
    watering: z.string().nullable().meta({ description: "How to water, in words: 'When the top 2 cm of soil is dry'" }),
    waterEveryDays: z.int().min(1).max(CARE_WATER_EVERY_DAYS_MAX).nullable().meta({ description: "Roughly every how many days" }),
    petSafe: z.enum(PET_SAFETY).nullable().meta({ description: "null: not known (never shown as safe)" }),
    difficulty: z.enum(DIFFICULTIES).nullable(),
    place: z.enum(PLANT_PLACES).nullable().meta({ description: "'both': indoor or outdoor" }),
    heightCm: z.int().min(1).max(CARE_HEIGHT_CM_MAX).nullable().meta({ description: "Mature height in centimetres" }),
    flowering: z.string().nullable().meta({ description: "When it flowers, in words" }),
  })
  .meta({ id: "CareProfile", description: "The plant's care profile; every part null when not said" });
