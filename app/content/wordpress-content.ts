// WordPress's post_content as stored (what a WXR export's content:encoded
// holds, and the REST API's content.raw) is not yet HTML a reader sees:
// WordPress renders it through do_blocks, do_shortcode, autoembed and
// wpautop on every view. wordpressContent does the part of that sukti needs
// (decision 054), so no block comment or shortcode ever shows as text. Its
// output is HTML for the sanitizer (app/data/sanitize.server.ts), which runs
// on writing as for every record. Pure: no I/O; nothing is fetched.

const BLOCK_TAGS = "p|div|ul|ol|li|blockquote|h[1-6]|figure|figcaption|table|thead|tbody|tr|td|th|pre|hr";
const BLOCK_OPEN = new RegExp(`(<(?:${BLOCK_TAGS})(?=[\\s/>]))`, "gi");
const BLOCK_CLOSE = new RegExp(`(</(?:${BLOCK_TAGS})>)`, "gi");
const BLOCK_START = new RegExp(`^</?(?:${BLOCK_TAGS})[\\s/>]`, "i");

/** A block's delimiter (a comment's body), opening, closing or self-closing, with its JSON attributes: `<!-- wp:image {"id":5} /-->`. */
const BLOCK_DELIMITER = /^\s*\/?wp:/;
/** `<!--more-->`, `<!--more Read on…-->`: WordPress's teaser cut. */
const MORE = /^more(?:\s|$)/;
/** `<!--nextpage-->` and `<!--noteaser-->`: pagination and teaser flags, nothing to read. */
const PAGING = /^(?:more|nextpage|noteaser)(?:\s|$)/;

/**
 * Each HTML comment of `text` given to `replace` (its body, between `<!--`
 * and `-->`), which returns what takes its place, or null to keep it. One
 * pass (indexOf, no backtracking): an unclosed comment ends the walk.
 */
function mapComments(text: string, replace: (body: string) => string | null): string {
  let out = "";
  let at = 0;
  for (;;) {
    const start = text.indexOf("<!--", at);
    if (start < 0) break;
    const end = text.indexOf("-->", start + 4);
    if (end < 0) break;
    const replacement = replace(text.slice(start + 4, end));
    out += text.slice(at, start) + (replacement ?? text.slice(start, end + 3));
    at = end + 3;
  }
  return out + text.slice(at);
}

/** A line that is only an http(s) address: WordPress embeds it (autoembed); sukti links it. */
const BARE_URL_LINE = /^([^\S\n]*)(https?:\/\/[^\s<>"']+)([^\S\n]*)$/gim;

/**
 * WordPress's classic editor stores text with blank lines between paragraphs
 * and renders it through wpautop(); this does the same for the common cases:
 * block elements stand alone, each other blank-line-separated run becomes a
 * <p>, and single newlines inside it <br>.
 */
export function autop(html: string): string {
  const text = html.replace(/\r\n?/g, "\n").trim();
  if (text === "") return "";
  return text
    .replace(BLOCK_OPEN, "\n\n$1")
    .replace(BLOCK_CLOSE, "$1\n\n")
    .split(/\n\s*\n/)
    .map((run) => run.trim())
    .filter((run) => run !== "")
    .map((run) => (BLOCK_START.test(run) ? run : `<p>${run.replace(/\n/g, "<br>\n")}</p>`))
    .join("\n");
}

// Shortcodes ------------------------------------------------------------------

/** A shortcode's name, as WordPress allows it (add_shortcode): ASCII letters, digits, _ and -, from a letter. */
const NAME = "[A-Za-z][A-Za-z0-9_-]*";
/** `[[gallery]]`: WordPress's escape for a shortcode shown as text. Kept as `[gallery]`. */
const ESCAPED = new RegExp(`\\[\\[(/?${NAME}(?:\\s[^\\[\\]]*)?/?)\\]\\]`, "g");
/** An opening or self-closing tag: `[name]`, `[name a="b" c]`, `[name /]`. */
const OPEN_TAG = new RegExp(`\\[(${NAME})(\\s[^\\[\\]]*?)?(\\/)?\\]`, "g");
const CLOSE_TAG = new RegExp(`\\[\\/(${NAME})\\]`, "g");
/** Private-use stand-ins for the brackets of escaped shortcodes while the others are worked on. */
const LEFT = "\uE000";
/** Enclosing shortcodes rendered at most per post. */
const MAX_ROUNDS = 200;
const RIGHT = "\uE001";

/**
 * Shortcodes of WordPress and of Jetpack and common plugins, removed even
 * when written bare (`[toc]`). Another bare bracketed word with no
 * attributes and no closing tag (`[sic]`, `[Chorus]`) is text, as WordPress
 * shows a shortcode no plugin registered.
 */
const KNOWN = new Set([
  "gallery",
  "playlist",
  "caption",
  "wp_caption",
  "embed",
  "audio",
  "video",
  "archives",
  "sitemap",
  "toc",
  "contact-form",
  "contact-field",
  "googlemaps",
  "youtube",
  "vimeo",
  "soundcloud",
  "instagram",
  "twitter",
  "tweet",
  "spotify",
  "slideshow",
  "subscribe",
  "more",
]);

/** Media shortcodes whose address becomes a link (never a player or an embed: nothing is fetched). */
const MEDIA = new Set(["audio", "video", "embed", "youtube", "vimeo", "soundcloud", "spotify"]);
const MEDIA_SOURCE =
  /\b(?:src|url|mp3|m4a|ogg|oga|wav|wma|flac|mp4|m4v|webm|ogv|wmv|flv)\s*=\s*(?:"([^"]*)"|'([^']*)'|(\S+))/i;
const HTTP_URL = /^https?:\/\/[^\s<>"']+$/i;

function attribute(attributes: string, name: string): string {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s\\]]+))`, "i").exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3] ?? "") : "";
}

/** `<p><a href="URL">URL</a></p>`, or "" when `url` is not an http(s) address. */
function link(url: string): string {
  const address = url.trim().replace(/&amp;/g, "&");
  if (!HTTP_URL.test(address)) return "";
  const escaped = address.replace(/&/g, "&amp;");
  return `\n\n<p><a href="${escaped}">${escaped}</a></p>\n\n`;
}

/** [caption]<a><img></a> text[/caption] → <figure><a><img></a><figcaption>text</figcaption></figure>. */
function caption(attributes: string, inner: string): string {
  const image = /^\s*((?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?)/i.exec(inner);
  const media = image?.[1] ?? "";
  const text = (image ? inner.slice(image[0].length) : inner).trim() || attribute(attributes, "caption");
  if (media === "") return text;
  return `\n\n<figure>${media}${text ? `<figcaption>${text}</figcaption>` : ""}</figure>\n\n`;
}

/** One shortcode, with its attributes and (for an enclosing one) its inner content, as HTML. */
function renderShortcode(name: string, attributes: string, inner: string | null): string {
  const lower = name.toLowerCase();
  if (lower === "caption" || lower === "wp_caption") return caption(attributes, inner ?? "");
  if (MEDIA.has(lower)) {
    const source = MEDIA_SOURCE.exec(attributes);
    const fromAttributes = source ? (source[1] ?? source[2] ?? source[3] ?? "") : "";
    // [embed]URL[/embed], [youtube URL]; else an attribute; the inner text of [audio] is a fallback.
    const bare = attributes.trim().split(/\s+/)[0] ?? "";
    const url = [inner ?? "", fromAttributes, bare].map((u) => u.trim()).find((u) => HTTP_URL.test(u));
    return url ? link(url) : "";
  }
  // Other enclosing shortcodes keep what they enclose; the rest is removed.
  return inner ?? "";
}

/** Any shortcode tag, opening (1–3) or closing (4), in one left-to-right scan. */
const ANY_TAG = new RegExp(`${OPEN_TAG.source}|${CLOSE_TAG.source}`, "g");

/**
 * The leftmost closing tag that has an opening tag of its name before it,
 * with the nearest such opening tag: a pair enclosing no other pair. One scan.
 */
function firstPair(text: string): { open: RegExpExecArray; close: RegExpExecArray } | null {
  const opens = new Map<string, RegExpExecArray>();
  for (const tag of text.matchAll(ANY_TAG)) {
    const closing = tag[4];
    if (closing !== undefined) {
      const open = opens.get(closing.toLowerCase());
      if (open) return { open, close: tag };
    } else if (tag[3] === undefined) {
      opens.set((tag[1] ?? "").toLowerCase(), tag);
    }
  }
  return null;
}

/** Whether a bracketed word is a shortcode to remove: attributes, a slash, a closing tag, a known name, or a plugin's (_ or -). */
function isShortcode(name: string, attributes: string | undefined, selfClosing: boolean, closed: boolean) {
  return (
    closed ||
    selfClosing ||
    (attributes !== undefined && attributes.trim() !== "") ||
    KNOWN.has(name.toLowerCase()) ||
    /[_-]/.test(name)
  );
}

/**
 * Shortcodes rendered or removed (decision 054):
 * - `[caption]<img> text[/caption]` → a figure with the image and its caption;
 * - `[embed]URL[/embed]`, `[audio src="…"]`, `[video mp4="…"]`, `[youtube URL]`
 *   → a link to the address in its own paragraph (no player, no iframe);
 * - `[gallery ids="…"]`, `[playlist]`, and any other shortcode → removed; an
 *   enclosing one (`[su_quote]…[/su_quote]`) keeps what it encloses;
 * - `[[gallery]]` (WordPress's escape) → the text `[gallery]`;
 * - a bare bracketed word that is no known shortcode (`[sic]`) stays text.
 */
export function renderShortcodes(text: string): string {
  if (!text.includes("[")) return text;
  let out = text.replace(ESCAPED, (_m, body: string) => `${LEFT}${body}${RIGHT}`);
  // Enclosing shortcodes, innermost first: the leftmost closing tag that has
  // an opening tag of its name before it encloses no other pair. Bounded: past
  // MAX_ROUNDS pairs (no real post has so many) the single-tag pass below
  // still removes the tags.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const pair = firstPair(out);
    if (!pair) break;
    const { open, close } = pair;
    const inner = out.slice(open.index + open[0].length, close.index);
    out =
      out.slice(0, open.index) +
      renderShortcode(open[1] ?? "", open[2] ?? "", inner) +
      out.slice(close.index + close[0].length);
  }
  // Self-closing and single tags; a stray closing tag of a shortcode goes too.
  out = out.replace(
    OPEN_TAG,
    (whole, name: string, attributes: string | undefined, slash: string | undefined) =>
      isShortcode(name, attributes, slash !== undefined, false)
        ? renderShortcode(name, attributes ?? "", null)
        : whole,
  );
  out = out.replace(CLOSE_TAG, (whole, name: string) =>
    KNOWN.has(name.toLowerCase()) || /[_-]/.test(name) ? "" : whole,
  );
  return out.replaceAll(LEFT, "[").replaceAll(RIGHT, "]");
}

/**
 * An <audio> or <video> element (the audio, video and embed blocks' HTML):
 * bounded, so a file of unclosed tags costs no more than 4,000 characters each.
 */
const MEDIA_ELEMENT = /<(audio|video)\b([^>]*)>([\s\S]{0,4000}?)<\/\1\s*>/gi;
const SRC = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const EMPTY_FIGURE = /<figure\b[^>]*>\s*(?:<figcaption\b[^>]*>\s*<\/figcaption>\s*)?<\/figure>/gi;

/** <audio src="URL"> and <video> (or their first <source>) become a link, as their shortcodes do; figures left empty go. */
export function linkMediaElements(html: string): string {
  if (!/<(?:audio|video)\b/i.test(html)) return html;
  return html
    .replace(MEDIA_ELEMENT, (_m, _tag: string, attributes: string, inner: string) => {
      const src = SRC.exec(attributes) ?? SRC.exec(/<source\b[^>]*>/i.exec(inner)?.[0] ?? "");
      return src ? link(src[1] ?? src[2] ?? src[3] ?? "").trim() : "";
    })
    .replace(EMPTY_FIGURE, "");
}

/** Lines that are only an address become a link to it (WordPress would embed it: sukti never fetches or frames it). */
export function linkBareUrls(html: string): string {
  return html.replace(BARE_URL_LINE, (_m, _before: string, url: string) => link(url).trim());
}

/**
 * WordPress post_content as HTML for sukti: block delimiters dropped (their
 * inner HTML kept), `<!--more-->`, `<!--nextpage-->` and `<!--noteaser-->`
 * dropped, shortcodes rendered or removed (renderShortcodes), a line that is
 * only an address and an <audio> or <video> element made a link, then
 * classic-editor text given its paragraphs
 * (autop). Block-editor content keeps its own paragraphs. Content that was
 * only blocks without HTML, shortcodes or comments comes out "".
 */
export function wordpressContent(raw: string): string {
  const text = raw.replace(/\r\n?/g, "\n");
  let blocks = false;
  const uncommented = mapComments(text, (body) => {
    if (BLOCK_DELIMITER.test(body)) {
      blocks = true;
      return "";
    }
    return PAGING.test(body) ? "\n\n" : null;
  });
  const cleaned = linkMediaElements(linkBareUrls(renderShortcodes(uncommented)));
  if (!blocks) return autop(cleaned);
  return cleaned
    .replace(/\n[^\S\n]*(?=\n)/g, "\n")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

/** The content before `<!--more-->` (WordPress's teaser), or null when it has none. */
export function moreTeaser(raw: string): string | null {
  let found = false;
  const marker = "\uE002";
  const marked = mapComments(raw, (body) => {
    if (found || !MORE.test(body)) return null;
    found = true;
    return marker;
  });
  return found ? marked.slice(0, marked.indexOf(marker)) : null;
}
