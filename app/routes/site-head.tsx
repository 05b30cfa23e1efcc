import { Outlet } from "react-router";
import { originContext } from "#app/context.ts";
import type { Route } from "./+types/site-head";

/**
 * A pathless layout around every page: its loader hands the public origin to
 * the pages' `meta` (absolute canonical, og:url, og:image), and its links put
 * the manifest and icons in every page's head (the feeds, titled with the
 * site's name: root.tsx).
 */
export const links: Route.LinksFunction = () => [
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

export function loader({ context }: Route.LoaderArgs) {
  return { origin: context.get(originContext) };
}

// The origin never changes while the site runs.
export function shouldRevalidate() {
  return false;
}

export default function SiteHead() {
  return <Outlet />;
}
