// Each query word → the indexed words it may stand for (docs/search.md):
// words beginning with it, containing it, sounding like it (its romanised
// skeletons, roman.ts), meaning it (concepts.ts); a romanised word that
// finds nothing is read one letter off.
import type { SearchBackend } from "#app/search/backend.ts";
import { conceptWords } from "#app/search/concepts.ts";
import { nearQuerySkeletons } from "#app/search/near.ts";
import type { QueryTerm } from "#app/search/parse.ts";
import { MIN_ROMAN_PREFIX } from "#app/search/roman.ts";

/** Indexed words a query word may bring in, by infix and by skeleton (each). */
export const MAX_EXPANSIONS = 40;
/** Words sharing a prefix listed one by one; beyond this, a prefix query. */
export const MAX_PREFIX_WORDS = 64;
/** Query words read one letter off at most, the first ones that need it: each costs a lookup of thousands of skeletons. */
export const MAX_NEAR_TERMS = 3;

/** Indexed words found for a query word. */
export interface TermExpansions {
  /** Words beginning with the query word (itself included), or null when too many to list: then a prefix query. */
  prefix: readonly string[] | null;
  /** Devanagari words containing the query word. */
  infix: readonly string[];
  /** Devanagari words whose skeleton is the query word's skeleton. */
  romanExact: readonly string[];
  /** Devanagari words whose skeleton begins with the query word's skeleton. */
  romanPrefix: readonly string[];
  /** Words of other languages that mean the same (concepts.ts). */
  concepts: readonly string[];
  /**
   * Whether the query word itself is an indexed word, where the backend can
   * tell (knownWords); every other word here is one then (the spellings and
   * concepts no post holds are left out). Undefined where it cannot tell.
   */
  known?: boolean;
}

/** No lookups: the word as a prefix query when it is long enough. */
export const NO_EXPANSIONS: TermExpansions = {
  prefix: null,
  infix: [],
  romanExact: [],
  romanPrefix: [],
  concepts: [],
};

/** Indexed words found for a query word: words beginning with it, containing it, sounding like it, meaning it. */
export async function expand(backend: SearchBackend, term: QueryTerm): Promise<TermExpansions> {
  const prefixLookup = term.prefix
    ? backend.wordRange(term.word, `${term.word}\u{10FFFF}`, MAX_PREFIX_WORDS + 1)
    : Promise.resolve(null);
  const infixLookup = term.infix ? backend.infix(term.word, MAX_EXPANSIONS) : Promise.resolve([]);
  const romanLookups = term.skeletons.map((skeleton) =>
    skeleton.length >= MIN_ROMAN_PREFIX
      ? backend.skeletonRange(skeleton, `${skeleton}~`, MAX_EXPANSIONS)
      : backend
          .skeletonExact(skeleton, MAX_EXPANSIONS)
          .then((words) => words.map((word) => ({ word, exact: true }))),
  );
  // The words listed unchecked (the query word, its Devanagari spellings, its concepts) looked up beside.
  const concepts = conceptWords(term.word);
  const checking = backend.knownWords?.([term.word, ...term.spellings, ...concepts]) ?? null;
  const [words, infix, checked, ...roman] = await Promise.all([
    prefixLookup,
    infixLookup,
    checking,
    ...romanLookups,
  ]);
  const held = checked && new Set(checked);
  const isHeld = (word: string) => held === null || held.has(word);
  const prefix = words && words.length <= MAX_PREFIX_WORDS ? words : null;
  // A two-letter word's Devanagari spellings are matched whole (ke → के, की).
  const romanExact = new Set<string>(term.spellings.filter(isHeld));
  const romanPrefix = new Set<string>();
  for (const row of roman.flat()) (row.exact ? romanExact : romanPrefix).add(row.word);
  for (const word of romanExact) romanPrefix.delete(word);
  return {
    prefix,
    infix,
    romanExact: [...romanExact],
    romanPrefix: [...romanPrefix].slice(0, MAX_EXPANSIONS),
    concepts: concepts.filter(isHeld),
    ...(held === null ? {} : { known: held.has(term.word) }),
  };
}

/** Whether a Latin query word's lookups found no indexed word at all. */
function matchesNothing(term: QueryTerm, e: TermExpansions): boolean {
  return (
    term.skeletons.length > 0 &&
    e.prefix !== null &&
    e.prefix.length === 0 &&
    e.infix.length === 0 &&
    e.romanPrefix.length === 0 &&
    e.concepts.length === 0 &&
    // An initialism's letter names (zndagi: जेडएनडी…) are listed unchecked: they are no evidence of a match.
    e.romanExact.every((word) => term.spellings.includes(word))
  );
}

/**
 * A romanised query word that matches nothing at all (no word begins with
 * it, no skeleton finds one, no concept) is read one letter off: the
 * Devanagari words whose skeleton is one edit from one of its skeletons (a
 * typo; near.ts, nearSkeletons), as romanised guesses. A word with
 * any match keeps exactly what it had.
 */
export async function readNear(
  backend: SearchBackend,
  terms: readonly QueryTerm[],
  found: readonly TermExpansions[],
): Promise<TermExpansions[]> {
  const unmatched = found
    .map((expansions, i) => ({ term: terms[i], i, expansions }))
    .filter(
      (entry): entry is { term: QueryTerm; i: number; expansions: TermExpansions } =>
        entry.term !== undefined && matchesNothing(entry.term, entry.expansions),
    )
    .slice(0, MAX_NEAR_TERMS);
  const result = [...found];
  await Promise.all(
    unmatched.map(async ({ term, i, expansions }) => {
      const near = nearQuerySkeletons(term.word, term.skeletons);
      if (near.length === 0) return;
      result[i] = { ...expansions, romanPrefix: await backend.skeletonsIn(near, MAX_EXPANSIONS) };
    }),
  );
  return result;
}
