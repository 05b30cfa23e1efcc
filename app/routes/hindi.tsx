import { LanguageScreen, languageMeta } from "#app/components/language-screen.tsx";
import { originOf } from "#app/content/seo.ts";
import { loadLanguageRoute } from "#app/routes/language-route.server.ts";
import type { Route } from "./+types/hindi";

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  languageMeta(loaderData, "hindi", originOf(matches));

export function loader({ params, request, context }: Route.LoaderArgs) {
  return loadLanguageRoute("hindi", params.slug, request, context);
}

export default function Hindi({ loaderData }: Route.ComponentProps) {
  return <LanguageScreen data={loaderData} />;
}
