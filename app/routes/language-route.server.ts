import { data, type RouterContextProvider } from "react-router";
import type { Language } from "#app/content/languages.ts";
import { POSTS_PER_PAGE, parsePageParam, toPostCard, toPostView } from "#app/content/post-view.ts";
import { storeContext } from "#app/context.ts";

/**
 * The loader of /english/:slug, /hindi/:slug and /marathi/:slug: the slug
 * `home` is the language's home (a paginated list), any other slug a post.
 */
export async function loadLanguageRoute(
  language: Language,
  slug: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const store = context.get(storeContext);
  if (slug === "home") {
    const page = parsePageParam(request);
    if (page === null) throw data(null, { status: 404 });
    const list = await store.listPosts({ language }, page, POSTS_PER_PAGE);
    if (page > 1 && list.posts.length === 0) throw data(null, { status: 404 });
    return {
      kind: "home" as const,
      pageLanguage: language,
      page,
      hasNext: list.hasNext,
      posts: list.posts.map(toPostCard),
    };
  }
  const post = await store.getPost(language, slug);
  // Drafts, trashed posts, other languages' slugs and missing posts all look alike.
  if (!post) throw data(null, { status: 404 });
  return { kind: "post" as const, pageLanguage: language, post: toPostView(post) };
}

export type LanguageRouteData = Awaited<ReturnType<typeof loadLanguageRoute>>;
