import { data, type RouterContextProvider } from "react-router";
import { POSTS_PER_PAGE, parsePageParam, toPostCard } from "#app/content/post-view.ts";
import { storeContext } from "#app/context.ts";
import type { TermKind } from "#app/data/store.ts";

/** The loader of /tag/:slug and /category/:slug: the term's published posts, newest first. */
export async function loadTermRoute(
  kind: TermKind,
  slug: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
) {
  const store = context.get(storeContext);
  const page = parsePageParam(request);
  const term = page === null ? null : await store.getTerm(kind, slug);
  if (!term || page === null) throw data(null, { status: 404 });
  const filter = kind === "tag" ? { tag: term.slug } : { category: term.slug };
  const list = await store.listPosts(filter, page, POSTS_PER_PAGE);
  if (list.posts.length === 0) throw data(null, { status: 404 });
  return {
    term,
    basePath: `/${kind}/${encodeURIComponent(term.slug)}`,
    page,
    hasNext: list.hasNext,
    posts: list.posts.map(toPostCard),
  };
}

export type TermRouteData = Awaited<ReturnType<typeof loadTermRoute>>;
