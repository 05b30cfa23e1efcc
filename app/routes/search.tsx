import { data, redirect } from "react-router";
import { Pagination } from "#app/components/pagination.tsx";
import { PostGrid } from "#app/components/post-card.tsx";
import { labelsFor } from "#app/content/labels.ts";
import { POSTS_PER_PAGE, parsePageParam, toPostCard } from "#app/content/post-view.ts";
import { capSearchText, SEARCH_MAX_LENGTH, searchPath } from "#app/content/search-text.ts";
import { storeContext } from "#app/context.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: loaderData?.text
      ? `Search: ${loaderData.text} · ${siteConfig.name}`
      : `Search · ${siteConfig.name}`,
  },
  { name: "robots", content: "noindex" },
];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const splat = params["*"] ?? "";
  if (splat === "") {
    // The search form without JavaScript: /search?q=text → /search/text.
    const q = capSearchText(url.searchParams.get("q") ?? "");
    if (q.text !== "") throw redirect(searchPath(q.text));
    return { text: "", cut: false, page: 1, hasNext: false, posts: [] };
  }
  const { text, cut } = capSearchText(splat);
  const page = parsePageParam(request);
  if (page === null) throw data(null, { status: 404 });
  const result = text === "" ? null : await context.get(storeContext).searchPosts(text, page, POSTS_PER_PAGE);
  return {
    text,
    cut,
    page,
    hasNext: result?.hasNext ?? false,
    posts: (result?.posts ?? []).map(toPostCard),
  };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { text, cut, page, hasNext, posts } = loaderData;
  const labels = labelsFor("english");
  if (text === "") {
    return (
      <section className="search-page">
        <h1>Search</h1>
        <p>Type a word in the search box above, in English, हिंदी or मराठी.</p>
      </section>
    );
  }
  return (
    <section className="search-page">
      <h1>
        Search results for <q>{text}</q>
      </h1>
      {cut ? (
        <p role="status" className="notice">
          Search text is limited to {SEARCH_MAX_LENGTH} characters; we searched for the first{" "}
          {SEARCH_MAX_LENGTH}.
        </p>
      ) : null}
      <PostGrid
        posts={posts}
        emptyText="No quotes match your search. Try another word, or browse the tags."
      />
      <Pagination basePath={searchPath(text)} page={page} hasNext={hasNext} labels={labels} />
    </section>
  );
}
