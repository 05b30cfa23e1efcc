import { data } from "react-router";
import { PostScreen } from "#app/components/language-screen.tsx";
import { storeContext } from "#app/context.ts";
import { loadLanguageRoute } from "#app/routes/language-route.server.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/post";

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: `Page not found · ${siteConfig.name}` }];
  if (loaderData.kind === "page") return [{ title: `${loaderData.page.title} · ${siteConfig.name}` }];
  if (loaderData.kind !== "post") return [];
  return [
    { title: `${loaderData.post.title} · ${siteConfig.name}` },
    { name: "description", content: loaderData.post.excerpt },
    // The post's own address is its language route.
    { tagName: "link", rel: "canonical", href: loaderData.url },
  ];
};

/** /post/{slug}: the site pages, or a published post of any language. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  const page = await store.getPage(params.slug);
  if (page) return { kind: "page" as const, pageLanguage: "english" as const, page };
  const post = await store.getPostAnyLanguage(params.slug);
  if (!post) throw data(null, { status: 404 });
  return loadLanguageRoute(post.language, post.slug, request, context);
}

export default function PostRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "post") return <PostScreen data={loaderData} />;
  if (loaderData.kind === "home") return null;
  return (
    <article className="site-page">
      <h1>{loaderData.page.title}</h1>
      {/* Sanitized when stored. */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: loaderData.page.content }} />
    </article>
  );
}
