import { data } from "react-router";
import { PostScreen } from "#app/components/language-screen.tsx";
import { htmlToText } from "#app/content/html-text.ts";
import { postMeta } from "#app/content/post-meta.ts";
import { originOf, pageMeta, summarize } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { loadPostPage } from "#app/routes/language-route.server.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/post";

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: `Page not found · ${siteOf(matches).name}` }];
  const origin = originOf(matches);
  if (loaderData.kind === "page") {
    const { title, slug, content } = loaderData.page;
    return pageMeta({
      siteName: siteOf(matches).name,
      origin,
      title: `${title} · ${siteOf(matches).name}`,
      description: summarize(htmlToText(content) || title),
      path: `/post/${encodeURIComponent(slug)}`,
      language: "english",
    });
  }
  // The post's own address is its language route: that is the canonical one.
  return postMeta(origin, loaderData.post, loaderData.url, siteOf(matches));
};

/** /post/{slug}: the site pages, or a published post of any language. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const page = await store.getPage(params.slug);
  if (page) return { kind: "page" as const, pageLanguage: "english" as const, page };
  const post = await store.getPostAnyLanguage(params.slug);
  if (!post) throw data(null, { status: 404 });
  return loadPostPage(post, context);
}

export default function PostRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "post") return <PostScreen data={loaderData} />;
  return (
    <article className="site-page">
      <h1>{loaderData.page.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: page HTML, sanitized by the writer before it is stored (app/data/sanitize.server.ts). */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: loaderData.page.content }} />
    </article>
  );
}
