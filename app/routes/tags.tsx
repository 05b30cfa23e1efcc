import { Link } from "react-router";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES } from "#app/content/languages.ts";
import { originOf, pageMeta } from "#app/content/seo.ts";
import { storeContext } from "#app/context.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/tags";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    siteName: siteOf(matches).name,
    origin: originOf(matches),
    title: `Tags · ${siteOf(matches).name}`,
    description: "Every topic of the collection, in English, Hindi and Marathi, with its number of quotes.",
    path: "/tags",
    language: "english",
  });

export async function loader({ context }: Route.LoaderArgs) {
  const tags = await context.get(storeContext).listTags();
  // One group per language, marked with its lang: a tag used in Hindi and in
  // Marathi (भक्ति, भक्ती) appears in each with that language's count.
  const groups = LANGUAGES.map((language) => ({
    id: language,
    heading: LANGUAGE_LABEL[language],
    lang: LANG_TAG[language],
    tags: tags
      .filter((tag) => tag.language === language)
      .map(({ name, slug, count }) => ({ name, count, href: `/tag/${encodeURIComponent(slug)}` })),
  }));
  return { total: tags.length, groups: groups.filter((group) => group.tags.length > 0) };
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  return (
    <section className="tags-page">
      <h1>Tags</h1>
      <p className="intro">
        Quotes by who said them: <Link to="/people">People</Link>.
      </p>
      {loaderData.total === 0 ? <p className="empty">No tags yet.</p> : null}
      {loaderData.groups.map((group) => (
        <section key={group.id} aria-labelledby={`tags-${group.id}`} className="tag-group">
          <h2 id={`tags-${group.id}`} lang={group.lang}>
            {group.heading} <span className="count">({group.tags.length})</span>
          </h2>
          <ul className="tag-cloud" lang={group.lang}>
            {group.tags.map((tag) => (
              <li key={tag.href}>
                <Link to={tag.href} className="chip">
                  {tag.name} <span className="count">{tag.count}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
