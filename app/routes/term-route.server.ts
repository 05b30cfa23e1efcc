import { data, type RouterContextProvider } from "react-router";
import { addressLanguage } from "#app/content/address-language.ts";
import type { Language } from "#app/content/languages.ts";
import type { TermKind } from "#app/content/model.ts";
import { POSTS_PER_PAGE, parsePageParam, toPostCard } from "#app/content/post-view.ts";
import type { TermRouteData } from "#app/content/route-data.ts";
import { storeContext } from "#app/context.ts";

/** The loader of /tag/:slug and /category/:slug: the term's published posts, newest first. */
export async function loadTermRoute(
  kind: TermKind,
  slug: string,
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<TermRouteData> {
  const store = context.get(storeContext);
  const page = parsePageParam(request);
  const term = page === null ? null : await store.getTerm(kind, slug);
  if (!term || page === null) throw data(null, { status: 404 });
  const filter = kind === "tag" ? { tag: term.slug } : { category: term.slug };
  const list = await store.listPosts(filter, page, POSTS_PER_PAGE);
  if (list.posts.length === 0) throw data(null, { status: 404 });
  const posts = list.posts.map(toPostCard);
  // A term whose posts on this page are all in one language (मन, दोहे) is shown
  // in that language; a mixed one has none of its own: in the one its address
  // names (?lang=, decision 067), English by default.
  const [first, ...rest] = posts.map((post) => post.language);
  const own = first && rest.every((language) => language === first) ? first : null;
  const pageLanguage: Language = own ?? addressLanguage(new URL(request.url).searchParams);
  return {
    term,
    pageLanguage,
    switchable: own === null,
    basePath: `/${kind}/${encodeURIComponent(term.slug)}`,
    page,
    hasNext: list.hasNext,
    posts,
  };
}
