// The page the service worker answers, offline, for an address it has not
// kept: in the address's language, saying the reader is offline and linking
// the quotes kept on this device (decision 049). Pure, so it is tested alone.

import { isLanguage, LANG_TAG, type Language } from "#app/content/languages.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";

/** A quote the worker keeps: its address, title and language. */
export interface KeptQuote {
  url: string;
  title: string;
  language: Language;
}

/** The language an address is in: its first segment (/hindi/…, /marathi/…), else English. */
export function languageOfPath(pathname: string): Language {
  const first = pathname.split("/")[1];
  return isLanguage(first) ? first : "english";
}

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** The offline page's only style: its hash is the page's style-src (no 'unsafe-inline'). */
export const OFFLINE_STYLE =
  "body{font:1.125rem/1.6 system-ui,'Noto Sans','Noto Sans Devanagari',sans-serif;margin:0 auto;max-width:40rem;padding:1.5rem;color:#2a1d14;background:#fffaf2}a{color:#7a2e0e}li{margin:.5rem 0}@media (prefers-color-scheme:dark){body{color:#f1e6da;background:#1a1410}a{color:#f0a37c}}";

export function offlinePage(language: Language, quotes: readonly KeptQuote[], siteName: string): string {
  const labels = readingLabelsFor(language);
  const items = quotes
    .map(
      (quote) =>
        `<li><a href="${escapeHtml(quote.url)}" lang="${LANG_TAG[quote.language]}">${escapeHtml(quote.title)}</a></li>`,
    )
    .join("");
  const body = quotes.length
    ? `<p>${escapeHtml(labels.offlineText)}</p><ul>${items}</ul>`
    : `<p>${escapeHtml(labels.offlineNone)}</p>`;
  return `<!DOCTYPE html><html lang="${LANG_TAG[language]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(siteName ? `${labels.offlineTitle} · ${siteName}` : labels.offlineTitle)}</title><style>${OFFLINE_STYLE}</style></head><body><main><h1>${escapeHtml(labels.offlineTitle)}</h1>${body}<p><a href="/">${escapeHtml(labels.goHome)}</a></p></main></body></html>`;
}

/** What a kept page says of the site (decision 055): its name (og:site_name) and time zone. */
export function identityOf(html: string): { name: string; timeZone: string } | null {
  const name = /<meta property="og:site_name" content="([^"]*)"/.exec(html)?.[1];
  const timeZone = /<meta name="sukti:time-zone" content="([^"]*)"/.exec(html)?.[1];
  if (name === undefined || timeZone === undefined) return null;
  return { name: unescapeHtml(name), timeZone: unescapeHtml(timeZone) };
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");
}

/** A page's title from its HTML's <title>, without the " · site name" every page ends with. */
export function titleOf(html: string, siteName: string): string {
  const match = /<title>([^<]*)<\/title>/.exec(html);
  const raw = unescapeHtml(match?.[1] ?? "").trim();
  const suffix = ` · ${siteName}`;
  return raw.endsWith(suffix) ? raw.slice(0, -suffix.length) : raw;
}

/** The hashed scripts and stylesheets a page needs (/assets/…js|css): kept with it, checked before it is shown. */
export function assetsOf(html: string): string[] {
  return [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css)/g) ?? [])];
}

/** Today's quotes of the day a home links to (language-screen.tsx's .daily-link). */
export function dailyLinksOf(html: string): string[] {
  const links: string[] = [];
  for (const tag of html.match(/<a [^>]*\bdaily-link\b[^>]*>/g) ?? []) {
    const href = /\bhref="(\/[^"]*)"/.exec(tag)?.[1];
    if (href) links.push(href);
  }
  return [...new Set(links)];
}
