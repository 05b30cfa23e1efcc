// Stored post HTML cut to a bound (docs/decisions/044-bounded-reads.md): the
// stores read at most a bound's characters of a post's text (SQL substr), and
// this makes that prefix whole HTML again. Never inside a tag, an entity, a
// surrogate pair or a word; at the end of the last top-level block when that
// keeps most of the text, else with the elements left open closed.

/** Elements with no end tag. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>/g;
/** The longest character reference a cut can fall in: &#x10FFFF; or a named one. */
const LONGEST_ENTITY = 32;
/** How far back a cut looks for a space or a tag, so as not to split a word. */
const WORD_BACKTRACK = 200;

export interface CutHtml {
  html: string;
  /** Whether text was left out. */
  cut: boolean;
}

/** Where to cut `html` at or before `max`: outside tags, entities and surrogate pairs, at a word end when one is near. */
function safeEnd(html: string, max: number): number {
  let end = max;
  const open = html.lastIndexOf("<", end - 1);
  if (open > html.lastIndexOf(">", end - 1)) end = open;
  const amp = html.lastIndexOf("&", end - 1);
  if (amp >= 0 && end - amp <= LONGEST_ENTITY && html.lastIndexOf(";", end - 1) < amp) end = amp;
  const code = html.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  // A word end: the last space or tag boundary near the cut.
  for (let i = end; i > Math.max(0, end - WORD_BACKTRACK); i--) {
    const before = html[i - 1];
    if (before === " " || before === "\n" || before === "\t" || before === ">" || html[i] === "<") return i;
  }
  return end;
}

/**
 * `html` when it has at most `max` characters; otherwise its start, cut where
 * no tag, entity or word is broken and every element opened is closed.
 */
export function cutHtml(html: string, max: number): CutHtml {
  if (html.length <= max) return { html, cut: false };
  const end = safeEnd(html, max);
  const open: string[] = [];
  let topLevelEnd = 0;
  for (const match of html.slice(0, end).matchAll(TAG)) {
    const name = (match[2] ?? "").toLowerCase();
    if (VOID.has(name)) continue;
    if (match[1] === "/") {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
      if (open.length === 0) topLevelEnd = match.index + match[0].length;
    } else if (!match[0].endsWith("/>")) {
      open.push(name);
    }
  }
  // Whole blocks when they keep at least half the text; else the open elements closed.
  if (open.length === 0) return { html: html.slice(0, end), cut: true };
  if (topLevelEnd >= end / 2) return { html: html.slice(0, topLevelEnd), cut: true };
  const closing = open
    .reverse()
    .map((name) => `</${name}>`)
    .join("");
  return { html: `${html.slice(0, end)}${closing}`, cut: true };
}
