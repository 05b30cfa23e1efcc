import { decodeEntities, htmlToText } from "#app/content/html-text.ts";

// An untitled post (WordPress lists it as "(no title)") takes its opening
// words as its title (decision 054). The rule is applied by the record schemas
// (PostRecordSchema, PageRecordSchema in app/content/schemas.ts), so every
// path that validates a record with them gets it: `sukti import` of any
// format and `sukti sync`. Pure: no I/O, no sanitizer.

/** A made title is at most this many characters as a reader counts them (grapheme clusters: "हीं" is one). */
export const MADE_TITLE_GRAPHEMES = 70;

/** Elements whose text a reader never sees: their content is dropped before the words are read. */
const HIDDEN_OPEN = /<(script|style|noscript|template|textarea|iframe|object|svg|math|title)\b/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const IMAGE_ALT = /<img\b[^>]*?\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i;
/** Punctuation a cut title should not end on before its "…". */
const TRAILING = /[\s,;:\-–—(“‘"']+$/u;

/** A line worth a title: it has a letter, a digit or an emoji (a post of only "🙏" is not empty). */
const WORDY = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The text's grapheme clusters (a letter with its vowel signs, an emoji with its modifiers: one each). */
function clusters(text: string): string[] {
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * A title made of `text`: its first line, whole when it has at most `max`
 * graphemes; else cut after the last whole word that fits (words are what
 * spaces separate, so a Devanagari word keeps its vowel signs and conjuncts),
 * trailing commas or dashes dropped, and "…" added. A first word longer than
 * `max` is cut between graphemes. "" when the text has no letter, digit or emoji.
 */
export function titleOfText(text: string, max = MADE_TITLE_GRAPHEMES): string {
  const line =
    text
      .split("\n")
      .map((l) => l.replace(/\s+/g, " ").trim())
      .find((l) => WORDY.test(l)) ?? "";
  if (line === "") return "";
  const letters = clusters(line);
  if (letters.length <= max) return line;
  // Room for the "…".
  const room = letters.slice(0, max - 1);
  const next = letters[max - 1] ?? "";
  let end = room.length;
  if (!/\s/.test(next)) {
    const lastSpace = room.lastIndexOf(" ");
    if (lastSpace > 0) end = lastSpace;
  }
  const cut = room.slice(0, end).join("").replace(TRAILING, "");
  return `${cut === "" ? room.join("") : cut}…`;
}

/** The HTML without hidden elements and what they hold; an unclosed one hides the rest. One pass, no backtracking. */
function withoutHidden(html: string): string {
  const lower = html.toLowerCase();
  let out = "";
  let at = 0;
  HIDDEN_OPEN.lastIndex = 0;
  for (let open = HIDDEN_OPEN.exec(html); open; open = HIDDEN_OPEN.exec(html)) {
    out += html.slice(at, open.index);
    const close = lower.indexOf(`</${(open[1] ?? "").toLowerCase()}`, HIDDEN_OPEN.lastIndex);
    if (close < 0) return out;
    const end = html.indexOf(">", close);
    if (end < 0) return out;
    at = end + 1;
    HIDDEN_OPEN.lastIndex = at;
  }
  return out + html.slice(at);
}

/**
 * The title an untitled post gets: the opening words of its HTML (see
 * titleOfText), else the first image's alt text; "" when the content has
 * neither (an untitled, empty post: `sukti import` skips it, decision 054).
 * Text inside scripts, styles and comments is not a reader's text and is
 * never used.
 */
export function titleFromContent(html: string, max = MADE_TITLE_GRAPHEMES): string {
  const visible = withoutHidden(html.replace(COMMENT, ""));
  const words = titleOfText(htmlToText(visible), max);
  if (words !== "") return words;
  const alt = IMAGE_ALT.exec(visible);
  return alt ? titleOfText(decodeEntities(alt[1] ?? alt[2] ?? ""), max) : "";
}

/** A title that is missing in effect: empty or only spaces (after entities and control characters). */
export function isBlankTitle(title: unknown): boolean {
  return (
    typeof title === "string" &&
    decodeEntities(title)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed from titles
      .replace(/[\u0000-\u001F\u007F-\u009F]/g, "")
      .trim() === ""
  );
}
