// The search page's own words (issue 31, decision 065): the meta line of a
// hit and the filter on results. Apart from labels.ts, which every page loads
// (decision 033): only the search route needs them.
import type { Language } from "#app/content/languages.ts";

export const SEARCH_LABELS = {
  english: {
    lang: "en",
    matchedAs: "Matched as",
    tags: "Tags",
    categories: "Categories",
    show: "Show",
    allLanguages: "All",
    languagesLabel: "Languages of the results",
  },
  hindi: {
    lang: "hi",
    matchedAs: "इस रूप में मिला",
    tags: "टैग",
    categories: "श्रेणियाँ",
    show: "दिखाएँ",
    allLanguages: "सभी",
    languagesLabel: "परिणामों की भाषा",
  },
  marathi: {
    lang: "mr",
    matchedAs: "या रूपात सापडले",
    tags: "टॅग",
    categories: "वर्ग",
    show: "दाखवा",
    allLanguages: "सर्व",
    languagesLabel: "निकालांची भाषा",
  },
} satisfies Record<Language, Record<string, string>>;

export type SearchLabels = (typeof SEARCH_LABELS)["english"];

/** The language whose posts a search shows (?language=, decision 065): null is all of them. */
export function resultsLanguageOf(url: URL): Language | null {
  const value = url.searchParams.get("language");
  return value === "english" || value === "hindi" || value === "marathi" ? value : null;
}

/** A search page's address with its filter (and page), as canonical-url.ts writes it. */
export function searchPageHref(basePath: string, language: Language | null, page = 1): string {
  const query = new URLSearchParams();
  if (language) query.set("language", language);
  if (page > 1) query.set("page", String(page));
  return query.size > 0 ? `${basePath}?${query}` : basePath;
}
