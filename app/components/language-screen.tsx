import { Link } from "react-router";
import { DailyPush } from "#app/components/daily-push.tsx";
import { Pagination } from "#app/components/pagination.tsx";
import { PostArticle } from "#app/components/post-article.tsx";
import { PostGrid, QuoteCardImage } from "#app/components/post-card.tsx";
import { PostImage } from "#app/components/post-image.tsx";
import { TextSizeControls } from "#app/components/text-size.tsx";
import { IMAGE_SIZES } from "#app/content/image-variants.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";
import { postMeta } from "#app/content/post-meta.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import type { LanguageRouteData, PostRouteData } from "#app/content/route-data.ts";
import { LANGUAGE_HOME_DESCRIPTION, languageAlternates, pagedPath, pageMeta } from "#app/content/seo.ts";
import type { PublicSite } from "#app/site.ts";

export function LanguageScreen({ data }: { data: LanguageRouteData }) {
  if (data.kind === "post") return <PostScreen data={data} />;
  const labels = readingLabelsFor(data.pageLanguage);
  const daily = data.quoteOfTheDay;
  return (
    <section className="language-home" lang={LANG_TAG[data.pageLanguage]}>
      <TextSizeControls labels={labels} />
      <h1>
        {labels.languageHome}
        {data.page > 1 ? ` · ${labels.page} ${data.page}` : ""}
      </h1>
      {daily ? (
        <aside className="daily" aria-labelledby="daily-title">
          <Link to={daily.href} className="daily-link">
            {/* Without an image: its quote card, light or dark (decision 064); the title follows as text. */}
            {daily.cardVersion ? (
              <QuoteCardImage post={daily} eager sizes={IMAGE_SIZES.daily} className="daily-image" alt="" />
            ) : (
              <PostImage src={daily.image} alt="" eager className="daily-image" place="daily" />
            )}
            <div>
              <p id="daily-title" className="daily-kicker">
                {labels.quoteOfTheDay}
              </p>
              <p className="daily-title">{daily.title}</p>
              {daily.excerpt ? <p className="daily-excerpt">{daily.excerpt}</p> : null}
              <span className="daily-more">{labels.readMore} →</span>
            </div>
          </Link>
        </aside>
      ) : null}
      <PostGrid posts={data.posts} emptyText={labels.noPosts} eagerCount={daily ? 2 : 4} />
      <Pagination
        basePath={`/${data.pageLanguage}/home`}
        page={data.page}
        pageCount={data.pageCount}
        hasNext={data.hasNext}
        labels={labels}
      />
      <p className="feed-link">
        {/* A plain link: the feed is a file for feed readers, not a page of the site. */}
        <a href={`/${data.pageLanguage}/feed.xml`} type="application/rss+xml">
          <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
            <circle cx="5" cy="19" r="2.2" fill="currentColor" />
            <path
              d="M3 10.5a10.5 10.5 0 0 1 10.5 10.5M3 3.5A17.5 17.5 0 0 1 20.5 21"
              stroke="currentColor"
              strokeWidth="2.6"
              fill="none"
              strokeLinecap="round"
            />
          </svg>{" "}
          {labels.subscribeFeed}
        </a>
      </p>
      {/* The daily quote by notification (decision 061): keyed so another language starts afresh. */}
      <DailyPush key={data.pageLanguage} language={data.pageLanguage} />
    </section>
  );
}

export function PostScreen({ data }: { data: PostRouteData }) {
  const labels = readingLabelsFor(data.pageLanguage);
  return (
    <>
      <TextSizeControls labels={labels} />
      <PostArticle
        post={data.post}
        labels={labels}
        url={data.url}
        previous={data.previous}
        next={data.next}
        related={data.related}
        roman={data.roman}
      />
      {/* The daily quote by notification (decision 061). */}
      <DailyPush key={data.pageLanguage} language={data.pageLanguage} />
    </>
  );
}

export function languageMeta(
  data: LanguageRouteData | undefined,
  language: Language,
  origin: string,
  site: PublicSite,
) {
  if (!data) return [{ title: `Page not found · ${site.name}` }];
  if (data.kind === "post") return postMeta(origin, data.post, data.url, site);
  const labels = readingLabelsFor(language);
  const page = data.page > 1 ? ` · ${labels.page} ${data.page}` : "";
  return [
    ...pageMeta({
      siteName: site.name,
      origin,
      title: `${labels.languageHome}${page} · ${site.name}`,
      description: `${LANGUAGE_HOME_DESCRIPTION[language]}${page}`,
      path: pagedPath(`/${language}/home`, data.page),
      language,
    }),
    // Only the first page is the same page in three languages.
    ...(data.page === 1 ? languageAlternates(origin) : []),
  ];
}
