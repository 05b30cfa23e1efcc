// The matches of a search, as the query model (query-model.ts): each query
// word's alternatives at each level, combined into one match per level, and
// the tiers a result page lists in order (docs/search.md).
import type { TermExpansions } from "#app/search/expand.ts";
import type { QueryTerm } from "#app/search/parse.ts";
import {
  both,
  combine,
  inColumn,
  LEVELS,
  type Match,
  type MatchLevel,
  sameMatch,
  type TermAlternatives,
  termAlternatives,
  termMatch,
  without,
} from "#app/search/query-model.ts";

export interface QueryMatches {
  mode: "all" | "any";
  /** Every kind of match; `full` without other languages, `literal` the query's own script only. */
  wide: Match;
  full: Match;
  exact: Match;
  literal: Match;
  /** Any query word at all (its wide alternatives): what a title must hold for the title tier. */
  anyWord: Match;
  /**
   * Whether `literal` is known to match nothing: a query word (every one,
   * with "any") whose only literal alternative is itself, a word no post
   * holds (TermExpansions.known), as a romanised word usually is.
   */
  literalMatchesNothing: boolean;
  /** Each query word's alternatives at each level: what the window is ranked by, in our code. */
  alternatives: Record<MatchLevel, TermAlternatives[]>;
  /** The alternatives without words no post holds, looked up once a search (rank.ts). */
  present?: Promise<Record<MatchLevel, TermAlternatives[]>>;
}

/**
 * The query's matches. Where the expansions tell which words are indexed
 * (TermExpansions.known), the alternatives without the words no post holds
 * (rank.ts's `present`) come with them, not asked of the backend again.
 */
export function queryMatches(
  terms: readonly QueryTerm[],
  found: readonly TermExpansions[],
  mode: "all" | "any",
): QueryMatches {
  const alternatives = Object.fromEntries(
    LEVELS.map((level) => [level, terms.map((term, i) => termAlternatives(term, found[i], level))]),
  ) as Record<MatchLevel, TermAlternatives[]>;
  const level = (name: MatchLevel) => combine(alternatives[name].map(termMatch), mode);
  const nothingLiteral = (i: number) => {
    const { words, prefix } = alternatives.literal[i] ?? { words: [], prefix: null };
    return found[i]?.known === false && prefix === null && words.length === 1;
  };
  return {
    mode,
    wide: level("wide"),
    full: level("full"),
    exact: level("exact"),
    literal: level("literal"),
    anyWord: combine(alternatives.wide.map(termMatch), "any"),
    literalMatchesNothing:
      mode === "all" ? terms.some((_, i) => nothingLiteral(i)) : terms.every((_, i) => nothingLiteral(i)),
    alternatives,
    ...(terms.every((_, i) => found[i]?.known !== undefined)
      ? { present: Promise.resolve(presentOf(alternatives, terms, found)) }
      : {}),
  };
}

/** The alternatives without the query words no post holds (every other word is an indexed one: TermExpansions.known). */
function presentOf(
  alternatives: Record<MatchLevel, TermAlternatives[]>,
  terms: readonly QueryTerm[],
  found: readonly TermExpansions[],
): Record<MatchLevel, TermAlternatives[]> {
  const present = {} as Record<MatchLevel, TermAlternatives[]>;
  for (const level of LEVELS) {
    present[level] = alternatives[level].map(({ words, prefix }, i) => ({
      words: found[i]?.known ? words : words.filter((word) => word !== terms[i]?.word),
      prefix,
    }));
  }
  return present;
}

/**
 * The tiers of a search, in the order they are listed (decision 037 and
 * docs/search.md): matches in the query's own script (the words as typed,
 * their prefixes, words holding them), then romanised guesses, then other
 * languages; within each kind, title matches first. A kind the query has no
 * words of is left out.
 */
export function tiersOf(query: QueryMatches): Match[] {
  const inTitle = titleTest(query);
  return kindsOf(query).flatMap((kind) => [both(kind, inTitle), without(kind, inTitle)]);
}

/**
 * The kinds of match a search lists in turn (tiersOf: each kind's title
 * matches, then its others). A kind known to match nothing is not asked.
 */
export function kindsOf(query: QueryMatches): Match[] {
  const nothingLiteral = query.literalMatchesNothing;
  const kinds = nothingLiteral ? [] : [query.literal];
  if (!sameMatch(query.full, query.literal))
    kinds.push(nothingLiteral ? query.full : without(query.full, query.literal));
  if (!sameMatch(query.wide, query.full)) kinds.push(without(query.wide, query.full));
  return kinds;
}

/** What splits a kind's matches into its two tiers: a title holding any query word. */
export function titleTest(query: QueryMatches): Match {
  return inColumn("title", query.anyWord);
}
