// A post row as both stores read it (its summary, content, translation key,
// work, reference and person columns), completed into a Post the same way.
import { LANGUAGES } from "#app/content/languages.ts";
import type { Post, PostSummary, Term, Translation } from "#app/content/model.ts";

export type PostRow = PostSummary & {
  id: number;
  content: string;
  audioUrl: string;
  translationKey: string | null;
  work: string;
  reference: string;
  personSlug: string | null;
  nameEnglish: string | null;
  nameHindi: string | null;
  nameMarathi: string | null;
};

/** The row as a Post: its terms split by kind, its source, its translations in LANGUAGES order. */
export function completePost(row: PostRow, terms: Term[], translations: Translation[]): Post {
  const {
    id: _id,
    translationKey: _key,
    work,
    reference,
    personSlug,
    nameEnglish,
    nameHindi,
    nameMarathi,
    ...post
  } = row;
  const person =
    personSlug === null
      ? null
      : {
          slug: personSlug,
          names: { english: nameEnglish ?? "", hindi: nameHindi ?? "", marathi: nameMarathi ?? "" },
        };
  return {
    ...post,
    tags: terms.filter((term) => term.kind === "tag"),
    categories: terms.filter((term) => term.kind === "category"),
    source: person || work !== "" || reference !== "" ? { person, work, reference } : null,
    translations: [...translations].sort(
      (a, b) => LANGUAGES.indexOf(a.language) - LANGUAGES.indexOf(b.language),
    ),
  };
}
