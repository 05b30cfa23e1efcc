import { expect, test } from "vitest";
import { cutHtml } from "#app/content/html-cut.ts";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { READ_BOUNDS } from "#app/data/read-bounds.ts";
import { snippet, type WordTest, wordTest } from "#app/search/highlight.ts";
import { bodySnippet, snippetWithoutMatch, wordMatcher } from "#app/search/hits.ts";
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

/** A seeded generator (a linear congruential one) and a pick of one item with it. */
function seeded(start: number) {
  let seed = start;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  return { random, pick };
}

test("a long post's snippet from its start is the snippet its whole text gives", () => {
  // Seeded: words, Devanagari, apostrophes, entities, inline and block tags, runs of space, long words.
  const { random, pick } = seeded(7);
  const words = [
    "love",
    "lovely",
    "truth",
    "don't",
    "peace",
    "मन",
    "प्रेम",
    "सत्य",
    "river",
    "a",
    "x".repeat(300),
  ];
  const pieces = [
    " ",
    "  ",
    "\n",
    ", ",
    ". ",
    " &amp; ",
    "&nbsp;",
    "<br>",
    "</p>\n<p>",
    "<em>",
    "</em>",
    " — ",
  ];
  // The snippet of the whole text, as bodySnippet made it before (when the text holds a match).
  const whole = (html: string, test: WordTest) =>
    snippet(htmlToPlainText(cutHtml(html, READ_BOUNDS.snippetSource).html), test);
  // As hits() makes it: from the text's start as the database gives it (SQL substr), else from the whole text.
  const fromStart = (html: string, test: WordTest) =>
    bodySnippet(html.slice(0, READ_BOUNDS.snippetStart + 1), "", test, false) ??
    bodySnippet(html, "", test, true);
  let early = 0;
  for (let n = 0; n < 400; n++) {
    const wanted = pick(["love", "truth", "प्रेम", "don't", "nothing"]);
    // Up to a place near the start's end (4,096), words that do not match; then any.
    const others = words.filter((word) => word.replace("'", "") !== wanted.replace("'", ""));
    const clear = n % 2 === 0 ? 3_000 + Math.floor(random() * 1_300) : Math.floor(random() * 4_000);
    const length = clear + Math.floor(random() * 8_000);
    let html = "<p>";
    while (html.length < clear) html += random() < 0.35 ? pick(pieces) : pick(others);
    while (html.length < length) html += random() < 0.35 ? pick(pieces) : pick(words);
    html += "</p>";
    const test = wordTest((word) => word === wanted.replace("'", ""));
    const expected = whole(html, test);
    if (!expected.some((segment) => segment.mark)) continue;
    expect(fromStart(html, test), `document ${n}`).toEqual(expected);
    const start = html.slice(0, READ_BOUNDS.snippetStart + 1);
    if (html.length > READ_BOUNDS.snippetStart && bodySnippet(start, "", test, false) !== null) early++;
  }
  // The start alone decided many of them (else this compares the whole text with itself).
  expect(early).toBeGreaterThan(40);
  // A match placed at every few characters around the start's end, in one long paragraph and in short ones.
  const love = wordTest((word) => word === "love");
  for (const filler of ["peace river truth ", "peace river.</p>\n<p>truth "]) {
    for (let at = 3_500; at < 4_300; at += 7) {
      const before = filler
        .repeat(Math.ceil(at / filler.length))
        .slice(0, at)
        .replace(/<[^>]*$/, "");
      const html = `<p>${before} love ${filler.repeat(300)}</p>`;
      expect(fromStart(html, love), `love at ${at}`).toEqual(whole(html, love));
    }
  }
});

test("a long text that holds no match: its snippet from its start is the snippet its whole text gives", () => {
  const { random, pick } = seeded(11);
  const words = ["peace", "river", "मन", "सत्य", "don't", "x".repeat(250), "a", "&amp;", "—"];
  const pieces = [" ", "  ", "\n", ", ", "</p>\n<p>", "<em>", "</em>", "<br />"];
  const love = wordTest((word) => word === "love");
  let compared = 0;
  for (let n = 0; n < 300; n++) {
    const length = Math.floor(random() * 9_000);
    let html = "<p>";
    while (html.length < length) html += random() < 0.35 ? pick(pieces) : pick(words);
    html += "</p>";
    const excerpt = pick(["", "an excerpt", "love in the excerpt"]);
    const start = html.slice(0, READ_BOUNDS.snippetStart + 1);
    const fromStart = snippetWithoutMatch(start, excerpt, love);
    // Too short a start to tell: the whole text is read.
    if (fromStart === null) continue;
    expect(fromStart, `document ${n}`).toEqual(bodySnippet(html, excerpt, love, true));
    compared++;
  }
  expect(compared).toBeGreaterThan(150);
});
