import type { CareProfile, Difficulty, LightLevel, PetSafety, PlantPlace } from "./care-profile.ts";

// The words for a care profile's values, once: the product page's care card, its structured data, the owner's form,
// the shop's filters and the plant finder all say them the same way (docs/product.md, Product page).

export const LIGHT_LABELS: Record<LightLevel, string> = {
  low: "Low light",
  medium: "Medium light",
  "bright-indirect": "Bright indirect light",
  "direct-sun": "Direct sun",
};

/** Unknown pet safety has no words: it is never shown, least of all as safe. */
export const PET_SAFETY_LABELS: Record<PetSafety, string> = {
  yes: "Pet-safe",
  no: "Not pet-safe",
};

/** What the care card says of a plant that is not pet-safe: the warning a shopper with a cat needs. */
export const NOT_PET_SAFE_WARNING = "Not pet-safe — keep away from cats and dogs";

export const DIFFICULTY_LABELS: Record<Difficulty, string> = {
  beginner: "Beginner",
  intermediate: "Intermediate",
  expert: "Expert",
};

export const PLACE_LABELS: Record<PlantPlace, string> = {
  indoor: "Indoor",
  outdoor: "Outdoor",
  both: "Indoor or outdoor",
};

/** The names of the care profile's parts, as the care card and the structured data show them. */
export const CARE_PART_NAMES = {
  light: "Light",
  water: "Water",
  pets: "Pets",
  difficulty: "Care",
  place: "Where",
  height: "Height",
  flowering: "Flowers",
} as const;
export type CarePart = keyof typeof CARE_PART_NAMES;

/** 7 → 'about every 7 days'; 1 → 'about every day'. */
export function wateringInterval(days: number): string {
  return days === 1 ? "about every day" : `about every ${days} days`;
}

/** The watering in words: 'When the top 2 cm of soil is dry (about every 7 days)', either half alone, or null. */
export function wateringText(care: Pick<CareProfile, "watering" | "waterEveryDays">): string | null {
  if (care.watering !== null && care.waterEveryDays !== null) return `${care.watering} (${wateringInterval(care.waterEveryDays)})`;
  if (care.watering !== null) return care.watering;
  if (care.waterEveryDays !== null) {
    const interval = wateringInterval(care.waterEveryDays);
    return interval.charAt(0).toUpperCase() + interval.slice(1);
  }
  return null;
}

/** 120 → 'up to 120 cm'. */
export const heightText = (cm: number) => `up to ${cm} cm`;

export interface CareLine {
  part: CarePart;
  name: string;
  text: string;
}

/**
 * The lines of a plant's care card, in the card's order; a part not known has no line, so an empty profile has none
 * (and the page no card).
 */
export function careLines(care: CareProfile): CareLine[] {
  const lines: CareLine[] = [];
  const add = (part: CarePart, text: string | null) => {
    if (text !== null) lines.push({ part, name: CARE_PART_NAMES[part], text });
  };
  add("light", care.light === null ? null : LIGHT_LABELS[care.light]);
  add("water", wateringText(care));
  add("pets", care.petSafe === null ? null : care.petSafe === "yes" ? PET_SAFETY_LABELS.yes : NOT_PET_SAFE_WARNING);
  add("difficulty", care.difficulty === null ? null : DIFFICULTY_LABELS[care.difficulty]);
  add("place", care.place === null ? null : PLACE_LABELS[care.place]);
  add("height", care.heightCm === null ? null : heightText(care.heightCm));
  add("flowering", care.flowering);
  return lines;
}

/** The parts' names in the product's structured data, where a line stands without the card's heading. */
const PROPERTY_NAMES: Record<CarePart, string> = {
  light: "Light",
  water: "Watering",
  pets: "Pet safety",
  difficulty: "Difficulty",
  place: "Where it grows",
  height: "Mature height",
  flowering: "Flowering season",
};

export interface CarePropertyValue {
  "@type": "PropertyValue";
  name: string;
  value: string | number;
  unitCode?: string;
  unitText?: string;
}

/** The profile as schema.org PropertyValue entries (a Product's `additionalProperty`): the card's lines, the height as a number. */
export function careProperties(care: CareProfile): CarePropertyValue[] {
  return careLines(care).map((line): CarePropertyValue => {
    if (line.part === "height" && care.heightCm !== null) {
      return { "@type": "PropertyValue", name: PROPERTY_NAMES.height, value: care.heightCm, unitCode: "CMT", unitText: "cm" };
    }
    if (line.part === "pets" && care.petSafe !== null) return { "@type": "PropertyValue", name: PROPERTY_NAMES.pets, value: PET_SAFETY_LABELS[care.petSafe] };
    return { "@type": "PropertyValue", name: PROPERTY_NAMES[line.part], value: line.text };
  });
}
