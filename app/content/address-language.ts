// Pages that belong to no language (the home, search, tags, people, site
// pages, 404s outside /hindi/ and /marathi/) come in the three: the language
// is in the address as ?lang=hi or ?lang=mr, English the bare address (the
// SPEC's), so a CDN keeps each version apart (decision 067).
// Pure: the server (canonical-url.ts), loaders, meta functions and the frame use it.
import type { MetaDescriptor } from "react-router";
import { LANG_TAG, LANGUAGES, type Language } from "#app/content/languages.ts";

export const LANG_PARAM = "lang";

/** The parameter's value per language; English has none (the bare address). */
const PARAM_VALUE: Record<Language, string | null> = { english: null, hindi: "hi", marathi: "mr" };

/** ?lang='s value for a language: hi, mr; null for English. */
export function languageParamValue(language: Language): string | null {
  return PARAM_VALUE[language];
}

/**
 * Paths whose pages have a language of their own (the language routes, saved
 * quotes and collections) or are no page (files, feeds, images): ?lang= means
 * nothing there and is dropped from their address.
 */
const OWN_LANGUAGE =
  /^\/(?:english|hindi|marathi|saved|c|share|img|sitemaps|api|embed|oembed|__manifest)(?:\/|$)|\.(?:xml|txt|webmanifest|json|js|css|ico|png|svg|webp|jpe?g|woff2?|mp3|ogg)$/;

/** Whether a path (without `.data`) is a page of no language, shown in the language its address names. */
export function isLanguageLessPath(path: string): boolean {
  return !OWN_LANGUAGE.test(path);
}

/** The `lang` value an address keeps: hi or mr; English, or anything else, keeps none. */
export function keptLanguageParam(value: string | null): string | null {
  return value === "hi" || value === "mr" ? value : null;
}

/** The language a language-less page's address names (its query string, or a URL's searchParams). */
export function addressLanguage(search: string | URLSearchParams): Language {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const value = params.get(LANG_PARAM);
  return LANGUAGES.find((language) => PARAM_VALUE[language] === value) ?? "english";
}

/** A language-less page's address in a language: `/tags` → `/tags?lang=hi` (English: unchanged). */
export function withLanguage(path: string, language: Language): string {
  const value = PARAM_VALUE[language];
  if (value === null) return path;
  const hash = path.indexOf("#");
  const [base, fragment] = hash === -1 ? [path, ""] : [path.slice(0, hash), path.slice(hash)];
  return `${base}${base.includes("?") ? "&" : "?"}${LANG_PARAM}=${value}${fragment}`;
}

/**
 * hreflang links between a language-less page's three versions, each linking
 * all three and the English one as x-default (`path` is the English address,
 * with ?page= if any).
 */
export function addressAlternates(origin: string, path: string): MetaDescriptor[] {
  return [
    ...LANGUAGES.map((language) => ({
      tagName: "link" as const,
      rel: "alternate",
      hrefLang: LANG_TAG[language] as string,
      href: `${origin}${withLanguage(path, language)}`,
    })),
    { tagName: "link" as const, rel: "alternate", hrefLang: "x-default", href: `${origin}${path}` },
  ];
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
