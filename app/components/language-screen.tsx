import { Pagination } from "#app/components/pagination.tsx";
import { PostArticle } from "#app/components/post-article.tsx";
import { PostGrid } from "#app/components/post-card.tsx";
import { labelsFor } from "#app/content/labels.ts";
import { LANG_TAG, type Language } from "#app/content/languages.ts";
import type { LanguageRouteData } from "#app/routes/language-route.server.ts";
import { siteConfig } from "#app/site.config.ts";

export function LanguageScreen({ data }: { data: LanguageRouteData }) {
  const labels = labelsFor(data.pageLanguage);
  if (data.kind === "post") return <PostArticle post={data.post} labels={labels} />;
  return (
    <section className="language-home" lang={LANG_TAG[data.pageLanguage]}>
      <h1>
        {labels.languageHome}
        {data.page > 1 ? ` · ${labels.page} ${data.page}` : ""}
      </h1>
      <PostGrid posts={data.posts} emptyText={labels.noPosts} />
      <Pagination
        basePath={`/${data.pageLanguage}/home`}
        page={data.page}
        hasNext={data.hasNext}
        labels={labels}
      />
    </section>
  );
}

export function languageMeta(data: LanguageRouteData | undefined, language: Language) {
  if (!data) return [{ title: `Page not found · ${siteConfig.name}` }];
  if (data.kind === "post") {
    return [
      { title: `${data.post.title} · ${siteConfig.name}` },
      { name: "description", content: data.post.excerpt },
    ];
  }
  const labels = labelsFor(language);
  const page = data.page > 1 ? ` · ${labels.page} ${data.page}` : "";
  return [{ title: `${labels.languageHome}${page} · ${siteConfig.name}` }];
}
