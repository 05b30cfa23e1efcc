// The hreflang links of a page of no language (decision 067), apart from
// address-language.ts so the frame's bundle does not carry them: the home
// makes its links in its loader, the other pages in their meta.
import type { MetaDescriptor } from "react-router";
import { LANG_TAG, LANGUAGES, withLanguage } from "#app/content/languages.ts";

/**
 * hreflang links between a language-less page's three versions, each linking
 * all three and the English one as x-default (`path` is the English address,
 * with ?page= if any).
 */
export function addressAlternates(origin: string, path: string): MetaDescriptor[] {
  return [
    ...LANGUAGES.map((language) => ({
      tagName: "link" as const,
      rel: "alternate",
      hrefLang: LANG_TAG[language] as string,
      href: `${origin}${withLanguage(path, language)}`,
    })),
    { tagName: "link" as const, rel: "alternate", hrefLang: "x-default", href: `${origin}${path}` },
  ];
}
