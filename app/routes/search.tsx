import { data, Link, redirect } from "react-router";
import { Pagination } from "#app/components/pagination.tsx";
import { SearchEmpty } from "#app/components/search-empty.tsx";
import { SearchResults } from "#app/components/search-results.tsx";
import { TextSizeControls } from "#app/components/text-size.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { addressLanguage, withLanguage } from "#app/content/address-language.ts";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";
import { POSTS_PER_PAGE, parsePageParam } from "#app/content/post-view.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import {
  fill,
  resultsLanguageOf,
  SEARCH_LABELS,
  type SearchLabels,
  searchPageHref,
} from "#app/search/labels.ts";
import { cleanSearchText, scriptOf, searchTextFromPath, toSearchHitView } from "#app/search/page.ts";
import { MAX_QUERY_TERMS } from "#app/search/parse.ts";
import { capSearchText, SEARCH_MAX_LENGTH, searchPath } from "#app/search/text.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/search";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const text = loaderData && "text" in loaderData ? loaderData.text : "";
  const language = loaderData?.pageLanguage ?? "english";
  const words = SEARCH_LABELS[language];
  const path = text ? searchPath(text) : "/search";
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: text
        ? `${words.title}: ${text} · ${siteOf(matches).name}`
        : `${words.title} · ${siteOf(matches).name}`,
      description: text ? fill(words.matching, { text }) : words.description,
      path: withLanguage(path, language),
      language,
    }),
    // A page of no language, in the three (decision 067).
    ...addressAlternates(originOf(matches), path),
    { name: "robots", content: "noindex" },
  ];
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A page of no language: in the one its address names (decision 067).
  const language = { pageLanguage: addressLanguage(url.searchParams), switchable: true as const };
  const decoded = searchTextFromPath(url.pathname);
  // A filter on results (decision 065): ?language=hindi, kept by canonical-url.ts; anything else is all.
  const resultsLanguage = resultsLanguageOf(url);
  // Broken percent-encoding (/search/%E0%A4): a clear message, not an error.
  if (decoded === null) return data({ kind: "invalid" as const, ...language }, { status: 400 });
  if (decoded === "") {
    // The search form without JavaScript: /search?q=text → /search/text.
    const q = capSearchText(cleanSearchText(url.searchParams.get("q") ?? ""));
    if (q.text !== "")
      throw redirect(
        withLanguage(searchPageHref(searchPath(q.text), resultsLanguage), language.pageLanguage),
      );
    return { kind: "form" as const, ...language };
  }
  const { text, cut } = capSearchText(cleanSearchText(decoded));
  if (text === "") return { kind: "form" as const, ...language };
  const page = parsePageParam(request);
  if (page === null) throw data(null, { status: 404 });
  const result = await context
    .get(storeContext)
    .searchPosts(text, page, POSTS_PER_PAGE, resultsLanguage ?? undefined);
  if (page > 1 && result.posts.length === 0) throw data(null, { status: 404 });
  return {
    kind: "results" as const,
    ...language,
    text,
    cut,
    page,
    resultsLanguage,
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

function countLine(language: Language, total: number, capped: boolean) {
  const words = SEARCH_LABELS[language];
  const count = total.toLocaleString("en");
  if (total === 0) return words.none;
  if (capped) return fill(words.more, { count });
  return total === 1 ? words.one : fill(words.many, { count });
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const words = SEARCH_LABELS[loaderData.pageLanguage];
  if (loaderData.kind === "invalid") {
    return (
      <section className="search-page">
        <h1>{words.title}</h1>
        <p role="alert" className="notice">
          {words.invalid}
        </p>
      </section>
    );
  }
  if (loaderData.kind === "form") {
    return (
      <section className="search-page">
        <h1>{words.title}</h1>
        <p>
          {words.formIntro} <i lang="en">prem</i>, <i lang="en">shanti</i>.
        </p>
      </section>
    );
  }
  const {
    text,
    cut,
    page,
    resultsLanguage,
    pageCount,
    total,
    totalCapped,
    mode,
    ignoredWords,
    hasNext,
    hits,
    script,
    tags,
  } = loaderData;
  const labels = readingLabelsFor(loaderData.pageLanguage);
  return (
    <section className="search-page">
      <TextSizeControls labels={labels} />
      <h1>
        {words.resultsFor}{" "}
        <q>
          <bdi>{text}</bdi>
        </q>
        {page > 1 ? ` · ${labels.page} ${page}` : ""}
      </h1>
      {total > 0 || resultsLanguage ? (
        <ResultsLanguages
          text={text}
          current={resultsLanguage}
          pageLanguage={loaderData.pageLanguage}
          labels={words}
        />
      ) : null}
      <p className="search-count" data-total={total}>
        {countLine(loaderData.pageLanguage, total, totalCapped)}
      </p>
      {cut ? (
        <p role="status" className="notice">
          {fill(words.cut, { max: SEARCH_MAX_LENGTH })}
        </p>
      ) : null}
      {ignoredWords > 0 ? <p className="notice">{fill(words.firstWords, { max: MAX_QUERY_TERMS })}</p> : null}
      {mode === "any" && total > 0 ? <p className="notice">{words.someWords}</p> : null}
      {total === 0 ? (
        <SearchEmpty script={script} tags={tags} />
      ) : (
        <SearchResults hits={hits} start={(page - 1) * POSTS_PER_PAGE + 1} labels={words} />
      )}
      <Pagination
        basePath={searchPath(text)}
        page={page}
        pageCount={pageCount}
        hasNext={hasNext}
        labels={labels}
        language={loaderData.pageLanguage}
        pageHref={(n) => searchPageHref(searchPath(text), resultsLanguage, n)}
      />
    </section>
  );
}

/**
 * The filter on results (decision 065): plain links, so it works without
 * JavaScript; each starts at page 1, and the one shown is marked.
 */
function ResultsLanguages({
  text,
  current,
  pageLanguage,
  labels,
}: {
  text: string;
  current: Language | null;
  /** The language the page is shown in (?lang=, decision 067), kept by each link. */
  pageLanguage: Language;
  labels: SearchLabels;
}) {
  const options: { language: Language | null; label: string }[] = [
    { language: null, label: labels.allLanguages },
    ...LANGUAGES.map((language) => ({ language, label: LANGUAGE_LABEL[language] })),
  ];
  return (
    <nav className="search-languages" aria-label={labels.languagesLabel}>
      <span className="search-languages-show">{labels.show}:</span>
      <ul>
        {options.map(({ language, label }) => (
          <li key={language ?? "all"}>
            <Link
              to={withLanguage(searchPageHref(searchPath(text), language), pageLanguage)}
              lang={language ? LANG_TAG[language] : undefined}
              aria-current={language === current ? "page" : undefined}
              rel="nofollow"
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
