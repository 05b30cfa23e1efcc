import { LanguageScreen, languageMeta } from "#app/components/language-screen.tsx";
import { originOf } from "#app/content/seo.ts";
import { loadLanguageRoute } from "#app/routes/language-route.server.ts";
import type { Route } from "./+types/marathi";

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  languageMeta(loaderData, "marathi", originOf(matches));

export function loader({ params, request, context }: Route.LoaderArgs) {
  return loadLanguageRoute("marathi", params.slug, request, context);
}

export default function Marathi({ loaderData }: Route.ComponentProps) {
  return <LanguageScreen data={loaderData} />;
}
