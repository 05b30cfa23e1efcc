// Pages that belong to no language (the home, search, tags, people, site
// pages, 404s outside /hindi/ and /marathi/) come in the three: the language
// is in the address as ?lang=hi or ?lang=mr, English the bare address (the
// SPEC's), so a CDN keeps each version apart (decision 067).
// Pure: the server (canonical-url.ts, which knows which paths are of no
// language from app/route-table.ts), loaders, meta functions and the frame use it.
import type { Language } from "#app/content/languages.ts";

// The frame's part (LANG_PARAM, addressLanguage, withLanguage) lives in
// languages.ts, in the chunk every page loads already.
export { addressLanguage, LANG_PARAM, withLanguage } from "#app/content/languages.ts";

/** The `lang` value an address keeps: hi or mr; English, or anything else, keeps none. */
export function keptLanguageParam(value: string | null): string | null {
  return value === "hi" || value === "mr" ? value : null;
}

/** The slug of a site page's version in a language: privacy-policy-hindi (decision 067). */
export function sitePageSlug(slug: string, language: Language): string {
  return language === "english" ? slug : `${slug}-${language}`;
}

/** The page and language a version's slug names (privacy-policy-hindi → privacy-policy, hindi), else null. */
export function sitePageVersion(slug: string): { slug: string; language: Language } | null {
  const match = /^(.+)-(hindi|marathi)$/.exec(slug);
  return match?.[1] && (match[2] === "hindi" || match[2] === "marathi")
    ? { slug: match[1], language: match[2] }
    : null;
}
