// A post's source and translations as a page shows them: the person's name in
// the page's language with a link to their page, the work and reference, and
// links to the post in the other languages.
import { LANG_TAG, LANGUAGE_LABEL, type Language, postPath } from "#app/content/languages.ts";
import type { PostSource, Translation } from "#app/content/model.ts";
import { personName, personPath } from "#app/content/people.ts";

export function toSourceView(source: PostSource | null, language: Language) {
  if (!source) return null;
  const person = source.person
    ? { name: personName(source.person.names, language), href: personPath(source.person.slug) }
    : null;
  return { person, work: source.work, reference: source.reference, line: sourceLine(source, language) };
}
export type SourceView = NonNullable<ReturnType<typeof toSourceView>>;

/** "Kabir, Bijak, Sakhi 12": who, then where, in the page's language; "" when there is no source. */
export function sourceLine(source: PostSource | null, language: Language): string {
  if (!source) return "";
  const person = source.person ? personName(source.person.names, language) : "";
  return [person, source.work, source.reference].filter((part) => part !== "").join(", ");
}

export function toTranslationLinks(translations: readonly Translation[]) {
  return translations.map((translation) => ({
    language: translation.language,
    lang: LANG_TAG[translation.language],
    label: LANGUAGE_LABEL[translation.language],
    title: translation.title,
    href: postPath(translation.language, translation.slug),
  }));
}
export type TranslationLink = ReturnType<typeof toTranslationLinks>[number];
