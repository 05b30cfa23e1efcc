import { expect, test } from "vitest";
import { MAX_QUERY_TERMS, parseQuery } from "#app/search/parse.ts";

test("a query is its folded words, each searched once", () => {
  expect(parseQuery("  Love, LOVE café ").terms.map((t) => t.word)).toEqual(["love", "cafe"]);
});

test("single letters and stop words count only when they are all the search holds", () => {
  const words = (text: string) => parseQuery(text).terms.map((t) => t.word);
  expect(words("the river of life")).toEqual(["river", "life"]);
  expect(words("a b river")).toEqual(["river"]);
  expect(words("प्रेम का सागर")).toEqual(["प्रेम", "सागर"]);
  expect(words("prem ke geet")).toEqual(["prem", "geet"]);
  expect(words("आणि देव")).toEqual(["देव"]);
  // Alone, they are the search.
  expect(words("the")).toEqual(["the"]);
  expect(words("a")).toEqual(["a"]);
  expect(words("ke ki")).toEqual(["ke", "ki"]);
  expect(words("है")).toEqual(["है"]);
});

test("words of three code points or more also match as prefixes; Devanagari ones also inside words", () => {
  const [love, gyan, man] = parseQuery("love ज्ञान मन").terms;
  expect(love).toMatchObject({ prefix: true, infix: false });
  expect(gyan).toMatchObject({ prefix: true, infix: true, skeletons: [], spellings: [] });
  expect(man).toMatchObject({ prefix: false, infix: false });
});

test("a word typed with a final virama begins longer words, however short", () => {
  expect(parseQuery("ईश्").terms[0]).toMatchObject({ word: "ईश", prefix: true });
  expect(parseQuery("ईश").terms[0]).toMatchObject({ word: "ईश", prefix: false });
});

test("Latin words of three letters or more carry romanisation skeletons; two-letter ones, spellings", () => {
  expect(parseQuery("prem").terms[0]?.skeletons).toContain("prem");
  expect(parseQuery("to").terms[0]).toMatchObject({ skeletons: [] });
  expect(parseQuery("to").terms[0]?.spellings).toContain("तो");
  expect(parseQuery("108").terms[0]).toMatchObject({ skeletons: [], spellings: [] });
  // Too weak a guess: one repeated letter.
  expect(parseQuery("zzzz").terms[0]).toMatchObject({ skeletons: [], spellings: [] });
});

test(`at most ${MAX_QUERY_TERMS} words are searched; the rest are counted`, () => {
  const text = Array.from({ length: 14 }, (_, i) => `w${i}`).join(" ");
  const parsed = parseQuery(text);
  expect(parsed.terms).toHaveLength(MAX_QUERY_TERMS);
  expect(parsed.ignored).toBe(4);
});
