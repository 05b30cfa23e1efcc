// People: who said or wrote a post (decision 039). A person has a name per
// language and a slug (their page is /people/{slug}); the importer knows a
// person by any name they were given, folded by personKey.
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";
import { hasDevanagari } from "#app/search/fold.ts";

/** A person's names, one per language; "" where none was given. */
export type PersonNames = Record<Language, string>;

export interface Person {
  slug: string;
  names: PersonNames;
}

/** The form under which a name identifies a person: NFC, trimmed, inner spaces single, lower case. */
export function personKey(name: string): string {
  return name.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** Languages whose name a person falls back to, in order, when they have none in `language`. */
const NAME_FALLBACKS: Record<Language, readonly Language[]> = {
  english: ["english", "hindi", "marathi"],
  hindi: ["hindi", "marathi", "english"],
  marathi: ["marathi", "hindi", "english"],
};

/** The name to show on a page in `language`: the person's own in it, else the nearest script's. */
export function personName(names: PersonNames, language: Language): string {
  for (const other of NAME_FALLBACKS[language]) if (names[other] !== "") return names[other];
  return "";
}

/**
 * Which language slot a name given without one fills, for a post in
 * `postLanguage`: Devanagari names that of a Hindi or Marathi post (Hindi for
 * an English post), other scripts English.
 */
export function nameLanguage(name: string, postLanguage: Language): Language {
  if (!hasDevanagari(name)) return "english";
  return postLanguage === "english" ? "hindi" : postLanguage;
}

/** Every distinct name of a person, in LANGUAGES order. */
export function allNames(names: PersonNames): string[] {
  return [...new Set(LANGUAGES.map((language) => names[language]).filter((name) => name !== ""))];
}

export function personPath(slug: string): string {
  return `/people/${encodeURIComponent(slug)}`;
}

/** The BCP 47 tag of the language a person's name is given in (English when none matches). */
export function nameLang(names: PersonNames, name: string): string {
  return LANG_TAG[LANGUAGES.find((language) => names[language] === name) ?? "english"];
}

/** A person's names other than `shown`, each with its lang, for a page to show beside it. */
export function otherNames(names: PersonNames, shown: string): { name: string; lang: string }[] {
  return allNames(names)
    .filter((name) => name !== shown)
    .map((name) => ({ name, lang: nameLang(names, name) }));
}

/**
 * The line about a person to show on a page in `language` (decision 066):
 * theirs in it, else the nearest script's (as for names), with its lang;
 * null when none was given.
 */
export function personAbout(about: PersonNames, language: Language): { text: string; lang: string } | null {
  for (const other of NAME_FALLBACKS[language]) {
    if (about[other] !== "") return { text: about[other], lang: LANG_TAG[other] };
  }
  return null;
}

/** A person's published quotes per language, only the languages they have any in, in LANGUAGES order. */
export function languageCounts(
  counts: Record<Language, number>,
): { language: Language; label: string; lang: string; count: number }[] {
  return LANGUAGES.filter((language) => counts[language] > 0).map((language) => ({
    language,
    label: LANGUAGE_LABEL[language],
    lang: LANG_TAG[language],
    count: counts[language],
  }));
}
