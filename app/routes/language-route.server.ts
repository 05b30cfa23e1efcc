import { data, type RouterContextProvider, redirect } from "react-router";
import { dailyOffset, dayNumber } from "#app/content/daily.ts";
import { type Language, postPath } from "#app/content/languages.ts";
import type { Post } from "#app/content/model.ts";
import {
  POSTS_PER_PAGE,
  parsePageParam,
  teaserText,
  toPostCard,
  toPostView,
} from "#app/content/post-view.ts";
import { romanQuote } from "#app/content/roman-letters.ts";
import type { LanguageHomeData, LanguageRouteData, PostRouteData } from "#app/content/route-data.ts";
import { verseLines } from "#app/content/verse-lines.ts";
import { originContext, storeContext } from "#app/context.ts";
import { currentSite } from "#app/site.ts";

export const RELATED_POSTS = 4;

type Context = Readonly<RouterContextProvider>;

/**
 * The loader of /english/:slug, /hindi/:slug and /marathi/:slug: the slug
 * `home` is the language's home (a paginated list), any other slug a post.
 */
export async function loadLanguageRoute(
  language: Language,
  slug: string,
  request: Request,
  context: Context,
): Promise<LanguageRouteData> {
  if (slug === "home") return loadLanguageHome(language, request, context);
  const store = context.get(storeContext);
  const post = await store.getPost(language, slug);
  if (!post) {
    // An address that differs from a post's only in letter case (a link typed
    // or shouted in capitals) leads to it.
    const lower = slug.toLowerCase();
    if (lower !== slug && (await store.getPost(language, lower)))
      throw redirect(postPath(language, lower), 301);
    // Drafts, trashed posts, other languages' slugs and missing posts all look alike.
    throw data(null, { status: 404 });
  }
  return loadPostPage(post, context);
}

async function loadLanguageHome(
  language: Language,
  request: Request,
  context: Context,
): Promise<LanguageHomeData> {
  const store = context.get(storeContext);
  const page = parsePageParam(request);
  if (page === null) throw data(null, { status: 404 });
  const [list, count] = await Promise.all([
    store.listPosts({ language }, page, POSTS_PER_PAGE),
    store.countPosts(language),
  ]);
  if (page > 1 && list.posts.length === 0) throw data(null, { status: 404 });
  const daily =
    page === 1 && count > 0
      ? await store.postAt(language, dailyOffset(dayNumber(new Date(), currentSite().timeZone), count))
      : null;
  return {
    kind: "home" as const,
    pageLanguage: language,
    page,
    pageCount: Math.max(1, Math.ceil(count / POSTS_PER_PAGE)),
    hasNext: list.hasNext,
    // A verse keeps its lines (the page shows them with white-space: pre-line).
    quoteOfTheDay: daily
      ? { ...toPostCard(daily), excerpt: verseLines(teaserText(daily.excerpt)).join("\n") }
      : null,
    posts: list.posts.map(toPostCard),
  };
}

/** A published post with its neighbours and related posts (also /post/{slug}). */
export async function loadPostPage(post: Post, context: Context): Promise<PostRouteData> {
  const store = context.get(storeContext);
  const language = post.language;
  const [adjacent, related] = await Promise.all([
    store.adjacentPosts(language, post.slug),
    store.relatedPosts(language, post.slug, RELATED_POSTS),
  ]);
  const view = toPostView(post);
  return {
    kind: "post" as const,
    pageLanguage: language,
    post: view,
    url: `${context.get(originContext)}${view.href}`,
    previous: adjacent.previous ? toPostCard(adjacent.previous) : null,
    next: adjacent.next ? toPostCard(adjacent.next) : null,
    related: related.map(toPostCard),
    /** The quote in Roman letters (Hindi and Marathi posts; decision 051). */
    roman: romanQuote(language, post.title, post.content),
  };
}
