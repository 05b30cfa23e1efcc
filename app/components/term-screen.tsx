import { Pagination } from "#app/components/pagination.tsx";
import { PostGrid } from "#app/components/post-card.tsx";
import { addressAlternates } from "#app/content/address-alternates.ts";
import { withLanguage } from "#app/content/address-language.ts";
import { labelsFor } from "#app/content/labels.ts";
import type { TermRouteData } from "#app/content/route-data.ts";
import { pagedPath, pageMeta } from "#app/content/seo.ts";
import type { PublicSite } from "#app/site.ts";

export function TermScreen({ data }: { data: TermRouteData }) {
  const labels = labelsFor(data.pageLanguage);
  return (
    <section className="term-page">
      <h1>
        <span className="kicker">{labels[data.term.kind]}</span> {data.term.name}
        {data.page > 1 ? ` · ${labels.page} ${data.page}` : ""}
      </h1>
      <PostGrid posts={data.posts} emptyText={labels.noPosts} />
      <Pagination
        basePath={data.basePath}
        page={data.page}
        hasNext={data.hasNext}
        labels={labels}
        language={data.switchable ? data.pageLanguage : "english"}
      />
    </section>
  );
}

export function termMeta(data: TermRouteData | undefined, origin: string, site: PublicSite) {
  if (!data) return [{ title: `Page not found · ${site.name}` }];
  const labels = labelsFor(data.pageLanguage);
  const page = data.page > 1 ? ` · ${labels.page} ${data.page}` : "";
  const noun = data.term.kind === "tag" ? "tagged" : "in the category";
  return pageMeta({
    siteName: site.name,
    origin,
    title: `${data.term.name}${page} · ${labels[data.term.kind]} · ${site.name}`,
    description: `Quotes ${noun} “${data.term.name}” on ${site.name}, newest first${page}.`,
    path: withLanguage(pagedPath(data.basePath, data.page), data.switchable ? data.pageLanguage : "english"),
    language: data.pageLanguage,
  }).concat(data.switchable ? addressAlternates(origin, pagedPath(data.basePath, data.page)) : []);
}
