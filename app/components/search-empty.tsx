import { Link } from "react-router";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";

export interface SuggestedTag {
  name: string;
  href: string;
  /** The language most of its recent posts are in: its lang, and a small label (decision 066). */
  language: Language;
}

const HINT = {
  latin: (
    <>
      Looking for Hindi or Marathi? Type the word in Devanagari (<span lang="hi">प्रेम</span>), or spell it the
      way it sounds: <i>prem</i>, <i>shanti</i>, <i>gyan</i> and <i>dnyan</i> work too.
    </>
  ),
  devanagari: (
    <>
      Try a shorter or simpler spelling (<span lang="hi">शांति</span> and <span lang="hi">शान्ति</span> are the
      same to search), or the word in Latin letters: <i>shanti</i>.
    </>
  ),
  other: (
    <>
      Search for words, in English, <span lang="hi">हिंदी</span> or <span lang="mr">मराठी</span>, or spelled in
      Latin letters: <i>prem</i>, <i>shanti</i>.
    </>
  ),
} as const;

/** What a search that found nothing offers instead. */
export function SearchEmpty({ script, tags }: { script: keyof typeof HINT; tags: readonly SuggestedTag[] }) {
  return (
    <div className="search-empty">
      <ul className="search-empty-hints">
        <li>{HINT[script]}</li>
        <li>
          Browse a language:{" "}
          {LANGUAGES.map((language, i) => (
            <span key={language}>
              {i > 0 ? " · " : ""}
              <Link to={`/${language}/home`} lang={LANG_TAG[language]}>
                {LANGUAGE_LABEL[language]}
              </Link>
            </span>
          ))}
        </li>
      </ul>
      {tags.length > 0 ? (
        <nav aria-labelledby="search-empty-tags">
          <h2 id="search-empty-tags">Popular tags</h2>
          <ul className="search-empty-tags">
            {tags.map((tag) => (
              <li key={tag.href}>
                <Link to={tag.href} lang={LANG_TAG[tag.language]}>
                  {tag.name}
                </Link>{" "}
                <small className="tag-language" lang={LANG_TAG[tag.language]}>
                  {LANGUAGE_LABEL[tag.language]}
                </small>
              </li>
            ))}
          </ul>
          <p>
            <Link to="/tags">All tags</Link>
          </p>
        </nav>
      ) : null}
    </div>
  );
}
