// The kinds and tiers a search lists (tiers.ts): a kind known to match
// nothing (a romanised word no post holds, as typed) is not asked of the
// index. That the pages stay the same is search-parity.test.ts's part.
import { expect, test } from "vitest";
import { NO_EXPANSIONS, type TermExpansions } from "#app/search/expand.ts";
import { parseQuery } from "#app/search/parse.ts";
import { both, combine, termAlternatives, termMatch, without } from "#app/search/query-model.ts";
import { kindsOf, queryMatches, tiersOf, titleTest } from "#app/search/tiers.ts";

const romanised = (known: boolean | undefined, more: Partial<TermExpansions> = {}): TermExpansions => ({
  ...NO_EXPANSIONS,
  prefix: [],
  romanExact: ["भक्ति"],
  romanPrefix: ["भक्तिमय"],
  concepts: ["devotion"],
  ...more,
  ...(known === undefined ? {} : { known }),
});

test("a word no post holds, with nothing else in its script, leaves out the literal kind", () => {
  const { terms } = parseQuery("bhakti");
  const query = queryMatches(terms, [romanised(false)], "all");
  expect(query.literalMatchesNothing).toBe(true);
  // Its romanised guesses come first, asked as they are (not "and not the word as typed").
  expect(kindsOf(query)).toEqual([query.full, without(query.wide, query.full)]);
  expect(tiersOf(query)).toHaveLength(4);
  expect(tiersOf(query)[0]).toEqual(both(query.full, titleTest(query)));
});

test("the literal kind stays when the word is held, unknown, or has words of its script beside it", () => {
  const { terms } = parseQuery("bhakti");
  for (const found of [
    romanised(true),
    romanised(undefined),
    romanised(false, { prefix: ["bhaktiful"] }),
    romanised(false, { infix: ["bhaktiyoga"] }),
  ]) {
    const query = queryMatches(terms, [found], "all");
    expect(query.literalMatchesNothing).toBe(false);
    expect(kindsOf(query)[0]).toEqual(query.literal);
    expect(kindsOf(query)[1]).toEqual(without(query.full, query.literal));
  }
  // A prefix too common to list is a prefix query: it may match.
  const [term] = parseQuery("bhak").terms;
  expect(term?.prefix).toBe(true);
  const query = queryMatches([term!], [romanised(false, { prefix: null })], "all");
  expect(query.literalMatchesNothing).toBe(false);
});

test("with every word, one that matches nothing empties the kind; with any, all of them must", () => {
  const { terms } = parseQuery("bhakti love");
  const found = [romanised(false), { ...NO_EXPANSIONS, prefix: ["love"], known: true }];
  expect(queryMatches(terms, found, "all").literalMatchesNothing).toBe(true);
  expect(queryMatches(terms, found, "any").literalMatchesNothing).toBe(false);
  expect(queryMatches(terms, [romanised(false), romanised(false)], "any").literalMatchesNothing).toBe(true);
  // The literal match it replaces is the typed words alone.
  expect(queryMatches(terms, found, "all").literal).toEqual(
    combine(
      terms.map((term, i) => termMatch(termAlternatives(term, found[i], "literal"))),
      "all",
    ),
  );
});
