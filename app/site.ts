// The running identity (decision 055). On the server, currentSite() is what
// SITE_CONFIG said at start or at the last good reload (server/start.ts sets
// it; the search thread per search); loaders hand pages what they show of it
// (PublicSite, the root loader), so the browser holds no identity of its own
// and a changed file shows after hydration too.
import { demoSite } from "#app/site.config.ts";
import type { SiteConfig } from "#app/site-config.server.ts";

export type { SiteConfig };

const HOLDER = Symbol.for("sukti.site");
type Holder = { config: SiteConfig; version: string };
const global = globalThis as { [HOLDER]?: Holder };

/**
 * The identity pages are made with, on the server only (the demo's until
 * start-up sets one). Kept on globalThis: in development Vite may load this
 * module more than once.
 */
export function currentSite(): SiteConfig {
  return global[HOLDER]?.config ?? demoSite;
}

/** Changes whenever the identity does: a cached page is valid for one (server/app.ts). */
export function currentSiteVersion(): string {
  return global[HOLDER]?.version ?? "demo";
}

export function setCurrentSite(config: SiteConfig, version: string): void {
  global[HOLDER] = { config, version };
}

/**
 * What every page shows of the identity: the frame, titles, image sizes (root
 * loader data, in every page: only what the browser needs; the home's loader
 * adds the tagline and the about box).
 */
export function publicSite(site: SiteConfig) {
  return {
    name: site.name,
    teacherName: site.teacherName,
    logo: { src: site.logo.src, width: site.logo.width, height: site.logo.height },
    social: site.social,
    copyrightHolder: site.copyrightHolder,
    defaultImage: { width: site.defaultImage.width, height: site.defaultImage.height },
    contact: site.contact ?? null,
    /** For the service worker's site day (a meta tag in every page: root.tsx). */
    timeZone: site.timeZone,
    colours: { theme: site.colours.theme, themeDark: site.colours.themeDark },
  };
}
export type PublicSite = ReturnType<typeof publicSite>;

/**
 * Stands in while no root loader data is at hand (never on a page the server
 * rendered: the root loader cannot fail); small, as it is in every page's bundle.
 */
export const NO_SITE = {
  name: "",
  social: [],
  logo: {},
  defaultImage: { width: 800, height: 800 },
  colours: {},
} as unknown as PublicSite;

/** The identity in a route's `meta`: the root match's loader data. */
export function siteOf(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[]): PublicSite {
  const data = matches.find((match) => match?.id === "root")?.loaderData as { site?: PublicSite } | undefined;
  return data?.site ?? NO_SITE;
}
