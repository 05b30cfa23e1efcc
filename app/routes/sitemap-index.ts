import { SITEMAP_MAX_URLS, sitemapIndexXml } from "#app/content/feeds.ts";
import { originContext, storeContext } from "#app/context.ts";
import type { Route } from "./+types/sitemap-index";

export const SITEMAP_HEADERS = {
  "Content-Type": "application/xml; charset=utf-8",
  "Cache-Control": "public, max-age=900",
};

/** /sitemap.xml: the index of the pages sitemap, the terms sitemap and each language's posts. */
export async function loader({ context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const origin = context.get(originContext);
  const summaries = await store.listLanguageSummaries();
  const latest = Math.max(0, ...summaries.map((summary) => summary.updatedAt ?? 0));
  const sitemaps = [
    { loc: `${origin}/sitemaps/pages.xml`, lastmod: latest || null },
    { loc: `${origin}/sitemaps/terms.xml`, lastmod: latest || null },
    ...summaries.flatMap(({ language, count, updatedAt }) =>
      Array.from({ length: Math.ceil(count / SITEMAP_MAX_URLS) }, (_, index) => ({
        loc: `${origin}/sitemaps/${language}-${index + 1}.xml`,
        lastmod: updatedAt,
      })),
    ),
  ];
  return new Response(sitemapIndexXml(sitemaps), { headers: SITEMAP_HEADERS });
}
