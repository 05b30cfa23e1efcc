import { data } from "react-router";
import { Pagination } from "#app/components/pagination.tsx";
import { PersonCounts } from "#app/components/person-counts.tsx";
import { PostGrid } from "#app/components/post-card.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { addressLanguage, withLanguage } from "#app/content/address-language.ts";
import { quoteCount } from "#app/content/labels.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";
import { languageCounts, otherNames, personAbout, personName, personPath } from "#app/content/people.ts";
import { POSTS_PER_PAGE, parsePageParam, toPostCard } from "#app/content/post-view.ts";
import { readingLabelsFor } from "#app/content/reading-labels.ts";
import { originOf, pagedPath, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/person";

export const meta: Route.MetaFunction = ({ loaderData: page, matches }) => {
  if (!page) return [{ title: `Page not found · ${siteOf(matches).name}` }];
  const origin = originOf(matches);
  const labels = readingLabelsFor(page.pageLanguage);
  const title = labels.quotesBy.replace("{name}", page.person.name);
  const suffix = page.page > 1 ? ` · ${labels.page} ${page.page}` : "";
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin,
      title: `${title}${suffix} · ${siteOf(matches).name}`,
      description: `${title}: ${quoteCount(labels, page.person.count)}${suffix}.`,
      path: withLanguage(
        pagedPath(page.person.href, page.page),
        page.switchable ? page.pageLanguage : "english",
      ),
      language: page.pageLanguage,
    }),
    ...(page.switchable ? addressAlternates(origin, pagedPath(page.person.href, page.page)) : []),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: `${siteOf(matches).name} · ${page.person.name}`,
      href: `${page.person.href}/feed.xml`,
    },
  ];
};

/**
 * /people/{slug}: the person's published quotes in every language, newest
 * first, paginated like the language homes. The page speaks the language of
 * the quotes it shows when they share one, else English.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const page = parsePageParam(request);
  const person = page === null ? null : await store.getPerson(params.slug);
  if (!person || page === null) throw data(null, { status: 404 });
  const list = await store.listPosts({ person: person.slug }, page, POSTS_PER_PAGE);
  if (list.posts.length === 0) throw data(null, { status: 404 });
  const posts = list.posts.map(toPostCard);
  // Quotes of one language: that language; mixed ones: the address's (?lang=, decision 067).
  const [first, ...rest] = posts.map((post) => post.language);
  const own = first && rest.every((language) => language === first) ? first : null;
  const pageLanguage: Language = own ?? addressLanguage(new URL(request.url).searchParams);
  const name = personName(person.names, pageLanguage);
  return {
    person: {
      name,
      otherNames: otherNames(person.names, name),
      count: person.count,
      counts: languageCounts(person.counts),
      about: personAbout(person.about, pageLanguage),
      href: personPath(person.slug),
    },
    pageLanguage,
    switchable: own === null,
    page,
    pageCount: Math.max(1, Math.ceil(person.count / POSTS_PER_PAGE)),
    hasNext: list.hasNext,
    posts,
  };
}

export default function Person({ loaderData: page }: Route.ComponentProps) {
  const labels = readingLabelsFor(page.pageLanguage);
  return (
    <section className="person-page" lang={LANG_TAG[page.pageLanguage]}>
      <h1>
        {labels.quotesBy.replace("{name}", page.person.name)}
        {page.page > 1 ? ` · ${labels.page} ${page.page}` : ""}
      </h1>
      {page.person.about ? (
        <p className="person-about" lang={page.person.about.lang}>
          {page.person.about.text}
        </p>
      ) : null}
      <p className="person-summary">
        {page.person.otherNames.map((other) => (
          <span key={other.name} lang={other.lang} className="person-other-name">
            {other.name}
          </span>
        ))}{" "}
        <PersonCounts counts={page.person.counts} labels={labels} />
      </p>
      <PostGrid posts={page.posts} emptyText={labels.noPosts} />
      <Pagination
        basePath={page.person.href}
        page={page.page}
        pageCount={page.pageCount}
        hasNext={page.hasNext}
        labels={labels}
        language={page.switchable ? page.pageLanguage : "english"}
      />
      <p className="feed-link">
        <a href={`${page.person.href}/feed.xml`} type="application/rss+xml">
          {labels.subscribeFeed}
        </a>
      </p>
    </section>
  );
}
