import { originContext } from "#app/context.ts";
import type { Route } from "./+types/robots";

/** /robots.txt: everything may be crawled but search results; the sitemap index is named. */
export function loader({ context }: Route.LoaderArgs) {
  const origin = context.get(originContext);
  const body = ["User-agent: *", "Disallow: /search", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
