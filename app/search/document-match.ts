// Whether a post's indexed words pass a match of the query model
// (query-model.ts), in our code: what the index answers for that post, read
// from its document's folded title, tags and body (words separated by single
// spaces, as the index holds them). A term holds one of its alternatives as
// a whole word, or a word beginning with its prefix (alternativeTest); a
// column keeps the test to that column's words; the others are AND, OR and
// NOT. Used where reading a few documents is cheaper than asking the index
// again (rank.ts: a search with few matches).
import { READ_BOUNDS } from "#app/data/read-bounds.ts";
import type { Column, Match, TermAlternatives } from "#app/search/query-model.ts";

/**
 * The test of one query word's alternatives on folded text (words separated
 * by single spaces, as the index holds them, with a space at each end): the
 * match the index is asked for (its term), in our code. Null when nothing can
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

/** A document's indexed words, each text with a space at each end. */
export interface SpacedDocument {
  title: string;
  tags: string;
  /** Every word: title, tags and body. */
  all: string;
}

/**
 * The document as the tests read it; null when a text may have been cut at
 * its read bound (decision 044): a test on it could then miss a word the
 * index holds.
 */
export function spacedDocument(title: string, tags: string, body: string): SpacedDocument | null {
  if (
    title.length >= READ_BOUNDS.indexedHead ||
    tags.length >= READ_BOUNDS.indexedHead ||
    body.length >= READ_BOUNDS.indexedBody
  )
    return null;
  return { title: ` ${title} `, tags: ` ${tags} `, all: ` ${title} ${tags} ${body} ` };
}

/**
 * The tests of matches on a document (whether the index would list it for
 * each), made once for many documents. A query word's alternatives recur
 * across the matches of a search (its tiers and the ranking's tests share
 * them): each is tested once a document and column.
 */
export function documentTests(matches: readonly Match[]): (document: SpacedDocument) => boolean[] {
  /** Per distinct alternatives and column: its test, and its answer for the document under test (undefined: not yet asked). */
  const terms = new Map<TermAlternatives, Map<Column | "all", number>>();
  const tests: ((text: string) => boolean)[] = [];
  const columns: (Column | "all")[] = [];
  let answers: (boolean | undefined)[] = [];
  let current: SpacedDocument | null = null;
  const compile = (match: Match, column: Column | "all"): (() => boolean) => {
    switch (match.kind) {
      case "term": {
        const byColumn = terms.get(match.alternatives) ?? new Map<Column | "all", number>();
        terms.set(match.alternatives, byColumn);
        let at = byColumn.get(column);
        if (at === undefined) {
          const test = alternativeTest(match.alternatives);
          at = tests.push(test ?? (() => false)) - 1;
          columns.push(column);
          byColumn.set(column, at);
        }
        const slot = at;
        return () => {
          let answer = answers[slot];
          if (answer === undefined) {
            answer = (tests[slot] as (text: string) => boolean)(
              (current as SpacedDocument)[columns[slot] as Column | "all"],
            );
            answers[slot] = answer;
          }
          return answer;
        };
      }
      case "all": {
        const parts = match.of.map((part) => compile(part, column));
        return () => parts.every((part) => part());
      }
      case "any": {
        const parts = match.of.map((part) => compile(part, column));
        return () => parts.some((part) => part());
      }
      case "and": {
        const [left, right] = [compile(match.left, column), compile(match.right, column)];
        return () => left() && right();
      }
      case "not": {
        const [left, right] = [compile(match.left, column), compile(match.right, column)];
        return () => left() && !right();
      }
      case "column":
        return compile(match.match, match.column);
    }
  };
  const compiled = matches.map((match) => compile(match, "all"));
  return (document) => {
    current = document;
    answers = new Array(tests.length);
    return compiled.map((test) => test());
  };
}
