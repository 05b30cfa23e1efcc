import { expect, test } from "vitest";
import { htmlToText } from "#app/content/html-text.ts";

test("verse lines and paragraphs become lines of text", () => {
  expect(htmlToText("<p>बुरा जो देखन मैं चला,<br>बुरा न मिलिया कोय।</p><p>— कबीर</p>")).toBe(
    "बुरा जो देखन मैं चला,\nबुरा न मिलिया कोय।\n— कबीर",
  );
});

test("entities are decoded and tags dropped", () => {
  expect(htmlToText("<p>Truth &amp; love &lt;3 &#2384; <em>always</em></p>")).toBe(
    "Truth & love <3 ॐ always",
  );
});
