import { useRouteLoaderData } from "react-router";
import { NO_SITE, type PublicSite } from "#app/site.ts";

/** The site's identity in a component: the root loader's (decision 055), never the bundle's. */
export function useSite(): PublicSite {
  return useRouteLoaderData<{ site?: PublicSite }>("root")?.site ?? NO_SITE;
}
