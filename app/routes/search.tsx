import { data, redirect } from "react-router";
import { Pagination } from "#app/components/pagination.tsx";
import { SearchEmpty } from "#app/components/search-empty.tsx";
import { SearchResults } from "#app/components/search-results.tsx";
import { TextSizeControls } from "#app/components/text-size.tsx";
import { labelsFor } from "#app/content/labels.ts";
import { POSTS_PER_PAGE, parsePageParam } from "#app/content/post-view.ts";
import { cleanSearchText, scriptOf, searchTextFromPath, toSearchHitView } from "#app/content/search-page.ts";
import { MAX_QUERY_TERMS } from "#app/content/search-query.ts";
import { capSearchText, SEARCH_MAX_LENGTH, searchPath } from "#app/content/search-text.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const text = loaderData && "text" in loaderData ? loaderData.text : "";
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: text ? `Search: ${text} · ${siteOf(matches).name}` : `Search · ${siteOf(matches).name}`,
      description: text
        ? `Quotes matching “${text}” in English, Hindi and Marathi.`
        : "Search the quotes in English, Hindi and Marathi.",
      path: text ? searchPath(text) : "/search",
      language: "english",
    }),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const decoded = searchTextFromPath(url.pathname);
  // Broken percent-encoding (/search/%E0%A4): a clear message, not an error.
  if (decoded === null) return data({ kind: "invalid" as const }, { status: 400 });
  if (decoded === "") {
    // The search form without JavaScript: /search?q=text → /search/text.
    const q = capSearchText(cleanSearchText(url.searchParams.get("q") ?? ""));
    if (q.text !== "") throw redirect(searchPath(q.text));
    return { kind: "form" as const };
  }
  const { text, cut } = capSearchText(cleanSearchText(decoded));
  if (text === "") return { kind: "form" as const };
  const page = parsePageParam(request);
  if (page === null) throw data(null, { status: 404 });
  const result = await context.get(storeContext).searchPosts(text, page, POSTS_PER_PAGE);
  if (page > 1 && result.posts.length === 0) throw data(null, { status: 404 });
  return {
    kind: "results" as const,
    text,
    cut,
    page,
    // Unknown when the count stopped at its bound: the pages show "next" only.
    pageCount: result.totalCapped ? undefined : Math.max(1, Math.ceil(result.total / POSTS_PER_PAGE)),
    total: result.total,
    totalCapped: result.totalCapped,
    mode: result.mode,
    ignoredWords: result.ignoredWords,
    hasNext: result.hasNext,
    hits: result.posts.map(toSearchHitView),
    script: scriptOf(text),
    tags: result.suggestedTags.map((tag) => ({
      name: tag.name,
      href: `/tag/${encodeURIComponent(tag.slug)}`,
      language: tag.language,
    })),
  };
}

function countLine(total: number, capped: boolean) {
  if (total === 0) return "No quotes found";
  if (capped) return `More than ${total.toLocaleString("en")} quotes found`;
  return `${total.toLocaleString("en")} ${total === 1 ? "quote" : "quotes"} found`;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "invalid") {
    return (
      <section className="search-page">
        <h1>Search</h1>
        <p role="alert" className="notice">
          This search address is not valid text, so nothing was searched. Type your words in the search box
          above.
        </p>
      </section>
    );
  }
  if (loaderData.kind === "form") {
    return (
      <section className="search-page">
        <h1>Search</h1>
        <p>
          Type a word in the search box above, in English, <span lang="hi">हिंदी</span> or{" "}
          <span lang="mr">मराठी</span>, or spelled in Latin letters (<i>prem</i>, <i>shanti</i>).
        </p>
      </section>
    );
  }
  const { text, cut, page, pageCount, total, totalCapped, mode, ignoredWords, hasNext, hits, script, tags } =
    loaderData;
  const labels = labelsFor("english");
  return (
    <section className="search-page">
      <TextSizeControls labels={labels} />
      <h1>
        Search results for{" "}
        <q>
          <bdi>{text}</bdi>
        </q>
        {page > 1 ? ` · ${labels.page} ${page}` : ""}
      </h1>
      <p className="search-count">{countLine(total, totalCapped)}</p>
      {cut ? (
        <p role="status" className="notice">
          Search text is limited to {SEARCH_MAX_LENGTH} characters; we searched for the first{" "}
          {SEARCH_MAX_LENGTH}.
        </p>
      ) : null}
      {ignoredWords > 0 ? (
        <p className="notice">Only the first {MAX_QUERY_TERMS} words were searched.</p>
      ) : null}
      {mode === "any" && total > 0 ? (
        <p className="notice">No quote has all of these words; these have some of them.</p>
      ) : null}
      {total === 0 ? (
        <SearchEmpty script={script} tags={tags} />
      ) : (
        <SearchResults hits={hits} start={(page - 1) * POSTS_PER_PAGE + 1} />
      )}
      <Pagination
        basePath={searchPath(text)}
        page={page}
        pageCount={pageCount}
        hasNext={hasNext}
        labels={labels}
      />
    </section>
  );
}
