import { expect, test } from "vitest";
import {
  EMBED_MAX_HEIGHT,
  EMBED_MIN_HEIGHT,
  EMBED_WIDTH,
  embedHeight,
  embedPath,
  embedQuote,
  embedSnippet,
} from "./embed.ts";

test("the snippet escapes what it quotes and names the embed page by its encoded address", () => {
  const src = `https://sukti.example${embedPath("hindi", "प्रेम-गली")}`;
  expect(src).toBe(
    "https://sukti.example/embed/hindi/%E0%A4%AA%E0%A5%8D%E0%A4%B0%E0%A5%87%E0%A4%AE-%E0%A4%97%E0%A4%B2%E0%A5%80",
  );
  expect(embedSnippet(src, 'Say "no" & <go>', 560, 200)).toBe(
    `<iframe src="${src}" width="560" height="200" title="Say &quot;no&quot; &amp; &lt;go&gt;" loading="lazy" style="border:0;max-width:100%"></iframe>`,
  );
});

test("the card shows the quote's lines and who said it, or the title when the post has no text", () => {
  expect(
    embedQuote({ title: "T", content: "<p>One line<br>two line</p><p>— Kabir</p>", source: { line: "" } }),
  ).toEqual({ lines: ["One line", "two line"], attribution: "Kabir" });
  expect(embedQuote({ title: "Only a title", content: "", source: null })).toEqual({
    lines: ["Only a title"],
    attribution: null,
  });
});

test("the frame's height grows with the quote and with a narrower frame, within its bounds", () => {
  const short = { lines: ["Arise, awake."], attribution: "Vivekananda" };
  const long = { lines: ["word ".repeat(120)], attribution: "Someone, a book, verse 5" };
  expect(embedHeight(short, EMBED_WIDTH)).toBe(EMBED_MIN_HEIGHT);
  expect(embedHeight(long, EMBED_WIDTH)).toBeGreaterThan(embedHeight(short, EMBED_WIDTH));
  expect(embedHeight(long, 300)).toBeGreaterThan(embedHeight(long, EMBED_WIDTH));
  expect(embedHeight({ lines: ["x ".repeat(5000)], attribution: null }, EMBED_WIDTH)).toBe(EMBED_MAX_HEIGHT);
  expect(embedHeight(short, 1)).toBeLessThanOrEqual(EMBED_MAX_HEIGHT);
});
