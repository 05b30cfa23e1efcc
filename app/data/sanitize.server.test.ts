// Post HTML keeps no style of its own. style= attributes and <style>
// blocks are dropped at import, before the page's CSP (style-src by hash,
// decision 046) would block them anyway.
import { expect, test } from "vitest";
import { readDemoContent } from "#app/data/demo.server.ts";
import { PLAIN_TAGS, plainMarkup, sanitizeByParser, sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { generateCorpus } from "#cli/generate.ts";

test("style attributes and <style> blocks are dropped; the text and allowed markup stay", () => {
  const html = [
    "<style>body{background:red}</style>",
    '<p style="color:red" lang="hi">नमस्ते <span style="font-size:99px">जी</span></p>',
    '<blockquote style="display:none">Said</blockquote>',
    '<svg><style>p{color:red}</style></svg><link rel="stylesheet" href="https://evil.example/x.css">',
  ].join("");
  expect(sanitizePostHtml(html)).toBe('<p lang="hi">नमस्ते <span>जी</span></p><blockquote>Said</blockquote>');
});

// plainMarkup answers for plain markup without sanitize-html (decision 087):
// its answer must be sanitize-html's, byte for byte, and it must answer for
// the posts sites actually have, or it saves nothing.

/** A seeded generator of numbers in [0, 1) (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TEXTS = [
  "a",
  "नमस्ते जी",
  " ",
  '"',
  "'",
  "\r\n",
  "\u00a0",
  "\u0000",
  "\u0085",
  "\ud800",
  "x > y",
  "1 < 2",
  "ॐ॥",
];
const ENTITIES = ["&amp;", "&lt;", "&gt;", "&nbsp;", "&", "&#1;", "&quot;", "&amp", "&#x26;"];
const NAMES: readonly string[] = PLAIN_TAGS;
const MORE_NAMES = [...NAMES, "a", "img", "div", "script", "h1", "table", "dd", "option", "br", "hr"];
const ODD_TAGS = [
  "<br>",
  "<br/>",
  "<br />",
  "</br>",
  "<hr>",
  "<hr/>",
  "<hr />",
  "<P>",
  "<p >",
  '<p class="x">',
  "<p/>",
  "< p>",
  "<",
  ">",
  "<!-- c -->",
  '<em lang="hi">',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** Well-formed markup of plain tags, as posts are written (depth-limited), then sometimes spoiled. */
function wellFormed(next: () => number, depth: number): string {
  let html = "";
  const parts = 1 + Math.floor(next() * 4);
  for (let i = 0; i < parts; i++) {
    const roll = next();
    if (roll < 0.35 || depth === 0) html += pick(next, TEXTS);
    else if (roll < 0.45) html += pick(next, ENTITIES.slice(0, 3));
    else if (roll < 0.55) html += pick(next, ["<br>", "<br />", "<hr>"]);
    else {
      const name = pick(next, NAMES);
      html += `<${name}>${wellFormed(next, depth - 1)}</${name}>`;
    }
  }
  return html;
}

/** Any sequence of pieces: stray closes, unclosed tags, attributes, entities, mis-nesting. */
function anyMarkup(next: () => number): string {
  let html = "";
  const length = Math.floor(next() * 12);
  for (let i = 0; i < length; i++) {
    const roll = next();
    if (roll < 0.3) html += pick(next, TEXTS);
    else if (roll < 0.45) html += pick(next, ENTITIES);
    else if (roll < 0.6) html += pick(next, ODD_TAGS);
    else html += `<${next() < 0.4 ? "/" : ""}${pick(next, MORE_NAMES)}>`;
  }
  return html;
}

test("plain markup is answered as sanitize-html answers it, byte for byte", () => {
  const next = random(87);
  let answered = 0;
  const cases = 20_000;
  for (let i = 0; i < cases; i++) {
    const html = i % 2 === 0 ? wellFormed(next, 3) : anyMarkup(next);
    const plain = plainMarkup(html);
    if (plain === null) continue;
    answered++;
    expect(plain, JSON.stringify(html)).toBe(sanitizeByParser(html));
  }
  // Enough of the cases are answered for the comparison to mean something.
  expect(answered).toBeGreaterThan(cases / 5);
});

test("the markup the parser mends or changes is left to it", () => {
  for (const html of [
    "<p>a<p>b", // an open <p> closed by the next
    "<p>a<ul><li>b</li></ul></p>",
    "<ul><li>a<li>b</ul>",
    "<em>a<strong>b</em></strong>",
    "</p>",
    "a &nbsp; b",
    '<p class="x">a</p>',
    "<P>a</P>",
    "<a>link</a>",
    "a\u0000b",
  ]) {
    expect(plainMarkup(html), html).toBeNull();
    expect(sanitizePostHtml(html)).toBe(sanitizeByParser(html));
  }
});

test("the demo posts and a generated corpus are answered without the parser", () => {
  const demo = readDemoContent();
  const contents = [
    ...demo.posts.map((post) => post.content),
    ...demo.pages.map((page) => page.content),
    ...generateCorpus({ count: 500 }).map((post) => post.content),
  ];
  const plain = contents.filter((html) => plainMarkup(html) !== null);
  for (const html of plain) expect(plainMarkup(html)).toBe(sanitizeByParser(html));
  expect(plain.length / contents.length).toBeGreaterThan(0.9);
});
