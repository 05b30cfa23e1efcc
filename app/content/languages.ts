export const LANGUAGES = ["english", "hindi", "marathi"] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** BCP 47 tag for `<html lang>` and `lang` attributes. */
export const LANG_TAG: Record<Language, "en" | "hi" | "mr"> = {
  english: "en",
  hindi: "hi",
  marathi: "mr",
};

/** The name of each language in its own script, as the menu shows it. */
export const LANGUAGE_LABEL: Record<Language, string> = {
  english: "English",
  hindi: "हिंदी",
  marathi: "मराठी",
};

/** The website record's field per language (SPEC §3). */
export const MAX_ID_FIELD = {
  english: "maxIdEng",
  hindi: "maxIdHin",
  marathi: "maxIdMr",
} as const satisfies Record<Language, string>;

/** The reader's saved quotes, in a page's language (decision 050). */
export function savedPath(language: Language): string {
  return language === "english" ? "/saved" : `/saved/${language}`;
}

export function postPath(language: Language, slug: string): string {
  return `/${language}/${encodeURIComponent(slug)}`;
}

// Pages of no language of their own (the home, search, tags, people, site
// pages, 404s) are shown in the language their address names: ?lang=hi or
// ?lang=mr, English the bare address (decision 067; address-language.ts).
export const LANG_PARAM = "lang";

/** The language a language-less page's address names (its query string, or a URL's searchParams). */
export function addressLanguage(search: string | URLSearchParams): Language {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const value = params.get(LANG_PARAM);
  // The parameter's value is the language's tag (hi, mr); English has none (the bare address).
  return LANGUAGES.find((language) => language !== "english" && LANG_TAG[language] === value) ?? "english";
}

/** A language-less page's address (no #fragment) in a language: `/tags` → `/tags?lang=hi` (English: unchanged). */
export function withLanguage(path: string, language: Language): string {
  if (language === "english") return path;
  return `${path}${path.includes("?") ? "&" : "?"}${LANG_PARAM}=${LANG_TAG[language]}`;
}
