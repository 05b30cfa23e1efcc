import { Link, useLocation } from "react-router";
import { LANG_PARAM, withLanguage } from "#app/content/address-language.ts";
import type { Labels } from "#app/content/labels.ts";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";

/**
 * English · हिंदी · मराठी on pages of no language of their own (decision 067):
 * each a plain link to this address in that language (?lang=), so it works
 * without JavaScript and a cache keeps the three apart.
 */
export function LanguageSwitch({ labels, language }: { labels: Labels; language: Language }) {
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  params.delete(LANG_PARAM);
  const query = params.toString();
  const here = query ? `${pathname}?${query}` : pathname;
  return (
    <nav className="language-switch" aria-label={labels.pageLanguage}>
      <ul>
        {LANGUAGES.map((option) => (
          <li key={option}>
            <Link
              to={withLanguage(here, option)}
              lang={LANG_TAG[option]}
              hrefLang={LANG_TAG[option]}
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
