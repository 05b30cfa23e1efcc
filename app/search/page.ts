// Pure helpers of the search page (app/routes/search.tsx): the text from the
// URL, and what the page shows of each hit.
import { isoDateTime, postDateTime } from "#app/content/dates.ts";
import { LANG_TAG, LANGUAGE_LABEL, postPath } from "#app/content/languages.ts";
import type { SearchHit } from "#app/content/model.ts";
import { personName, personPath } from "#app/content/people.ts";
import { toTranslationLinks } from "#app/content/post-source.ts";
import { hasDevanagari } from "#app/search/fold.ts";
import { currentSite } from "#app/site.ts";

export const SEARCH_PREFIX = "/search/";

/**
 * The search text of a /search/{text} path, percent-decoded; null when the
 * encoding is broken (/search/%E0%A4, /search/%ZZ), which the page reports.
 */
export function searchTextFromPath(pathname: string): string | null {
  const raw = pathname.startsWith(SEARCH_PREFIX) ? pathname.slice(SEARCH_PREFIX.length) : "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

// Control characters, and the invisible format characters that would reorder
// or hide the heading (bidi overrides, isolates, marks), but not ZWJ/ZWNJ,
// which shape Devanagari conjuncts.
const INVISIBLE = /[\p{Cc}\u00AD\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu;

/** The text as the page shows and searches it: invisible controls become spaces. */
export function cleanSearchText(text: string): string {
  return text.replace(INVISIBLE, " ").replace(/\s+/g, " ");
}

/** Which spelling hint the empty page gives. */
export function scriptOf(text: string): "devanagari" | "latin" | "other" {
  if (hasDevanagari(text)) return "devanagari";
  return /[a-z]/i.test(text) ? "latin" : "other";
}

/** What a results page needs of a hit, display values computed on the server. */
export function toSearchHitView(hit: SearchHit) {
  return {
    href: postPath(hit.language, hit.slug),
    lang: LANG_TAG[hit.language],
    languageLabel: LANGUAGE_LABEL[hit.language],
    titleSegments: hit.titleSegments,
    snippet: hit.snippet,
    postDateTime: postDateTime(hit.postTime, currentSite().timeZone),
    isoDateTime: isoDateTime(hit.postTime),
    matchedAs: hit.matchedAs,
    matchedTerms: hit.matchedTerms.map((term) => ({
      name: term.name,
      kind: term.kind,
      href: `/${term.kind}/${encodeURIComponent(term.slug)}`,
    })),
    person: hit.person
      ? { name: personName(hit.person.names, hit.language), href: personPath(hit.person.slug) }
      : null,
    translations: toTranslationLinks(hit.translations),
  };
}
export type SearchHitView = ReturnType<typeof toSearchHitView>;
