// Machine-readable documents: sitemaps (sitemaps.org 0.9) and RSS 2.0 feeds.
// Pure string builders; the routes fetch the data.
import { audioTypeOf } from "#app/content/audio.ts";
import { epochDate } from "#app/content/dates.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { postPath } from "#app/content/languages.ts";
import type { FeedPost } from "#app/content/model.ts";
import { personName } from "#app/content/people.ts";
import { sourceLine } from "#app/content/post-source.ts";
import { summarize } from "#app/content/seo.ts";

/**
 * URLs in one sitemap file (sitemaps.org allows 50,000). A file of 50,000 took
 * ~70 MB of memory to make at 100,000 posts (5–10 MB of XML, its compressed
 * copies) and was cached whole; 5,000 keep a file under ~1 MB (decision 077).
 */
export const SITEMAP_MAX_URLS = 5_000;
/** Newest published posts in each language's feed. */
export const FEED_ITEMS = 50;

// XML 1.0 forbids most control characters, even escaped, and lone surrogates.
const INVALID_XML = /\p{Cc}|\p{Cs}|[\uFFFE\uFFFF]/gu;
const keep = (char: string) => (char === "\t" || char === "\n" || char === "\r" ? char : "");

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, keep)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** W3C Datetime, as sitemaps want it: 2026-11-22T03:04:05Z. */
export function w3cDateTime(epochSeconds: number): string {
  return epochDate(epochSeconds)
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z");
}

/** RFC 822 date-time, as RSS 2.0 wants it: Sun, 22 Nov 2026 03:04:05 GMT. */
export function rfc822(epochSeconds: number): string {
  return epochDate(epochSeconds).toUTCString();
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export interface SitemapRef {
  loc: string;
  /** Epoch seconds. */
  lastmod?: number | null;
}

export function sitemapIndexXml(sitemaps: SitemapRef[]): string {
  const entries = sitemaps.map(
    ({ loc, lastmod }) =>
      `  <sitemap>\n    <loc>${escapeXml(loc)}</loc>\n${lastmod ? `    <lastmod>${w3cDateTime(lastmod)}</lastmod>\n` : ""}  </sitemap>\n`,
  );
  return `${XML_DECLARATION}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("")}</sitemapindex>\n`;
}

export interface SitemapUrl extends SitemapRef {
  /** The same page in other languages (hreflang), each page listing all of them. */
  alternates?: { hreflang: string; href: string }[];
}

export function urlsetXml(urls: SitemapUrl[]): string {
  const withAlternates = urls.some((url) => url.alternates && url.alternates.length > 0);
  const entries = urls.map(({ loc, lastmod, alternates = [] }) => {
    const lines = [`    <loc>${escapeXml(loc)}</loc>`];
    if (lastmod) lines.push(`    <lastmod>${w3cDateTime(lastmod)}</lastmod>`);
    for (const { hreflang, href } of alternates) {
      lines.push(
        `    <xhtml:link rel="alternate" hreflang="${escapeXml(hreflang)}" href="${escapeXml(href)}"/>`,
      );
    }
    return `  <url>\n${lines.join("\n")}\n  </url>\n`;
  });
  const namespaces = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${
    withAlternates ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : ""
  }`;
  return `${XML_DECLARATION}<urlset ${namespaces}>\n${entries.join("")}</urlset>\n`;
}

export interface RssChannel {
  title: string;
  /** The site page the feed mirrors. */
  link: string;
  /** The feed's own address (atom:link rel="self"). */
  self: string;
  description: string;
  /** RSS language code: en, hi, mr. */
  language: string;
  /** Epoch seconds of the latest change, or null for an empty feed. */
  lastBuildDate: number | null;
}

export interface RssItem {
  title: string;
  link: string;
  /** Epoch seconds. */
  pubDate: number;
  /** Plain text summary. */
  description: string;
  /** The full post as HTML, with absolute links. */
  html: string;
  categories: string[];
  /** Who said it (dc:creator); "" when unknown. */
  creator?: string;
  /** The post's recording (decision 052): an absolute address, its size in bytes (0: unknown) and type. */
  enclosure?: { url: string; length: number; type: string };
}

export function rssXml(channel: RssChannel, items: RssItem[]): string {
  const head = [
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(channel.link)}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    `    <language>${escapeXml(channel.language)}</language>`,
    ...(channel.lastBuildDate ? [`    <lastBuildDate>${rfc822(channel.lastBuildDate)}</lastBuildDate>`] : []),
    `    <atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>`,
  ];
  const entries = items.map((item) =>
    [
      "    <item>",
      `      <title>${escapeXml(item.title)}</title>`,
      `      <link>${escapeXml(item.link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(item.link)}</guid>`,
      `      <pubDate>${rfc822(item.pubDate)}</pubDate>`,
      `      <description>${escapeXml(item.description)}</description>`,
      `      <content:encoded>${escapeXml(item.html)}</content:encoded>`,
      ...(item.creator ? [`      <dc:creator>${escapeXml(item.creator)}</dc:creator>`] : []),
      ...(item.enclosure
        ? [
            `      <enclosure url="${escapeXml(item.enclosure.url)}" length="${item.enclosure.length}" type="${escapeXml(item.enclosure.type)}"/>`,
          ]
        : []),
      ...item.categories.map((name) => `      <category>${escapeXml(name)}</category>`),
      "    </item>",
    ].join("\n"),
  );
  return `${XML_DECLARATION}<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">\n  <channel>\n${[...head, ...entries].join("\n")}\n  </channel>\n</rss>\n`;
}

/**
 * An RSS response of published posts, newest first: each item the whole post
 * (its image first), its terms and who said it (named in the post's language).
 */
export function feedResponse(
  origin: string,
  posts: readonly FeedPost[],
  channel: Omit<RssChannel, "lastBuildDate">,
  /** A recording's size in bytes when the site serves it, 0 when unknown (app/data/audio-files.server.ts). */
  audioLength: (url: string) => number = () => 0,
): Response {
  const items = posts.map((post) => {
    const image = post.featureImageUrl
      ? `<p><img src="${escapeXml(post.featureImageUrl)}" alt="${escapeXml(post.title)}"></p>`
      : "";
    const line = sourceLine(post.source, post.language);
    const source = line ? `<p>— ${escapeXml(line)}</p>` : "";
    return {
      title: post.title,
      link: `${origin}${postPath(post.language, post.slug)}`,
      pubDate: post.postTime,
      description: summarize(post.excerpt || htmlToText(post.content) || post.title, 300),
      html: absolutizeLinks(image + post.content + source, origin),
      categories: [...post.categories, ...post.tags].map((term) => term.name),
      creator: post.source?.person ? personName(post.source.person.names, post.language) : "",
      ...(post.audioUrl
        ? {
            enclosure: {
              url: post.audioUrl.startsWith("/") ? `${origin}${post.audioUrl}` : post.audioUrl,
              length: audioLength(post.audioUrl),
              type: audioTypeOf(post.audioUrl) ?? "audio/mpeg",
            },
          }
        : {}),
    };
  });
  const lastBuildDate = posts.length > 0 ? Math.max(...posts.map((post) => post.updatedAt)) : null;
  return new Response(rssXml({ ...channel, lastBuildDate }, items), {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=900" },
  });
}

/** Root-relative src and href made absolute, for feed readers that show the HTML elsewhere. */
export function absolutizeLinks(html: string, origin: string): string {
  return html.replace(/\b(src|href)="\/(?!\/)/g, `$1="${origin}/`);
}

/** A resource route's 404: plain text, not the JSON `null` a thrown `data()` gives. */
export function notFoundResponse(): Response {
  return new Response("Not found\n", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
