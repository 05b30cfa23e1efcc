import { expect, test } from "vitest";
import { wordMatcher } from "#app/search/hits.ts";
import { parseQuery } from "#app/search/parse.ts";

test("the word matcher marks the words the query found", () => {
  const terms = parseQuery("lov मन").terms;
  const isMatch = wordMatcher(terms, [
    { prefix: null, infix: [], romanExact: [], romanPrefix: [], concepts: [] },
    { prefix: null, infix: [], romanExact: [], romanPrefix: [], concepts: [] },
  ]);
  expect(isMatch("love")).toBe(true);
  expect(isMatch("glove")).toBe(false);
  expect(isMatch("मन")).toBe(true);
  expect(isMatch("मना")).toBe(false);
});
