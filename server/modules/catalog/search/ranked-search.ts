import { sql } from "kysely";
import { SEARCH_RESULT_CAP, type ProductSearch } from "./product-search.ts";
import { allowedEdits, MIN_INDEXED_WORD, nearestVariants, queryWords, VARIANT_CANDIDATES } from "./query-words.ts";

/** A product a search found, with what ranking needs (nothing long: no description). */
export interface Candidate {
  id: string;
  name: string;
  categoryName: string;
  /** For ties, smaller first: the older product, as the shop lists them (created_at, or the index's insertion key). */
  order: string | number;
  /** Read with the match when asked for (a search filtered or ordered), so that no second read by id is needed. */
  keys?: ListKeys;
}

/** A product's columns a filtered list filters, counts and orders by. */
export interface ListKeys {
  created_at: string | Date;
  price_paise: number;
  rating_average: number;
  review_count: number;
  compare_at_paise: number | null;
  care_cell: number;
}

/**
 * The list keys as the index reads return them, one column each, but the creation time: each index reads that one
 * itself, with its own columns (as text on PostgreSQL, where it is also the order key).
 */
const LIST_KEY_COLUMNS = ["price_paise", "rating_average", "review_count", "compare_at_paise", "care_cell"] as const;

/**
 * The list keys' columns but `created_at` for an index read's select list (after its own columns, which hold
 * `created_at`), of the products as `qualifier`.
 */
export function listKeyColumns(withKeys: boolean, qualifier: string) {
  return withKeys ? sql`, ${sql.join(LIST_KEY_COLUMNS.map((column) => sql.ref(`${qualifier}${column}`)))}` : sql``;
}

/**
 * A match as ranking takes it, with its list keys when they were read. Built field by field: a spread per row cost
 * more than the read itself, for the 1,000 rows of a search filtered or ordered.
 */
export function candidateOf(row: { id: string; name: string } & Partial<ListKeys>, categoryName: string, order: string | number, withKeys: boolean): Candidate {
  return withKeys ? { id: row.id, name: row.name, categoryName, order, keys: listKeysOf(row) } : { id: row.id, name: row.name, categoryName, order };
}

/** The list keys of a read row that has the key columns. */
export function listKeysOf(row: Partial<ListKeys>): ListKeys {
  return {
    created_at: row.created_at!,
    price_paise: Number(row.price_paise),
    rating_average: Number(row.rating_average),
    review_count: Number(row.review_count),
    compare_at_paise: row.compare_at_paise ?? null,
    care_cell: Number(row.care_cell),
  };
}

/**
 * What each database answers; every read stops at `limit` rows of its own index. A group is the words one word of
 * the search may stand for (itself, or its vocabulary variants when typos are forgiven); a product matches when every
 * group has a word in it. `withKeys` adds each product's list keys to its row, for a search filtered or ordered.
 */
export interface SearchIndex {
  /** Products whose name has every group, from the index over names, in that index's order. */
  byName(groups: string[][], limit: number, withKeys: boolean): Promise<Candidate[]>;
  /**
   * Products that have every group in their name, description or category name, but not every group in their name,
   * in the index's order, at most `limit`: what comes after byName's `named` matches (all there are), which are not
   * sent again. An index that cannot leave them out before reading a row reads up to `named` rows more.
   */
  beyondNames(groups: string[][], named: number, limit: number, withKeys: boolean): Promise<Candidate[]>;
  /** Vocabulary words sharing trigrams with `word`, most alike first. */
  termsLike(word: string, limit: number): Promise<string[]>;
  /** Products whose lower-cased name starts with `prefix`, in name order (words too short for trigrams). */
  byNamePrefix(prefix: string, cap: number, withKeys: boolean): Promise<{ id: string; keys?: ListKeys }[]>;
}

/**
 * How many candidates are ranked together. The matches are laid out in the index's order, names first, and ranked
 * a window at a time: a page reads only the windows up to its end, so a search costs the page asked for, not the
 * (up to SEARCH_RESULT_CAP) matches of a common word, and a later page never repeats nor skips a product of an
 * earlier one. Larger than every page a shopper asks for at once (the API's 50 + 1; the shop's fifth page, 61).
 */
export const RANK_WINDOW = 64;

/**
 * The search both databases share; only the index reads differ (docs/decisions/026-catalog-search.md, 042).
 *
 * The windows up to the page's end are read, one row more: names first (a product named by every word outranks any
 * other), descriptions and category names after them. A search whose words find nothing as typed is tried again
 * with each word widened to the vocabulary words one or two edits away, against names, then, if still nothing,
 * against every field. Each window is ranked here, the same way on both databases: per word 4 in the name, 2 in the
 * category, 1 in the description, plus the trigram similarity of the name to the search, then the older product
 * first. Nothing is counted past what was read: counting a common word's matches up to 1,000 cost more than the
 * whole search (17–47 ms on PostgreSQL at 100,000 products), so the total is "at least" what was read.
 */
export function createRankedSearch(index: SearchIndex): ProductSearch {
  async function variantsOf(word: string): Promise<string[]> {
    if (allowedEdits(word) === 0) return [];
    return nearestVariants(word, await index.termsLike(word, VARIANT_CANDIDATES));
  }
  /**
   * The first `length` matches in the order windows are cut from: names, then the other fields' matches; `more` when
   * a read found more than `length` (each reads one row past it), so that the total is known to be larger.
   */
  async function laidOut(groups: string[][], namesOnly: boolean, length: number, withKeys: boolean): Promise<{ found: Candidate[]; more: boolean }> {
    const named = await index.byName(groups, length + 1, withKeys);
    if (namesOnly || named.length > length) return { found: named.slice(0, length), more: named.length > length };
    // Every name match is in `named`, so the other fields' matches are read without them: `length + 1` in all fill
    // the length and tell whether more matched, whatever the length (a later page's windows start as an earlier
    // page's did). Reading the name matches again cost as much as the first read, for a word fewer than the cap's
    // names have (a search's usual case in a catalogue of thousands).
    const all = merge(named, await index.beyondNames(groups, named.length, length + 1 - named.length, withKeys));
    return { found: all.slice(0, length), more: all.length > length };
  }
  /**
   * The first `length` matches of words with at least one indexed, best first window by window; or, not `ranked`,
   * in the index's order (which matches are read does not depend on the ranking, only their order does).
   */
  async function readMatches(words: string[], indexed: string[], length: number, withKeys: boolean, ranked: boolean): Promise<{ found: Candidate[]; more: boolean }> {
    let groups = indexed.map((word) => [word]);
    let read = await laidOut(groups, false, length, withKeys);
    if (read.found.length === 0) {
      const variants = await Promise.all(indexed.map(variantsOf));
      if (variants.some((found) => found.length > 0)) {
        // A single word just found nothing anywhere: only its variants are looked for (an index reads every phrase
        // of a group, and the longer the word, the more it costs to find it absent).
        groups = indexed.length === 1 ? [variants[0]!] : indexed.map((word, i) => [word, ...variants[i]!]);
        // Typo variants are read from names first: that is where a shopper's words are, and the name index is small.
        read = await laidOut(groups, true, length, withKeys);
        if (read.found.length === 0) read = await laidOut(groups, false, length, withKeys);
      }
    }
    if (!ranked) return read;
    const text = words.join(" ");
    const best: Candidate[] = [];
    for (let at = 0; at < read.found.length; at += RANK_WINDOW) best.push(...rankCandidates(read.found.slice(at, at + RANK_WINDOW), groups, text));
    return { found: best, more: read.more };
  }
  return {
    async search(q, page) {
      const words = queryWords(q);
      if (words.length === 0) return { ids: [], total: 0, totalCapped: false };
      const indexed = words.filter((word) => word.length >= MIN_INDEXED_WORD);
      if (indexed.length === 0) {
        const ids = (await index.byNamePrefix(words.join(" "), SEARCH_RESULT_CAP + 1, false)).map((match) => match.id);
        return { ids: ids.slice(page.offset, page.offset + page.limit), total: Math.min(ids.length, SEARCH_RESULT_CAP), totalCapped: ids.length > SEARCH_RESULT_CAP };
      }
      // The windows up to the page's end: at least one, at most the cap.
      const windows = Math.max(1, Math.ceil((page.offset + page.limit) / RANK_WINDOW));
      const read = await readMatches(words, indexed, Math.min(windows * RANK_WINDOW, SEARCH_RESULT_CAP), false, true);
      // What was read is the total, exact when nothing is left; past it, "at least" (nothing is counted beyond).
      return { ids: read.found.slice(page.offset, page.offset + page.limit).map((c) => c.id), total: read.found.length, totalCapped: read.more };
    },

    async matchesWithKeys(q, ranked) {
      const words = queryWords(q);
      if (words.length === 0) return { matches: [], totalCapped: false };
      const indexed = words.filter((word) => word.length >= MIN_INDEXED_WORD);
      if (indexed.length === 0) {
        const found = await index.byNamePrefix(words.join(" "), SEARCH_RESULT_CAP + 1, true);
        return { matches: found.slice(0, SEARCH_RESULT_CAP).map((match) => ({ id: match.id, keys: match.keys! })), totalCapped: found.length > SEARCH_RESULT_CAP };
      }
      const read = await readMatches(words, indexed, SEARCH_RESULT_CAP, true, ranked);
      return { matches: read.found.map((c) => ({ id: c.id, keys: c.keys! })), totalCapped: read.more };
    },
  };
}

function merge(first: Candidate[], second: Candidate[]): Candidate[] {
  const seen = new Set(first.map((c) => c.id));
  return [...first, ...second.filter((c) => !seen.has(c.id) && (seen.add(c.id), true))];
}

/** Best first: where each word was found, then how alike the name is to the search, then the older product. */
export function rank(candidates: Candidate[], groups: string[][], text: string): string[] {
  return rankCandidates(candidates, groups, text).map((c) => c.id);
}

function rankCandidates(candidates: Candidate[], groups: string[][], text: string): Candidate[] {
  const wanted = [...trigrams(text)];
  const scored = candidates.map((c) => {
    const name = fold(c.name);
    let score = 0;
    let category: string | undefined;
    for (const group of groups) {
      if (group.some((word) => name.includes(word))) score += 4;
      else if (group.some((word) => (category ??= fold(c.categoryName)).includes(word))) score += 2;
      else score += 1;
    }
    return { candidate: c, score: score + similarity(name, wanted) };
  });
  scored.sort((a, b) => b.score - a.score || compare(a.candidate.order, b.candidate.order) || compare(a.candidate.id, b.candidate.id));
  return scored.map((c) => c.candidate);
}

function compare<T extends string | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const NOT_ASCII = /[^\p{ASCII}]/u;
const NOT_A_WORD = /[^\p{L}\p{N}]+/u;

/** Lower case without accents, as the SQLite index compares ('é' finds 'e'). */
function fold(text: string): string {
  return !NOT_ASCII.test(text) ? text.toLowerCase() : text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** pg_trgm's trigrams of a text: each word padded with two spaces before and one after. */
export function trigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of fold(text).split(NOT_A_WORD)) {
    if (word.length === 0) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3));
  }
  return result;
}

/**
 * pg_trgm's similarity of a folded name to the search's trigrams (shared over all of both), computed without
 * building the name's trigrams: it runs for up to 2,002 candidates per search. A name's trigrams are counted as
 * its letters plus one per word (a repeated trigram counts twice, where pg_trgm counts it once: rare in names).
 */
export function similarity(name: string, wanted: string[]): number {
  let size = 0;
  let padded = "";
  for (const word of name.split(NOT_A_WORD)) {
    if (word.length === 0) continue;
    size += word.length + 1;
    // Words padded and laid end to end: a search trigram is one of a word's exactly when it occurs in this string
    // (no search trigram has a letter followed by two spaces, the only new sequence where two words meet).
    padded += `  ${word} `;
  }
  if (size === 0 || wanted.length === 0) return 0;
  let shared = 0;
  for (const t of wanted) if (padded.includes(t)) shared++;
  return shared / (size + wanted.length - shared);
}
