// The query model rendered as FTS5 MATCH text (fts5Match): the strings the
// search asks SQLite's index for (app/search/query-model.ts, decision 068).
import { expect, test } from "vitest";
import { fts5Match, ftsString } from "#app/data/sqlite/search.server.ts";
import type { TermExpansions } from "#app/search/expand.ts";
import { parseQuery } from "#app/search/parse.ts";
import {
  both,
  combine,
  inColumn,
  type MatchLevel,
  termAlternatives,
  termMatch,
  without,
} from "#app/search/query-model.ts";

test("hostile text becomes quoted words only", () => {
  const hostile = [
    '"',
    '""*',
    "AND OR NOT",
    "NEAR(a b, 3)",
    "title:love",
    "{title}: x",
    "-love +peace",
    "a* ^b",
    "'; DROP TABLE posts; --",
    "\u0000\u202Eevil\u200F",
    "🙏🙏",
  ];
  for (const text of hostile) {
    const { terms } = parseQuery(text);
    const expression = fts5Match(
      combine(
        terms.map((term) => termMatch(termAlternatives(term))),
        "all",
      ),
    );
    // Only quoted strings, optional prefix stars, and our own operators.
    const stripped = expression.replace(/"[^"]*"\*?/g, "").replace(/\b(AND|OR)\b|[()\s]/g, "");
    expect(stripped).toBe("");
  }
  expect(parseQuery("🙏🙏").terms).toEqual([]);
});

test("a string is double-quoted, inner quotes doubled", () => {
  expect(ftsString('a"b')).toBe('"a""b"');
});

test("term matches by level, and the tiers, as FTS5 text", () => {
  const [term] = parseQuery("prem").terms;
  const expansions = {
    prefix: ["prem", "premise"],
    infix: [],
    romanExact: ["प्रेम"],
    romanPrefix: ["प्रेमी"],
    concepts: ["love"],
  };
  const termExpression = (e: TermExpansions, level: MatchLevel) =>
    fts5Match(termMatch(termAlternatives(term!, e, level)));
  expect(termExpression(expansions, "exact")).toBe('("prem" OR "प्रेम")');
  expect(termExpression(expansions, "literal")).toBe('("prem" OR "premise")');
  expect(termExpression(expansions, "full")).toBe('("prem" OR "प्रेम" OR "premise" OR "प्रेमी")');
  expect(termExpression(expansions, "wide")).toBe('("prem" OR "प्रेम" OR "premise" OR "प्रेमी" OR "love")');
  // Too many words with the prefix: a prefix query instead.
  expect(termExpression({ ...expansions, prefix: null }, "literal")).toBe('"prem"*');
  const word = (w: string) => termMatch({ words: [w], prefix: null });
  expect(fts5Match(inColumn("title", word("a")))).toBe('{title} : ("a")');
  expect(fts5Match(combine([word("a"), word("b")], "any"))).toBe('"a" OR "b"');
  // The tiers' shapes (tiers.ts): a kind without another, and within or without the title.
  const all = combine([word("a"), word("b")], "all");
  const kind = without(all, word("a"));
  expect(fts5Match(kind)).toBe('("a" AND "b") NOT ("a")');
  expect(fts5Match(both(kind, inColumn("title", all)))).toBe(
    '(("a" AND "b") NOT ("a")) AND {title} : ("a" AND "b")',
  );
  expect(fts5Match(without(all, inColumn("title", all)))).toBe('("a" AND "b") NOT {title} : ("a" AND "b")');
});
