import type { Change } from "../change-feed/change-feed.ts";

/** What one change drops from a response cache. */
export interface Invalidation {
  /** The scopes whose entries go (each made with `scopeKey`). */
  scopes: readonly string[];
  /** Whether every answer no rule scopes (lists, searches, other pages) goes too, since it may show what changed. */
  unscoped: boolean;
  /**
   * Scopes whose entries stay but are marked stale: what changed is shown on them, but a copy one change behind may
   * still be served while one request makes them again (response-cache.ts, "stale while one refreshes"). For a
   * change that only moves a number the page also reads live (a product's stock during a sale); never for a
   * change that alters what an action on the page would do.
   */
  refresh?: readonly string[];
}

/** The two anonymous caches: pages (and their `.data`), and JSON answers. */
export type CachedAnswers = "pages" | "json";

/** The scope of the answers that show one thing: `name` says what kind of thing (a rule's name), `id` which one. */
export const scopeKey = (name: string, id: string) => `\0${name}:${id}`;

/**
 * What the anonymous caches drop on which change (docs/decisions/027): the platform keeps the mechanism, each
 * module registers the rules for what it shows and what it announces, and the app layer composes them. A change
 * no rule claims (a resync, or a type nobody registered) drops everything, which is always safe.
 */
export interface CacheRules {
  /**
   * Declares that the answers at paths matching `pattern` show one thing, named by the pattern's first capture:
   * they are kept under `scopeKey(name, capture)`, and only a change that drops that scope (or everything) drops them.
   */
  scope(answers: CachedAnswers, name: string, pattern: RegExp): void;
  /** Declares what a change of `type` drops. */
  onChange<T extends Change["type"]>(type: T, drops: (change: Extract<Change, { type: T }>, answers: CachedAnswers) => Invalidation): void;
  /** The scope of an answer at `path`, if a rule claims it. */
  scopeOf(answers: CachedAnswers, path: string): string | undefined;
  /** What `change` drops from the cache of `answers`; undefined: everything. */
  invalidation(change: Change, answers: CachedAnswers): Invalidation | undefined;
}

export function createCacheRules(): CacheRules {
  const scopes: { answers: CachedAnswers; name: string; pattern: RegExp }[] = [];
  const drops = new Map<string, (change: Change, answers: CachedAnswers) => Invalidation>();
  return {
    scope(answers, name, pattern) {
      scopes.push({ answers, name, pattern });
    },
    onChange(type, rule) {
      if (drops.has(type)) throw new Error(`cache rules: the change type "${type}" has its rule already`);
      drops.set(type, rule as (change: Change, answers: CachedAnswers) => Invalidation);
    },
    scopeOf(answers, path) {
      for (const rule of scopes) {
        if (rule.answers !== answers) continue;
        const id = rule.pattern.exec(path)?.[1];
        if (id !== undefined) return scopeKey(rule.name, id);
      }
      return undefined;
    },
    invalidation(change, answers) {
      return drops.get(change.type)?.(change, answers);
    },
  };
}
