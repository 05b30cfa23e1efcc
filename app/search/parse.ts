// Search text → query terms → an FTS5 match expression. User text is data,
// never syntax: it is folded to letters, marks and digits first, and every
// word goes into the expression as a double-quoted string.
import { codePoints, foldWords, hasDevanagari } from "#app/content/search-fold.ts";
import { querySkeletons, shortWordSpellings } from "#app/content/search-roman.ts";
import { isStopWord } from "#app/content/search-stop-words.ts";

/** Words of the search text that are searched; the rest is ignored (and said so). */
export const MAX_QUERY_TERMS = 10;
/** Words of fewer code points match whole words only (मन, ही, "a"); longer ones also begin or sit inside words. */
export const MIN_PARTIAL_LENGTH = 3;

export interface QueryTerm {
  /** The folded word. */
  word: string;
  /** Also matches longer words that begin with it. */
  prefix: boolean;
  /** Devanagari: also matches words that contain it (ज्ञान → आत्मज्ञान). */
  infix: boolean;
  /**
   * Latin words of 3+ letters: the skeletons of the spellings the word may
   * stand for (search-roman.ts), compared with Devanagari words' skeletons;
   * none when they are too weak a guess (zzzz).
   */
  skeletons: string[];
  /** Two-letter Latin words: the Devanagari words they may spell, matched whole (ke → के, की). */
  spellings: string[];
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Words beyond MAX_QUERY_TERMS, not searched. */
  ignored: number;
}

// A word typed with a final virama (ईश्) is a word being typed: folding drops
// the virama, but the word still begins longer ones.
const ENDS_IN_VIRAMA = /[\p{L}\p{M}]*\u094D(?![\p{L}\p{M}\p{N}])/gu;

export function parseQuery(text: string, maxTerms = MAX_QUERY_TERMS): ParsedQuery {
  const typed = [...new Set(foldWords(text))];
  // Single letters and stop words count only when they are all the search holds.
  const meaningful = typed.filter((word) => codePoints(word) > 1 && !isStopWord(word));
  const words = meaningful.length > 0 ? meaningful : typed;
  const unfinished = new Set((text.normalize("NFC").match(ENDS_IN_VIRAMA) ?? []).flatMap(foldWords));
  const terms = words.slice(0, maxTerms).map((word): QueryTerm => {
    const partial = codePoints(word) >= MIN_PARTIAL_LENGTH || unfinished.has(word);
    const devanagari = hasDevanagari(word);
    const latin = /^[a-z]+$/.test(word);
    return {
      word,
      prefix: partial,
      infix: codePoints(word) >= MIN_PARTIAL_LENGTH && devanagari,
      skeletons: latin ? querySkeletons(word) : [],
      spellings: latin ? shortWordSpellings(word) : [],
    };
  });
  return { terms, ignored: Math.max(0, words.length - maxTerms) };
}

/** One FTS5 string: double-quoted, any inner quote doubled (folded words hold none; this is the guarantee). */
export function ftsString(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

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
  /** Words of other languages that mean the same (search-concepts.ts). */
  concepts: readonly string[];
}

/** No lookups: the word as a prefix query when it is long enough. */
export const NO_EXPANSIONS: TermExpansions = {
  prefix: null,
  infix: [],
  romanExact: [],
  romanPrefix: [],
  concepts: [],
};

/**
 * How widely a query word matches: "exact" the word itself, whole, and words
 * that romanise exactly like it; "literal" the word, as a prefix too, and
 * words containing it (the query's own script); "full" all of these and
 * words whose romanisation begins like it; "wide" these and the words of
 * other languages that mean the same. Results rank by the narrowest level
 * they match: a search's own script first, then romanised guesses, then
 * other languages.
 */
export type MatchLevel = "exact" | "literal" | "full" | "wide";

/** The words one query word matches at a level, and the prefix it also matches by (when too many to list). */
export interface TermAlternatives {
  /** Whole words; the first is the query word itself. */
  words: readonly string[];
  /** Words beginning with this match too (a `*` prefix query), or null. */
  prefix: string | null;
}

/** The alternatives of one query word at a level: what termExpression and alternativeTest both read. */
export function termAlternatives(
  term: QueryTerm,
  expansions: TermExpansions = NO_EXPANSIONS,
  level: MatchLevel = "full",
): TermAlternatives {
  const star = term.prefix && level !== "exact" && expansions.prefix === null;
  const words = [term.word];
  if (level !== "literal") words.push(...expansions.romanExact);
  if (level !== "exact") {
    if (term.prefix && expansions.prefix) words.push(...expansions.prefix);
    words.push(...expansions.infix);
  }
  if (level === "full" || level === "wide") words.push(...expansions.romanPrefix);
  if (level === "wide") words.push(...expansions.concepts);
  const kept: string[] = [];
  const seen = new Set<string>();
  for (const [i, word] of words.entries()) {
    // Words the prefix query matches anyway are left out.
    if (seen.has(word) || (star && i > 0 && word.startsWith(term.word))) continue;
    seen.add(word);
    kept.push(word);
  }
  return { words: kept, prefix: star ? term.word : null };
}

/** The alternatives of one query word at a level, as an FTS5 expression. */
export function termExpression(
  term: QueryTerm,
  expansions: TermExpansions = NO_EXPANSIONS,
  level: MatchLevel = "full",
): string {
  return alternativesExpression(termAlternatives(term, expansions, level));
}

/** Alternatives as an FTS5 expression: the words double-quoted, the prefix starred. */
export function alternativesExpression({ words, prefix }: TermAlternatives): string {
  const parts = words.map((word, i) =>
    i === 0 && prefix !== null ? `${ftsString(word)}*` : ftsString(word),
  );
  const [first] = parts;
  return parts.length === 1 && first !== undefined ? first : `(${parts.join(" OR ")})`;
}

/**
 * The test of one query word's alternatives on folded text (words separated
 * by single spaces, as the index holds them, with a space at each end): the
 * match termExpression asks the index for, in our code. Null when nothing can
 * pass it (no words, no prefix).
 */
export function alternativeTest({
  words,
  prefix,
}: TermAlternatives): ((spacedText: string) => boolean) | null {
  const needles = words.map((word) => ` ${word} `);
  if (prefix !== null) needles.push(` ${prefix}`);
  if (needles.length === 0) return null;
  return (spacedText) => {
    for (const needle of needles) if (spacedText.includes(needle)) return true;
    return false;
  };
}

/** Whether spaced folded text holds one of the alternatives (alternativeTest, once). */
export function holdsAlternative(spacedText: string, alternatives: TermAlternatives): boolean {
  return alternativeTest(alternatives)?.(spacedText) ?? false;
}

/** Every word must match ("all"), or any of them ("any", the fallback when all finds nothing). */
export function matchExpression(groups: readonly string[], mode: "all" | "any"): string {
  return groups.join(mode === "all" ? " AND " : " OR ");
}

/** The same expression limited to one column: title hits rank first. */
export function inColumn(column: string, expression: string): string {
  return `{${column}} : (${expression})`;
}

/** Whether a folded word of a document is one the query matched. */
export function wordMatcher(
  terms: readonly QueryTerm[],
  expansions: readonly TermExpansions[],
): (foldedWord: string) => boolean {
  const exact = new Set<string>();
  for (const { prefix, infix, romanExact, romanPrefix, concepts } of expansions) {
    for (const word of [...(prefix ?? []), ...infix, ...romanExact, ...romanPrefix, ...concepts])
      exact.add(word);
  }
  for (const term of terms) exact.add(term.word);
  const prefixes = terms.filter((term, i) => term.prefix && !expansions[i]?.prefix).map((term) => term.word);
  return (word) => exact.has(word) || prefixes.some((prefix) => word.startsWith(prefix));
}
