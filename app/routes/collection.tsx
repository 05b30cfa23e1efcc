import { data } from "react-router";
import { PostGrid } from "#app/components/post-card.tsx";
import { decodeCollection } from "#app/content/collection-code.ts";
import { labelsFor, quoteCount } from "#app/content/labels.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";
import { toPostCard } from "#app/content/post-view.ts";
import { savedLabelsFor } from "#app/content/saved-labels.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/collection";

/**
 * /c/{code}: a collection someone shared (decision 050), rendered on the
 * server for anyone, JavaScript or not: the published posts it names, in its
 * order; unknown and unpublished ones are left out and not counted. A code
 * that is not one (app/content/collection-code.ts) is a 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const entries = decodeCollection(params.code);
  if (!entries) throw data(null, { status: 404 });
  const posts = await context.get(storeContext).collectionPosts(entries);
  const [first, ...rest] = posts.map((post) => post.language);
  const pageLanguage: Language = first && rest.every((language) => language === first) ? first : "english";
  return { pageLanguage, code: params.code, posts: posts.map(toPostCard) };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Page not found · ${siteOf(matches).name}` }];
  const labels = savedLabelsFor(loaderData.pageLanguage);
  return [
    ...pageMeta({
      siteName: siteOf(matches).name,
      origin: originOf(matches),
      title: `${labels.collectionTitle} · ${siteOf(matches).name}`,
      description: loaderData.posts.map((post) => post.title).join(" · ") || labels.collectionEmpty,
      path: `/c/${loaderData.code}`,
      language: loaderData.pageLanguage,
    }),
    // A reader's list: shared by link, not a page for search engines (its posts are).
    { name: "robots", content: "noindex" },
  ];
};

export default function Collection({ loaderData }: Route.ComponentProps) {
  const labels = savedLabelsFor(loaderData.pageLanguage);
  const { posts } = loaderData;
  return (
    <section className="collection-page" lang={LANG_TAG[loaderData.pageLanguage]}>
      <h1>{labels.collectionTitle}</h1>
      {posts.length > 0 ? (
        <p className="intro">
          {labels.collectionIntro}{" "}
          <span className="count">{quoteCount(labelsFor(loaderData.pageLanguage), posts.length)}</span>
        </p>
      ) : null}
      <PostGrid posts={posts} emptyText={labels.collectionEmpty} eagerCount={4} />
    </section>
  );
}
