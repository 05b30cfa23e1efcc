import { data } from "react-router";
import { PostArticle } from "#app/components/post-article.tsx";
import { labelsFor } from "#app/content/labels.ts";
import { toPostView } from "#app/content/post-view.ts";
import { storeContext } from "#app/context.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/post";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: `Page not found · ${siteConfig.name}` }];
  if (loaderData.kind === "page") return [{ title: `${loaderData.page.title} · ${siteConfig.name}` }];
  return [
    { title: `${loaderData.post.title} · ${siteConfig.name}` },
    { name: "description", content: loaderData.post.excerpt },
    // The post's own address is its language route.
    { tagName: "link", rel: "canonical", href: loaderData.post.href },
  ];
};

/** /post/{slug}: the site pages, or a published post of any language. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const page = await store.getPage(params.slug);
  if (page) return { kind: "page" as const, pageLanguage: "english" as const, page };
  const post = await store.getPostAnyLanguage(params.slug);
  if (!post) throw data(null, { status: 404 });
  return { kind: "post" as const, pageLanguage: post.language, post: toPostView(post) };
}

export default function PostRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "post") {
    return <PostArticle post={loaderData.post} labels={labelsFor(loaderData.pageLanguage)} />;
  }
  return (
    <article className="site-page">
      <h1>{loaderData.page.title}</h1>
      {/* Sanitized when stored. */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: loaderData.page.content }} />
    </article>
  );
}
