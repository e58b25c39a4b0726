import type { CareProfile } from "#common/catalog/care-profile.ts";

// The sample catalogue (docs/product.md, Sample catalogue) with our own illustrations in public/illustrations.
export interface SampleCategory {
  name: string;
  description: string;
  image: string;
}

export interface SampleProduct {
  name: string;
  rupees: number;
  /** On sale from the start, so a new shop's /sale and its banner show something (docs/decisions/047). */
  compareAtRupees?: number;
  stock: number;
  category: string;
  slug: string;
  description: string;
  /**
   * Sold in several sizes (docs/decisions/048): the first is the plant's own price and stock above, under its label;
   * the others follow. Without it, one size with no label.
   */
  sizes?: { first: string; more: { label: string; rupees: number; stock: number }[] };
  /**
   * Its care profile, true of the plant (pet safety as the ASPCA's plant lists give it): a part left out is not said,
   * as when the plant is not one species (the cactus's pets and height) or the part does not apply (a trailing vine's
   * height, a foliage plant's flowers).
   */
  care: Partial<CareProfile>;
}

export const sampleCategories: SampleCategory[] = [
  {
    name: "Indoor Plants",
    description: "Leafy companions that thrive in the light of a home or office.",
    image: "indoor-plants",
  },
  { name: "Succulents", description: "Water-storing plants that ask for sun and very little care.", image: "succulents" },
  {
    name: "Flowering Plants",
    description: "Plants grown for their blooms, colour and fragrance.",
    image: "flowering-plants",
  },
  {
    name: "Outdoor Plants",
    description: "Hardy climbers and shrubs for balconies, terraces and gardens.",
    image: "outdoor-plants",
  },
];

export const sampleProducts: SampleProduct[] = [
  {
    name: "Snake Plant",
    rupees: 1500,
    stock: 25,
    category: "Indoor Plants",
    slug: "snake-plant",
    care: { light: "low", watering: "When the soil has dried out completely", waterEveryDays: 14, petSafe: "no", difficulty: "beginner", place: "indoor", heightCm: 90 },
    description:
      "Sansevieria trifasciata: stiff, upright, sword-shaped leaves banded in dark and light green. It tolerates low light and irregular watering, and is one of the easiest houseplants to keep alive. Water only when the soil has dried out.",
  },
  {
    name: "Aloe Vera",
    rupees: 800,
    stock: 40,
    category: "Succulents",
    slug: "aloe-vera",
    care: { light: "bright-indirect", watering: "When the soil has dried out completely", waterEveryDays: 14, petSafe: "no", difficulty: "beginner", place: "both", heightCm: 60 },
    description:
      "A rosette of thick, fleshy, toothed leaves filled with a clear gel. Aloe vera loves bright light and well-drained soil; water deeply but rarely, and let the pot dry out in between.",
  },
  {
    name: "Rose Plant",
    rupees: 1200,
    stock: 15,
    category: "Flowering Plants",
    slug: "rose-plant",
    care: { light: "direct-sun", watering: "When the top 2 cm of soil is dry", waterEveryDays: 2, petSafe: "yes", difficulty: "intermediate", place: "outdoor", heightCm: 120, flowering: "Spring to autumn, in flushes" },
    description:
      "A potted rose bush that flowers in flushes through the warm months. Give it at least six hours of direct sun, regular water and feed, and deadhead spent blooms to keep new buds coming.",
  },
  {
    name: "Fiddle Leaf Fig",
    rupees: 2500,
    stock: 10,
    sizes: {
      first: 'Medium · 8" pot',
      more: [
        { label: 'Large · 10" pot', rupees: 3800, stock: 5 },
        { label: 'Extra large · 12" pot', rupees: 5200, stock: 2 },
      ],
    },
    category: "Indoor Plants",
    slug: "fiddle-leaf-fig",
    care: { light: "bright-indirect", watering: "When the top 5 cm of soil is dry", waterEveryDays: 7, petSafe: "no", difficulty: "intermediate", place: "indoor", heightCm: 300 },
    description:
      "Ficus lyrata: large, glossy, violin-shaped leaves on an upright stem. It wants bright, indirect light and a steady spot away from draughts; water when the top few centimetres of soil are dry.",
  },
  {
    name: "Cactus Plant",
    rupees: 600,
    stock: 50,
    category: "Succulents",
    slug: "cactus-plant",
    care: { light: "direct-sun", watering: "When the soil has dried out completely", waterEveryDays: 14, difficulty: "beginner", place: "indoor" },
    description:
      "A columnar cactus that stores water in its ribbed stem and protects itself with spines. Place it in the sunniest window you have and water sparingly, less still in winter.",
  },
  {
    name: "Jasmine Plant",
    rupees: 1000,
    compareAtRupees: 1250,
    stock: 20,
    category: "Flowering Plants",
    slug: "jasmine-plant",
    care: { light: "direct-sun", watering: "When the top 2 cm of soil is dry", waterEveryDays: 3, petSafe: "yes", difficulty: "intermediate", place: "outdoor", heightCm: 150, flowering: "Spring to autumn" },
    description:
      "Jasminum sambac: a climbing shrub with small, white, intensely fragrant flowers that open in the evening. It likes full sun, warmth and evenly moist soil; a trellis helps it climb.",
  },
  {
    name: "Areca Palm",
    rupees: 1800,
    stock: 18,
    sizes: { first: 'Medium · 8" pot', more: [{ label: 'Large · 12" pot', rupees: 3200, stock: 6 }] },
    category: "Indoor Plants",
    slug: "areca-palm",
    care: { light: "bright-indirect", watering: "When the top 2 cm of soil is dry", waterEveryDays: 5, petSafe: "yes", difficulty: "intermediate", place: "both", heightCm: 240 },
    description:
      "Dypsis lutescens: clusters of slender stems with feathery, arching fronds. It brightens a room with indirect light and enjoys humidity; keep the soil lightly moist but never soggy.",
  },
  {
    name: "Money Plant",
    rupees: 900,
    stock: 30,
    category: "Indoor Plants",
    slug: "money-plant",
    care: { light: "low", watering: "When the top 2 cm of soil is dry", waterEveryDays: 7, petSafe: "no", difficulty: "beginner", place: "indoor" },
    description:
      "Golden pothos (Epipremnum aureum): heart-shaped leaves splashed with yellow on trailing vines. It grows in soil or water, tolerates low light and can hang from a shelf or climb a moss pole.",
  },
  {
    name: "Marigold Plant",
    rupees: 500,
    compareAtRupees: 1000,
    stock: 35,
    category: "Flowering Plants",
    slug: "marigold-plant",
    care: { light: "direct-sun", watering: "When the top 2 cm of soil is dry", waterEveryDays: 2, petSafe: "no", difficulty: "beginner", place: "outdoor", heightCm: 60, flowering: "Spring to autumn" },
    description:
      "Tagetes: cheerful orange and yellow pom-pom flowers over feathery leaves. Marigolds love full sun, bloom for months and are easy to grow in pots or beds.",
  },
  {
    name: "Bougainvillea",
    rupees: 1300,
    stock: 12,
    category: "Outdoor Plants",
    slug: "bougainvillea",
    care: { light: "direct-sun", watering: "When the top 5 cm of soil is dry", waterEveryDays: 7, difficulty: "beginner", place: "outdoor", heightCm: 300, flowering: "Several flushes a year, in warm weather" },
    description:
      "A vigorous woody climber covered in papery magenta bracts around tiny white flowers. It thrives in hot sun and prefers to dry out between waterings; prune after flowering to shape it.",
  },
];
