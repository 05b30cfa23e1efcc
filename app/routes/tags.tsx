import { Link } from "react-router";
import { storeContext } from "#app/context.ts";
import { siteConfig } from "#app/site.config.ts";
import type { Route } from "./+types/tags";

export const meta: Route.MetaFunction = () => [
  { title: `Tags · ${siteConfig.name}` },
  { name: "description", content: "Every topic of the collection, with its number of quotes." },
];

export async function loader({ context }: Route.LoaderArgs) {
  const tags = await context.get(storeContext).listTags();
  return {
    tags: tags.map(({ name, slug, count }) => ({ name, count, href: `/tag/${encodeURIComponent(slug)}` })),
  };
}

export default function Tags({ loaderData }: Route.ComponentProps) {
  return (
    <section className="tags-page">
      <h1>Tags</h1>
      {loaderData.tags.length === 0 ? (
        <p className="empty">No tags yet.</p>
      ) : (
        <ul className="tag-cloud">
          {loaderData.tags.map((tag) => (
            <li key={tag.href}>
              <Link to={tag.href} className="chip">
                {tag.name} <span className="count">{tag.count}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
