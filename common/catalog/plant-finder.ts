import type { Difficulty, LightLevel } from "./care-profile.ts";

// The plant finder (docs/product.md, "Plant finder"): four questions a person can answer about their home, each
// answer turned into the shop's own filters, so the finder ends on the filtered list that anyone could have
// reached by hand, with its address to share. Unsure answers add no filter.

/** The shop's filters an answer stands for, as the list's query string names them (docs/product.md, "Shop"). */
export interface FinderFilters {
  light?: readonly LightLevel[];
  pets?: "safe";
  care?: readonly Difficulty[];
  place?: "indoor" | "outdoor";
}

interface FinderOption {
  value: string;
  label: string;
  filters: FinderFilters;
  /** The part of "why these plants" this answer gives, or null when it narrows nothing. */
  because: string | null;
}

export interface FinderQuestion {
  /** The form field's name: the finder's own, apart from the list's filter names, so a half-answered form reads plainly. */
  name: "room-light" | "pets-at-home" | "time-for-care" | "where-it-lives";
  legend: string;
  options: readonly FinderOption[];
}

/** The questions, each with its first option the default ("not sure" never narrows the list). */
export const FINDER_QUESTIONS: readonly FinderQuestion[] = [
  {
    name: "room-light",
    legend: "How much light does the spot get?",
    options: [
      { value: "unsure", label: "I'm not sure", filters: {}, because: null },
      { value: "dim", label: "Not much: a dim corner or a north-facing window", filters: { light: ["low"] }, because: "cope with low light" },
      {
        value: "bright",
        label: "Bright, but no sun on the leaves",
        filters: { light: ["medium", "bright-indirect"] },
        because: "like bright light without direct sun",
      },
      { value: "sunny", label: "Direct sun for a few hours or more", filters: { light: ["direct-sun"] }, because: "love direct sun" },
    ],
  },
  {
    name: "pets-at-home",
    legend: "Do you have cats, dogs or small children who might chew a leaf?",
    options: [
      { value: "no", label: "No", filters: {}, because: null },
      { value: "yes", label: "Yes", filters: { pets: "safe" }, because: "are safe for pets" },
    ],
  },
  {
    name: "time-for-care",
    legend: "How much care can you give?",
    options: [
      { value: "plenty", label: "Plenty: I enjoy looking after plants", filters: {}, because: null },
      { value: "some", label: "Some: I check on them every week", filters: { care: ["beginner", "intermediate"] }, because: "need no expert care" },
      { value: "little", label: "Very little: I forget to water", filters: { care: ["beginner"] }, because: "are easy for beginners" },
    ],
  },
  {
    name: "where-it-lives",
    legend: "Where will it live?",
    options: [
      { value: "either", label: "Either", filters: {}, because: null },
      { value: "indoor", label: "Indoors", filters: { place: "indoor" }, because: "grow indoors" },
      { value: "outdoor", label: "Outdoors: a balcony, terrace or garden", filters: { place: "outdoor" }, because: "grow outdoors" },
    ],
  },
];

/** The value of `finder` on the list it ends on: the list then says why these plants. */
export const FINDER_MARK = "1";

export interface FinderAnswers {
  /** The chosen option of each question, by the question's name; a missing or unknown answer is the question's default. */
  [name: string]: string | undefined;
}

function chosenOptions(answers: FinderAnswers): FinderOption[] {
  return FINDER_QUESTIONS.map((question) => question.options.find((option) => option.value === answers[question.name]) ?? question.options[0]!);
}

/** Whether the form was sent at all (any question answered), as opposed to the finder being opened. */
export function finderWasAnswered(answers: FinderAnswers): boolean {
  return FINDER_QUESTIONS.some((question) => answers[question.name] !== undefined);
}

/** The shop's address the answers end on: its filters, and the mark that makes the list say why. */
export function finderDestination(answers: FinderAnswers): string {
  const query = new URLSearchParams();
  for (const { filters } of chosenOptions(answers)) {
    for (const level of filters.light ?? []) query.append("light", level);
    if (filters.pets) query.append("pets", filters.pets);
    for (const difficulty of filters.care ?? []) query.append("care", difficulty);
    if (filters.place) query.append("place", filters.place);
  }
  query.set("finder", FINDER_MARK);
  return `/shop?${query}`;
}

/**
 * "Why these plants", read back from the list's own filters (so a shared or edited address says what it shows):
 * the finder's reasons for the filters present, in the questions' order, or null when the list is not the finder's
 * or its filters are not the finder's answers.
 */
export function finderReason(search: URLSearchParams): string | null {
  if (search.get("finder") !== FINDER_MARK) return null;
  const reasons: string[] = [];
  for (const question of FINDER_QUESTIONS) {
    const answered = question.options.find((option) => option.because !== null && sameFilters(option.filters, search));
    if (answered?.because) reasons.push(answered.because);
  }
  if (reasons.length === 0) return "You told us anything goes, so here is every plant we sell.";
  return `These plants ${joinReasons(reasons)}, from what you told us.`;
}

function sameFilters(filters: FinderFilters, search: URLSearchParams): boolean {
  const same = (name: string, values: readonly string[] | undefined) => {
    if (!values) return true;
    const present = search.getAll(name);
    return present.length === values.length && values.every((value) => present.includes(value));
  };
  return (
    same("light", filters.light) &&
    same("pets", filters.pets ? [filters.pets] : undefined) &&
    same("care", filters.care) &&
    same("place", filters.place ? [filters.place] : undefined)
  );
}

/** "a", "a and b", "a, b and c". */
function joinReasons(reasons: string[]): string {
  if (reasons.length === 1) return reasons[0]!;
  return `${reasons.slice(0, -1).join(", ")} and ${reasons.at(-1)}`;
}
