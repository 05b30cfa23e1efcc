// The share image of a post: what it shows, and the address that names it.
// Pure and isomorphic: route `meta` (server and browser) and the renderer
// (app/share-image/render.server.ts) compute the same version from the same post.
import { htmlToText } from "#app/content/html-text.ts";
import type { Language } from "#app/content/languages.ts";

export const SHARE_IMAGE_WIDTH = 1200;
export const SHARE_IMAGE_HEIGHT = 630;
/** WhatsApp drops link previews whose image is larger than this. */
export const SHARE_IMAGE_MAX_BYTES = 300 * 1024;
/** Bump when the drawing changes, so every cached image and address is renewed. */
export const SHARE_IMAGE_RENDERER_VERSION = 1;

export interface ShareImageSource {
  language: Language;
  slug: string;
  title: string;
  /** Stored (sanitized) post HTML. */
  content: string;
  /** The feature image address, or the default image when the post has none. */
  image: string;
  /** Who said it and where ("Kabir, Bijak, Sakhi 12"), from the post's source; absent or "" when none. */
  source?: { line: string } | null;
  /** What the image shows of the site (its footer): the running identity's name and logo (decision 055). */
  brand: { name: string; logo: string };
}

export interface ShareText {
  /** The quote's lines (verse lines stay lines); empty when the post has no text. */
  quote: string[];
  /** "तुलसीदास, रामचरितमानस" from a closing "— …" paragraph, without the dash. */
  attribution: string | null;
}

const BLOCK_END = /<\/(?:p|blockquote|li|h[1-6]|div)>/i;
const ATTRIBUTION = /^[—–-]\s*(.+)$/su;

/** The last answer, for a post page asks twice (its meta and its embed box): frozen, as it is shared. */
let remembered: { contentHtml: string; sourceLine: string; text: ShareText } | null = null;

/**
 * The first paragraph of the post is the quote; its source (`sourceLine`),
 * else a last paragraph starting with a dash, names who said it. Glosses and
 * notes in between are left out (and not read).
 */
export function shareText(contentHtml: string, sourceLine = ""): ShareText {
  if (remembered?.contentHtml === contentHtml && remembered.sourceLine === sourceLine) return remembered.text;
  const text = readShareText(contentHtml, sourceLine);
  Object.freeze(text.quote);
  remembered = { contentHtml, sourceLine, text: Object.freeze(text) };
  return text;
}

function readShareText(contentHtml: string, sourceLine: string): ShareText {
  const blocks = contentHtml.split(BLOCK_END);
  // The first paragraph with text, and the last (the same one when it is the only one).
  let at = 0;
  let first = "";
  for (; at < blocks.length; at++) {
    first = htmlToText(blocks[at] as string);
    if (first !== "") break;
  }
  let end = blocks.length - 1;
  let last = first;
  for (; end > at; end--) {
    const text = htmlToText(blocks[end] as string);
    if (text !== "") {
      last = text;
      break;
    }
  }
  let attribution: string | null = null;
  const match = last ? ATTRIBUTION.exec(last.replace(/\s+/g, " ")) : null;
  if (match?.[1]) {
    attribution = match[1].trim();
    // The only paragraph, a dash line: no quote.
    if (end <= at) first = "";
  }
  if (sourceLine !== "") attribution = sourceLine;
  return {
    quote: first
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== ""),
    attribution,
  };
}

/** cyrb53: a small, fast, well-mixed 53-bit string hash (not for security). */
export function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * A short hash of everything the image is drawn from: it changes when the
 * post's title, text or image (or the drawing) changes, so the address does too.
 */
export function shareImageVersion(source: ShareImageSource): string {
  const key = JSON.stringify([
    SHARE_IMAGE_RENDERER_VERSION,
    source.brand.name,
    source.brand.logo,
    source.language,
    source.slug.normalize("NFC"),
    source.title,
    source.content,
    source.image,
    source.source?.line ?? "",
  ]);
  return cyrb53(key).toString(36).padStart(11, "0");
}

/** `/share/{language}/{version}/{slug}.jpg`: the version makes the address immutable. */
export function shareImagePath(source: ShareImageSource): string {
  return `/share/${source.language}/${shareImageVersion(source)}/${encodeURIComponent(source.slug)}.jpg`;
}
