// A plant's care profile (docs/decisions/049): what people choose a plant by — the light of the room, whether a pet
// may chew it, how much attention it needs, where it lives. Every part is optional: an owner who does not know
// says nothing rather than guessing. The values are the database's (CHECK constraints in migration
// 0024-care-profile), the filters' URL values and the API's, so one list names each of them once.

export const LIGHT_LEVELS = ["low", "medium", "bright-indirect", "direct-sun"] as const;
export type LightLevel = (typeof LIGHT_LEVELS)[number];

/** Pet safety is yes or no; null means not known (never shown as safe). */
export const PET_SAFETY = ["yes", "no"] as const;
export type PetSafety = (typeof PET_SAFETY)[number];

export const DIFFICULTIES = ["beginner", "intermediate", "expert"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** Where the plant lives; 'both' belongs to the indoor and to the outdoor filter. */
export const PLANT_PLACES = ["indoor", "outdoor", "both"] as const;
export type PlantPlace = (typeof PLANT_PLACES)[number];

/** Limits of the free-text and number parts, shared by the form's schema and the database's checks. */
export const CARE_WATERING_MAX_LENGTH = 120;
export const CARE_FLOWERING_MAX_LENGTH = 60;
export const CARE_WATER_EVERY_DAYS_MAX = 90;
export const CARE_HEIGHT_CM_MAX = 5000;

export interface CareProfile {
  light: LightLevel | null;
  /** How to water, in words a person understands: 'When the top 2 cm of soil is dry'. */
  watering: string | null;
  /** Roughly every how many days, when a number helps. */
  waterEveryDays: number | null;
  petSafe: PetSafety | null;
  difficulty: Difficulty | null;
  place: PlantPlace | null;
  /** Mature height in centimetres. */
  heightCm: number | null;
  /** When it flowers, in words: 'Spring to early summer'. */
  flowering: string | null;
}

export const EMPTY_CARE_PROFILE: CareProfile = {
  light: null,
  watering: null,
  waterEveryDays: null,
  petSafe: null,
  difficulty: null,
  place: null,
  heightCm: null,
  flowering: null,
};
