// /english/:slug, /hindi/:slug and /marathi/:slug: one module registered
// three times (app/routes.ts), the language taken from the address's first
// segment. `home` is the language's home, any other slug a post.
import { data } from "react-router";
import { LanguageScreen, languageMeta } from "#app/components/language-screen.tsx";
import { isLanguage, type Language } from "#app/content/languages.ts";
import { originOf } from "#app/content/seo.ts";
import { loadLanguageRoute } from "#app/routes/language-route.server.ts";
import { siteOf } from "#app/site.ts";
import type { Route } from "./+types/language";

function languageOf(pathname: string): Language | null {
  const first = pathname.split("/")[1];
  return isLanguage(first) ? first : null;
}

export const meta: Route.MetaFunction = ({ loaderData, matches, location }) =>
  languageMeta(loaderData, languageOf(location.pathname) ?? "english", originOf(matches), siteOf(matches));

export function loader({ params, request, context }: Route.LoaderArgs) {
  const language = languageOf(new URL(request.url).pathname);
  if (!language) throw data(null, { status: 404 });
  return loadLanguageRoute(language, params.slug, request, context);
}

export default function LanguagePage({ loaderData }: Route.ComponentProps) {
  return <LanguageScreen data={loaderData} />;
}
