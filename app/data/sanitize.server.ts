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

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
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
    "a",
    "img",
    "h2",
    "h3",
    "h4",
    "hr",
    "span",
    "figure",
    "figcaption",
  ],
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
  sanitize ??= require("sanitize-html") as typeof sanitizeHtml;
  // An entity (&#1;) decodes to a control character the schemas could not see: none reaches a page.
  return stripControlCharacters(sanitize(html, options));
}
