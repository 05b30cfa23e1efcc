// A post as a read selects it (./read-queries.ts: its summary, content,
// translation key, work, reference and person columns), before its terms and
// translations complete it into a Post, the same way on both databases.
import { LANGUAGES } from "#app/content/languages.ts";
import type { Post, PostSummary, Term, Translation } from "#app/content/model.ts";

export type PostReadRow = PostSummary & {
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
export function completePost(row: PostReadRow, terms: Term[], translations: Translation[]): Post {
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
