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
