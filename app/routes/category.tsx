import { TermScreen, termMeta } from "#app/components/term-screen.tsx";
import { originOf } from "#app/content/seo.ts";
import { loadTermRoute } from "#app/routes/term-route.server.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/category";

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  termMeta(loaderData, originOf(matches), siteOf(matches));

export function loader({ params, request, context }: Route.LoaderArgs) {
  return loadTermRoute("category", params.slug, request, context);
}

export default function Category({ loaderData }: Route.ComponentProps) {
  return <TermScreen data={loaderData} />;
}
