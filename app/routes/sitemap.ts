import { sitePageVersion, withLanguage } from "#app/content/address-language.ts";
import { notFoundResponse, SITEMAP_MAX_URLS, type SitemapUrl, urlsetXml } from "#app/content/feeds.ts";
import { isLanguage, LANG_TAG, LANGUAGES, postPath } from "#app/content/languages.ts";
import { personPath } from "#app/content/people.ts";
import { originContext, storeContext } from "#app/context.ts";
import { SITEMAP_HEADERS } from "#app/routes/sitemap-index.ts";
import type { Route } from "./+types/sitemap";

/** /sitemaps/pages.xml, /sitemaps/terms.xml and /sitemaps/{language}-{n}.xml. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const origin = context.get(originContext);
  const name = params.name;
  let urls: SitemapUrl[];
  if (name === "pages.xml") {
    const [summaries, pages] = await Promise.all([store.listLanguageSummaries(), store.listPages()]);
    // The home page and the language homes are one page in three languages.
    const alternates = [
      ...LANGUAGES.map((language) => ({ hreflang: LANG_TAG[language], href: `${origin}/${language}/home` })),
      { hreflang: "x-default", href: `${origin}/` },
    ];
    const latest = Math.max(0, ...summaries.map((summary) => summary.updatedAt ?? 0));
    urls = [
      { loc: `${origin}/`, lastmod: latest || null, alternates },
      ...summaries.map(({ language, updatedAt }) => ({
        loc: `${origin}/${language}/home`,
        lastmod: updatedAt,
        alternates,
      })),
      { loc: `${origin}/tags` },
      { loc: `${origin}/people` },
      // A site page's Hindi or Marathi version at the page's address in that language (decision 067).
      ...pages.map((page) => {
        const version = sitePageVersion(page.slug);
        const path = `/post/${encodeURIComponent(version?.slug ?? page.slug)}`;
        return { loc: `${origin}${version ? withLanguage(path, version.language) : path}` };
      }),
    ];
  } else if (name === "terms.xml") {
    // Every list of quotes by what they share: tags, categories and people.
    const [terms, people] = await Promise.all([store.listSitemapTerms(), store.listPeople()]);
    urls = [
      ...terms.map((term) => ({
        loc: `${origin}/${term.kind}/${encodeURIComponent(term.slug)}`,
        lastmod: term.updatedAt,
      })),
      ...people.map((person) => ({ loc: `${origin}${personPath(person.slug)}`, lastmod: person.updatedAt })),
    ];
  } else {
    const match = /^([a-z]+)-([1-9][0-9]{0,4})\.xml$/.exec(name);
    const language = match?.[1];
    if (!match || !isLanguage(language)) throw notFoundResponse();
    const chunk = Number(match[2]);
    const posts = await store.listSitemapPosts(language, (chunk - 1) * SITEMAP_MAX_URLS, SITEMAP_MAX_URLS);
    if (posts.length === 0 && chunk > 1) throw notFoundResponse();
    urls = posts.map((post) => ({
      loc: `${origin}${postPath(language, post.slug)}`,
      lastmod: post.updatedAt,
    }));
  }
  return new Response(urlsetXml(urls), { headers: SITEMAP_HEADERS });
}
