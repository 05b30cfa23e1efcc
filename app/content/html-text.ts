// Post HTML is sanitized when stored (app/data/sanitize.server.ts), so a small
// tag stripper is enough to get its words back: for copy text, descriptions,
// share images, search snippets and the search index.
const BLOCK_END = /<\/(?:p|div|li|blockquote|h[1-6]|figcaption|figure|ul|ol)\s*>|<br\s*\/?>|<hr\s*\/?>/gi;
const TAG = /<[^>]*>/g;
const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi;
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};

function decodeEntity(match: string, body: string): string {
  if (body[0] === "#") {
    const code =
      body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
  }
  return NAMED[body.toLowerCase()] ?? match;
}

/** Character references (&amp;, &#39; …) as the characters they stand for. */
export function decodeEntities(text: string): string {
  return text.includes("&") ? text.replace(ENTITY, decodeEntity) : text;
}

/** Plain text of stored post HTML: paragraphs and line breaks become newlines. */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(BLOCK_END, "\n").replace(TAG, ""))
    .split("\n")
    .map((line) => line.replace(/[^\S\n]+/g, " ").trim())
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * The text of stored post HTML for splitting into words (the search index):
 * tags out, entities decoded, a block's end a space, white space left as it
 * is. foldText splits words on any white space, so its words are
 * htmlToPlainText's, without tidying lines a fold throws away (a sixth of
 * an import's reading thread).
 */
export function htmlToWordText(html: string): string {
  return decodeEntities(html.replace(BLOCK_END, " ").replace(TAG, ""));
}

/** The same text on one line: blocks and line breaks as single spaces. */
export function htmlToPlainText(html: string): string {
  return htmlToText(html).replace(/\s+/g, " ");
}
