import { expect, test } from "vitest";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { highlight, snippet, wordTest } from "#app/search/highlight.ts";

const marked = (segments: { text: string; mark: boolean }[]) =>
  segments.map((s) => (s.mark ? `[${s.text}]` : s.text)).join("");

test("matched words are marked in the original text, accents and nukta kept", () => {
  const test = wordTest((word) => word === "cafe" || word === "जरूरी");
  expect(marked(highlight("Le Café, c'est ज़रूरी।", test))).toBe("Le [Café], c'est [ज़रूरी]।");
});

test("a word with an apostrophe is one word", () => {
  const test = wordTest((word) => word === "dont");
  expect(marked(highlight("I don't know", test))).toBe("I [don't] know");
});

test("text is never interpreted: markup in it stays text", () => {
  const test = wordTest((word) => word === "b");
  const segments = highlight("<b>bold</b>", test);
  expect(segments.map((s) => s.text).join("")).toBe("<b>bold</b>");
  expect(marked(segments)).toBe("<[b]>bold</[b]>");
});

test("a snippet is the text around the first match, cut between words", () => {
  const words = Array.from({ length: 80 }, (_, i) => `w${i}`);
  words[60] = "love";
  const segments = snippet(
    words.join(" "),
    wordTest((word) => word === "love"),
    100,
  );
  const text = marked(segments);
  expect(text.startsWith("… ")).toBe(true);
  expect(text.endsWith(" …")).toBe(true);
  expect(text).toContain("[love]");
  expect(text).not.toMatch(/ w\d$|^… \d/);
  expect(text.length).toBeLessThanOrEqual(110);
});

test("a short text is its own snippet; without a match the snippet is the beginning", () => {
  const none = wordTest(() => false);
  expect(marked(snippet("short text", none))).toBe("short text");
  const long = "alpha ".repeat(60).trim();
  const text = marked(snippet(long, none, 50));
  expect(text.startsWith("alpha")).toBe(true);
  expect(text.endsWith(" …")).toBe(true);
});

test("stored HTML becomes its visible text", () => {
  expect(htmlToPlainText("<p>One<br>two</p><p>&amp; &lt;three&gt; &#2346;&#x94D;</p>")).toBe(
    "One two & <three> प्",
  );
  expect(htmlToPlainText("<p>a&nbsp;b &unknown; c</p>")).toBe("a b &unknown; c");
});
