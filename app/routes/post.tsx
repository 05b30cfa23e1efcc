import { data, redirect } from "react-router";
import { PostScreen } from "#app/components/language-screen.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import {
  addressLanguage,
  sitePageSlug,
  sitePageVersion,
  withLanguage,
} from "#app/content/address-language.ts";
import { htmlToText } from "#app/content/html-text.ts";
import { LANG_TAG } from "#app/content/languages.ts";
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
    const { title, content } = loaderData.page;
    const path = `/post/${encodeURIComponent(loaderData.slug)}`;
    return [
      ...pageMeta({
        siteName: siteOf(matches).name,
        origin,
        title: `${title} · ${siteOf(matches).name}`,
        description: summarize(htmlToText(content) || title),
        path: withLanguage(path, loaderData.pageLanguage),
        language: loaderData.pageLanguage,
      }),
      // A site page in the three languages (decision 067).
      ...addressAlternates(origin, path),
    ];
  }
  // The post's own address is its language route: that is the canonical one.
  return postMeta(origin, loaderData.post, loaderData.url, siteOf(matches));
};

/** /post/{slug}: the site pages, or a published post of any language. */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const store = context.get(storeContext);
  // A site page is shown in the language its address names (?lang=): its
  // version in that language is the page {slug}-hindi or {slug}-marathi, the
  // English one where there is none (decision 067).
  const pageLanguage = addressLanguage(new URL(request.url).searchParams);
  const version =
    pageLanguage === "english" ? null : await store.getPage(sitePageSlug(params.slug, pageLanguage));
  const page = version ?? (await store.getPage(params.slug));
  if (page) {
    // A version's own slug answers at the page's address in its language: one address a page.
    const own = version ? null : sitePageVersion(params.slug);
    if (own) throw redirect(withLanguage(`/post/${encodeURIComponent(own.slug)}`, own.language), 301);
    return {
      kind: "page" as const,
      pageLanguage,
      switchable: true as const,
      slug: params.slug,
      lang: LANG_TAG[version ? pageLanguage : "english"],
      page,
    };
  }
  const post = await store.getPostAnyLanguage(params.slug);
  if (!post) throw data(null, { status: 404 });
  return loadPostPage(post, context);
}

export default function PostRoute({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "post") return <PostScreen data={loaderData} />;
  return (
    <article className="site-page" lang={loaderData.lang}>
      <h1>{loaderData.page.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: page HTML, sanitized by the writer before it is stored (app/data/sanitize.server.ts). */}
      <div className="post-content" dangerouslySetInnerHTML={{ __html: loaderData.page.content }} />
    </article>
  );
}
