import { Link, useLocation } from "react-router";
import type { Labels } from "#app/content/labels.ts";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language, withLanguage } from "#app/content/languages.ts";

/**
 * English · हिंदी · मराठी on pages of no language of their own (decision 067):
 * each a plain link to this address in that language (?lang=), so it works
 * without JavaScript and a cache keeps the three apart.
 */
export function LanguageSwitch({ labels, language }: { labels: Labels; language: Language }) {
  const { pathname, search } = useLocation();
  // This address without its ?lang= (LANG_PARAM; canonical-url.ts puts it last).
  const here = pathname + search.replace(/[?&]lang=.*$/, "");
  return (
    <nav className="language-switch" aria-label={labels.pageLanguage}>
      <ul>
        {LANGUAGES.map((option) => (
          <li key={option}>
            <Link
              to={withLanguage(here, option)}
              lang={LANG_TAG[option]}
              aria-current={option === language ? "true" : undefined}
            >
              {LANGUAGE_LABEL[option]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
