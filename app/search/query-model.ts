// The query model: what a search asks the index for, in no database's
// syntax. Each query word becomes a term (its alternatives: whole indexed
// words, and perhaps every word beginning with it); terms combine into every
// word (all) or any of them (any); a tier is a match and another, or a match
// without another; a match may be kept to one column (the title). Each
// database renders it into its own syntax inside its adapter: FTS5 MATCH text
// in app/data/sqlite/search.server.ts, a tsquery in
// app/data/postgres/search.server.ts (decision 068).
import { NO_EXPANSIONS, type TermExpansions } from "#app/search/expand.ts";
import type { QueryTerm } from "#app/search/parse.ts";

/** The columns of a search document a match may be kept to (documentVector's markers in PostgreSQL). */
export type Column = "title" | "tags";

/** The words one query word matches at a level, and the prefix it also matches by (when too many to list). */
export interface TermAlternatives {
  /** Whole words; the first is the query word itself. */
  words: readonly string[];
  /** Words beginning with this match too (a prefix query), or null. */
  prefix: string | null;
}

export type Match =
  /** One query word: any of its alternatives. */
  | { kind: "term"; alternatives: TermAlternatives }
  /** Every one of the terms ("all"), or any of them ("any"). */
  | { kind: "all" | "any"; of: readonly Match[] }
  /** `left` and `right` ("and"), or `left` and not `right` ("not"). */
  | { kind: "and" | "not"; left: Match; right: Match }
  /** `match` within one column. */
  | { kind: "column"; column: Column; match: Match };

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

export const LEVELS: readonly MatchLevel[] = ["exact", "literal", "full", "wide"];

/** The alternatives of one query word at a level: what the index is asked for (termMatch) and the ranking tests (rank.ts). */
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

/** One query word's alternatives, as a match. */
export function termMatch(alternatives: TermAlternatives): Match {
  return { kind: "term", alternatives };
}

/** Every term must match ("all"), or any of them ("any", the fallback when all finds nothing). */
export function combine(terms: readonly Match[], mode: "all" | "any"): Match {
  return { kind: mode, of: terms };
}

/** Matches of `left` that also match `right`. */
export function both(left: Match, right: Match): Match {
  return { kind: "and", left, right };
}

/** Matches of `left` that do not match `right`. */
export function without(left: Match, right: Match): Match {
  return { kind: "not", left, right };
}

/** The same match within one column: title hits rank first. */
export function inColumn(column: Column, match: Match): Match {
  return { kind: "column", column, match };
}

/** Whether two matches ask for the same thing, node by node. */
export function sameMatch(a: Match, b: Match): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
