// Post HTML is sanitized when stored (app/data/sanitize.server.ts), so a
// small tag stripper is enough to get the words back for search and snippets.
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

/** The visible text of stored post HTML: tags gone, entities decoded, blocks and line breaks as spaces. */
export function htmlToPlainText(html: string): string {
  let text = html.replace(BLOCK_END, " ").replace(TAG, "");
  if (text.includes("&")) text = text.replace(ENTITY, decodeEntity);
  return text.replace(/\s+/g, " ").trim();
}
