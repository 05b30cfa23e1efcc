import { absolutizeLinks, escapeXml, FEED_ITEMS, notFoundResponse, rssXml } from "#app/content/feeds.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { isLanguage, LANG_TAG, LANGUAGE_LABEL, postPath } from "#app/content/languages.ts";
import { LANGUAGE_HOME_DESCRIPTION, summarize } from "#app/content/seo.ts";
import { originContext, storeContext } from "#app/context.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/feed";

/** /english/feed.xml, /hindi/feed.xml, /marathi/feed.xml: RSS 2.0, the newest 50 published posts. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const language = new URL(request.url).pathname.split("/")[1];
  if (!isLanguage(language)) throw notFoundResponse();
  const origin = context.get(originContext);
  const posts = await context.get(storeContext).listFeedPosts(language, FEED_ITEMS);
  const items = posts.map((post) => {
    const link = `${origin}${postPath(language, post.slug)}`;
    const image = post.featureImageUrl
      ? `<p><img src="${escapeXml(post.featureImageUrl)}" alt="${escapeXml(post.title)}"></p>`
      : "";
    return {
      title: post.title,
      link,
      pubDate: post.postTime,
      description: summarize(post.excerpt || htmlToText(post.content) || post.title, 300),
      html: absolutizeLinks(image + post.content, origin),
      categories: [...post.categories, ...post.tags].map((term) => term.name),
    };
  });
  const xml = rssXml(
    {
      title: `${siteConfig.name} · ${LANGUAGE_LABEL[language]}`,
      link: `${origin}/${language}/home`,
      self: `${origin}/${language}/feed.xml`,
      description: LANGUAGE_HOME_DESCRIPTION[language],
      language: LANG_TAG[language],
      lastBuildDate: posts.length > 0 ? Math.max(...posts.map((post) => post.updatedAt)) : null,
    },
    items,
  );
  return new Response(xml, {
    headers: { "Content-Type": "application/rss+xml; charset=utf-8", "Cache-Control": "public, max-age=900" },
  });
}
