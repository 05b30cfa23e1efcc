import { describe, expect, test } from "vitest";
import { cutHtml } from "#app/content/html-cut.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { boundedContent } from "#app/data/read-bounds.ts";

/** Whether every element opened in `html` is closed, in order (void elements aside). */
function balanced(html: string): boolean {
  const open: string[] = [];
  for (const [, slash, name] of html.matchAll(/<(\/?)([a-z][a-z0-9]*)[^>]*>/gi)) {
    const tag = (name ?? "").toLowerCase();
    if (["br", "hr", "img"].includes(tag)) continue;
    if (slash === "/") {
      if (open.pop() !== tag) return false;
    } else open.push(tag);
  }
  return open.length === 0;
}

describe("cutHtml", () => {
  test("HTML within the bound comes back as it is", () => {
    const html = "<p>A short <em>quote</em> &amp; more.</p>";
    expect(cutHtml(html, html.length)).toEqual({ html, cut: false });
  });

  test("a cut at every position is never inside a tag, an entity or a word, and closes what it opened", () => {
    const html =
      '<blockquote><p>धीरे धीरे रे मना, <strong>धीरे</strong> सब कुछ होय &amp; माली सींचे &#x0915; सौ घड़ा</p></blockquote>\n<p><a href="/hindi/x">ऋतु आए</a> फल होय 😀 end</p>';
    for (let max = 1; max < html.length; max++) {
      const { html: kept, cut } = cutHtml(html, max);
      expect(cut).toBe(true);
      const open = kept.replace(/<\/[a-z]+>$/g, "");
      expect(kept.length, `max ${max}`).toBeLessThanOrEqual(max + "</strong></p></blockquote>".length);
      expect(balanced(kept), `max ${max}: ${kept}`).toBe(true);
      expect(/<[^>]*$/.test(open), `max ${max}: ${kept}`).toBe(false);
      expect(/&[#a-z0-9]*$/i.test(kept.replace(/(<\/[a-z]+>)+$/, "")), `max ${max}: ${kept}`).toBe(false);
      expect(/[\uD800-\uDBFF]$/.test(kept.replace(/(<\/[a-z]+>)+$/, "")), `max ${max}`).toBe(false);
      // What is kept is the start of the text, whole words only.
      const words = htmlToText(kept).split(/\s+/).filter(Boolean);
      const all = htmlToText(html).split(/\s+/);
      for (const [i, word] of words.entries()) expect(word, `max ${max}`).toBe(all[i]);
    }
  });

  test("whole paragraphs when they keep at least half the text", () => {
    const html = `<p>${"one ".repeat(50)}</p><p>${"two ".repeat(50)}</p>`;
    expect(cutHtml(html, html.length - 20).html).toBe(`<p>${"one ".repeat(50)}</p>`);
  });
});

describe("boundedContent", () => {
  test("a cut post ends with a note in its language; an uncut one is unchanged", () => {
    const html = `<p>${"प्रेम ".repeat(100)}</p>`;
    expect(boundedContent(html, html.length, "hindi")).toBe(html);
    const cut = boundedContent(html, 100, "hindi");
    expect(cut).toMatch(/^<p>(प्रेम )+<\/p>\n<p><em>यह पोस्ट .+<\/em><\/p>$/u);
    expect(boundedContent(html, 100, "marathi")).toContain("ही पोस्ट");
    expect(boundedContent(html, 100, "english")).toContain("too long to show in full");
  });
});
