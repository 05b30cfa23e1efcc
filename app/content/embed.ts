// Embeds (decision 063): the address of a post's embed page, the
// size its frame is given, and the <iframe> snippet other sites paste. Pure
// and isomorphic: the embed route and /oembed (server) and the post page's
// "Embed" box (browser) make the same snippet from the same post.
import type { Language } from "#app/content/languages.ts";
import { shareText } from "#app/share-image/content.ts";

/** The frame's width when the embedding site asks for none (CSS pixels). */
export const EMBED_WIDTH = 560;
export const EMBED_MIN_HEIGHT = 160;
export const EMBED_MAX_HEIGHT = 640;

export function embedPath(language: Language, slug: string): string {
  return `/embed/${language}/${encodeURIComponent(slug)}`;
}

/** What the card shows: the quote's lines (the title when the post has no text) and who said it. */
export function embedQuote(post: { title: string; content: string; source?: { line: string } | null }) {
  const { quote, attribution } = shareText(post.content, post.source?.line ?? "");
  return { lines: quote.length > 0 ? quote : [post.title], attribution };
}

/**
 * The frame's height for the card at `width`: its padding and link, and the
 * quote's lines as the embed page's CSS wraps them (about 9.5 px a character
 * at 18 px, Latin and Devanagari alike), within the bounds above. Without
 * JavaScript the frame cannot size itself; a longer card scrolls.
 */
export function embedHeight(quote: { lines: string[]; attribution: string | null }, width: number): number {
  const perLine = Math.max(12, Math.floor((width - 64) / 9.5));
  const lines = quote.lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / perLine)), 0);
  const attribution = quote.attribution ? Math.ceil(quote.attribution.length / (perLine * 1.2)) : 0;
  const height = 96 + lines * 28 + attribution * 22;
  return Math.min(EMBED_MAX_HEIGHT, Math.max(EMBED_MIN_HEIGHT, height));
}

const ATTRIBUTE = /[&<>"]/g;
const ENTITY: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
/** Text for an HTML attribute or element. */
export function escapeHtml(text: string): string {
  return text.replace(ATTRIBUTE, (ch) => ENTITY[ch] as string);
}

/** The <iframe> another site pastes (oEmbed's `html`, the post page's "Embed" box). */
export function embedSnippet(src: string, title: string, width: number, height: number): string {
  return `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" loading="lazy" style="border:0;max-width:100%"></iframe>`;
}
