// What a read may take of one row, whatever the database holds (a row written
// by hand, by an older version, past the import limits): every text column a
// page, feed, sitemap or search reads is cut in the SELECT, so an oversized
// value never reaches JavaScript (docs/decisions/044-bounded-reads.md). The
// bounds lie at or above the import limits (app/content/schemas.ts, decision
// 043): they change nothing an importable post shows, but for a feed's and a
// search snippet's share of a long text. The SQL is the same on SQLite and PostgreSQL
// (substr and length count characters on both).
import { cutHtml } from "#app/content/html-cut.ts";
import type { Language } from "#app/content/languages.ts";

/** Characters kept of each kind of column. */
export const READ_BOUNDS = {
  /** Post and page titles (import: 500). */
  title: 1_000,
  /** Person and term names (import: 200). */
  name: 500,
  /** Work and reference (import: 500). */
  source: 1_000,
  /** A person's line about them (import: 300). */
  about: 1_000,
  /** Slugs (import: 200): cut plainly; such a slug cannot be asked for anyway. */
  slug: 1_000,
  /** The feature image address (import: 2,048). */
  url: 4_000,
  /** Excerpts (import: 10,000): lists carry them to cards, teasers and descriptions. */
  excerpt: 10_000,
  /** A post's or a page's text on its own page: the import's limit (256 Ki). */
  content: 262_144,
  /** A post's text in a feed: 50 items of it make one response. */
  feedContent: 65_536,
  /** A search hit's text, from which its snippet is cut (each page has a few hits). */
  snippetSource: 65_536,
  /**
   * A search hit's text as first read: its snippet is cut from there when a
   * match there decides it (app/search/hits.ts), the rest read only otherwise.
   */
  snippetStart: 4_096,
  /** A search document's folded title and tags, and its text, as the ranking reads them. */
  indexedHead: 4_000,
  indexedBody: 262_144,
} as const;

/**
 * Posts' indexed texts read at once by a search (its ranking, its hits): at
 * most this many × READ_BOUNDS.indexedBody characters held together.
 */
export const BODIES_PER_READ = 16;

/** `column`, cut to `max` characters with "…" at the end when longer. */
export function cutSql(column: string, max: number): string {
  return `CASE WHEN length(substr(${column}, 1, ${max + 1})) > ${max}
    THEN substr(${column}, 1, ${max - 1}) || '…' ELSE ${column} END`;
}

/** `column`'s first `max` characters (its text read one character more, so a cut is seen: boundedContent). */
export function prefixSql(column: string, max: number): string {
  return `substr(${column}, 1, ${max})`;
}

/** Closes a post's text that was cut (server-side only: no page script carries it). */
const CUT_NOTE: Record<Language, string> = {
  english: "This post is too long to show in full here; the rest is left out.",
  hindi: "यह पोस्ट यहाँ पूरी दिखाने के लिए बहुत लंबी है; बाकी हिस्सा छोड़ दिया गया है।",
  marathi: "ही पोस्ट येथे पूर्ण दाखवण्यासाठी खूप मोठी आहे; उरलेला भाग वगळला आहे.",
};

/**
 * Post HTML read with prefixSql(…, max + 1), made whole again: as it is when
 * it has at most `max` characters; else cut (app/content/html-cut.ts) and
 * closed by a note in the post's language saying the rest is left out.
 */
export function boundedContent(html: string, max: number, language: Language): string {
  const { html: kept, cut } = cutHtml(html, max);
  return cut ? `${kept}\n<p><em>${CUT_NOTE[language]}</em></p>` : html;
}
