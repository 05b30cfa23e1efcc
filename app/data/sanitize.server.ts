import { createRequire } from "node:module";
import type sanitizeHtml from "sanitize-html";
import { stripControlCharacters } from "#app/content/schemas.ts";

// Post and page HTML is sanitized before it is stored, so nothing a post
// contains can run script in a visitor's browser.
//
// sanitize-html (with htmlparser2 and postcss) is loaded on the first call:
// only writers call it (`sukti import`, a server seeding an empty database),
// so a server on an existing database never loads it (~110 ms of CPU at each
// start, and its memory, on this machine).
const require = createRequire(import.meta.url);
let sanitize: typeof sanitizeHtml | undefined;

/**
 * The allowed tags that hold text and take no attribute of their own but
 * lang and dir: written bare, sanitize-html keeps them as they are, and
 * plainMarkup answers for them (below). A tag added here must be checked
 * against htmlparser2's openImpliesClose, which CLOSES_P and plainMarkup's
 * <li> check mirror for these (the parity test fuzzes every tag listed).
 */
export const PLAIN_TAGS = [
  "p",
  "em",
  "strong",
  "b",
  "i",
  "u",
  "s",
  "blockquote",
  "q",
  "cite",
  "ul",
  "ol",
  "li",
  "h2",
  "h3",
  "h4",
  "span",
  "figure",
  "figcaption",
] as const;

const options: sanitizeHtml.IOptions = {
  // With the line break and rule, and the two that take attributes (links, images).
  allowedTags: [...PLAIN_TAGS, "br", "hr", "a", "img"],
  allowedAttributes: {
    a: ["href", "title", "lang", "rel"],
    img: ["src", "alt", "width", "height", "loading"],
    "*": ["lang", "dir"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => {
      const external = /^https?:/i.test(attribs.href ?? "");
      return {
        tagName,
        attribs: external ? { ...attribs, rel: "noopener noreferrer nofollow" } : attribs,
      };
    },
  },
};

export function sanitizePostHtml(html: string): string {
  return plainMarkup(html) ?? sanitizeByParser(html);
}

/** sanitize-html's reading of any markup (sanitizePostHtml's, where plainMarkup does not answer). */
export function sanitizeByParser(html: string): string {
  sanitize ??= require("sanitize-html") as typeof sanitizeHtml;
  // An entity (&#1;) decodes to a control character the schemas could not see: none reaches a page.
  return stripControlCharacters(sanitize(html, options));
}

// Most posts are a few paragraphs of text with line breaks and emphasis, no
// attribute and no entity but &amp; &lt; &gt;: what sanitize-html would give
// back for them is known without parsing (about a fifth of an import's
// reading thread, decision 087). plainMarkup answers for those and returns
// null for anything else, which sanitize-html then reads. Its answer is the
// same, byte for byte, as sanitize-html's (sanitize.server.test.ts compares
// them on generated markup of every shape).

const PLAIN = new Set<string>(PLAIN_TAGS);

/** Tags whose opening closes an open <p> first (htmlparser2's openImpliesClose, for PLAIN_TAGS and hr). */
const CLOSES_P = new Set(["p", "h2", "h3", "h4", "blockquote", "ul", "ol", "figure", "figcaption", "hr"]);

/** Text (no markup, no entity, no control character), one of three entities, a tag without attributes, or a line break or rule. */
const TOKEN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: text with a control character is left to the parser
  /[^<>&\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]+|&(?:amp|lt|gt);|<(\/?)([a-z][a-z0-9]*)>|<(br|hr) ?\/>/y;

/** sanitizePostHtml's answer for markup of plain tags in good order, or null when sanitize-html must read it. */
export function plainMarkup(html: string): string | null {
  const open: string[] = [];
  let out = "";
  let last = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < html.length) {
    const at = TOKEN.lastIndex;
    const token = TOKEN.exec(html);
    if (token === null) return null;
    const selfClosed = token[3];
    const name = selfClosed ?? token[2];
    if (name === undefined) continue;
    // A rule or line break is written <br /> by sanitize-html, however it came.
    if (name === "br" || name === "hr") {
      if (token[1] === "/") return null;
      if (name === "hr" && open.at(-1) === "p") return null;
      out += `${html.slice(last, at)}<${name} />`;
      last = TOKEN.lastIndex;
      continue;
    }
    if (selfClosed !== undefined || !PLAIN.has(name)) return null;
    if (token[1] === "/") {
      // A close that does not match the innermost open tag is mended by the parser: let it.
      if (open.pop() !== name) return null;
    } else {
      const inner = open.at(-1);
      // An opening the parser reads as closing the tag before it (<p><p>, <p><ul>, <li><li>).
      if ((inner === "p" && CLOSES_P.has(name)) || (inner === "li" && name === "li")) return null;
      open.push(name);
    }
  }
  if (open.length > 0) return null;
  return last === 0 ? html : out + html.slice(last);
}
