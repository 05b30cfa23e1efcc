// Search text → query terms, the first step of search (docs/search.md). User
// text is data, never syntax: it is folded to letters, marks and digits
// first; the query model (query-model.ts) carries each word as a string, and
// each database's adapter quotes it in its own syntax.
import { codePoints, foldWords, hasDevanagari } from "#app/search/fold.ts";
import { querySkeletons, shortWordSpellings } from "#app/search/roman.ts";

import { isStopWord } from "#app/search/stop-words.ts";

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
   * stand for (roman.ts), compared with Devanagari words' skeletons;
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
