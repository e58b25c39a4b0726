/** The words of a search, lower-cased, without the punctuation around them. */
export function queryWords(q: string): string[] {
  return q
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ""))
    .filter((word) => word.length > 0);
}

/** Trigrams need 3 letters: shorter words are matched as the start of a name instead. */
export const MIN_INDEXED_WORD = 3;

/**
 * How many single-letter edits a mistyped word may be from the word meant: none for short words (too many words are
 * one letter from 'fig'), one up to 5 letters ('plnt' → 'plant'), two beyond ('bougainvila' → 'bougainvillea').
 */
export function allowedEdits(word: string): number {
  if (word.length < 4) return 0;
  return word.length <= 5 ? 1 : 2;
}

/** Levenshtein distance with adjacent swaps (optimal string alignment), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** An FTS5 string literal: the text in double quotes, inner quotes doubled. */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/** How many vocabulary words sharing trigrams with a mistyped word are checked, and how many are kept. */
export const VARIANT_CANDIDATES = 40;
const VARIANTS_KEPT = 4;

/** Of the vocabulary words found by trigrams, those within `allowedEdits` of `word`, nearest first. */
export function nearestVariants(word: string, candidates: string[]): string[] {
  const max = allowedEdits(word);
  return candidates
    .map((term) => ({ term, distance: editDistance(word, term, max) }))
    .filter(({ term, distance }) => distance <= max && term !== word)
    .sort((a, b) => a.distance - b.distance || a.term.localeCompare(b.term))
    .slice(0, VARIANTS_KEPT)
    .map(({ term }) => term);
}
