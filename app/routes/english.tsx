import { LanguageScreen, languageMeta } from "#app/components/language-screen.tsx";
import { originOf } from "#app/content/seo.ts";
import { loadLanguageRoute } from "#app/routes/language-route.server.ts";
import type { Route } from "./+types/english";

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  languageMeta(loaderData, "english", originOf(matches));

export function loader({ params, request, context }: Route.LoaderArgs) {
  return loadLanguageRoute("english", params.slug, request, context);
}

export default function English({ loaderData }: Route.ComponentProps) {
  return <LanguageScreen data={loaderData} />;
}
