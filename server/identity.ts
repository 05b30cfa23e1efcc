// The site's identity in the server (decision 055): loaded at start from
// SITE_CONFIG (app/site-config.server.ts), reloaded on SIGHUP. One process
// reads the file itself; in a cluster the primary reads it, at start and on
// SIGHUP, and hands the identity it validated to its workers (in their
// environment when forked, by IPC message on a reload), so a worker never
// reads a bad file and a bad file is said once. Cached pages are valid for
// one identity: identityClock() goes into the page version (server/app.ts).
import { siteDayClock } from "#app/content/daily.ts";
import { currentSite, currentSiteVersion, type SiteConfig, setCurrentSite } from "#app/site.ts";
import { type LoadedSite, loadSiteConfig, SiteConfigError } from "#app/site-config.server.ts";
import type { Logger } from "./logger.ts";

/** The environment variable a worker gets its identity in (JSON of LoadedSite). */
export const WORKER_SITE_ENV = "SUKTI_SITE";
const MESSAGE = "sukti:site";

export interface SiteMessage {
  type: typeof MESSAGE;
  site: LoadedSite;
}

export function siteMessage(site: LoadedSite): SiteMessage {
  return { type: MESSAGE, site };
}

function isSiteMessage(message: unknown): message is SiteMessage {
  return (message as SiteMessage | null)?.type === MESSAGE;
}

/** SITE_CONFIG's identity, made the running one; a bad file throws (one line). */
export function loadIdentity(file: string | undefined): LoadedSite {
  const site = loadSiteConfig(file);
  setCurrentSite(site.config, site.version);
  return site;
}

/** The identity a worker was forked with, made the running one; null when it was given none. */
export function identityFromPrimary(): LoadedSite | null {
  const given = process.env[WORKER_SITE_ENV];
  if (!given) return null;
  const site = JSON.parse(given) as LoadedSite;
  setCurrentSite(site.config, site.version);
  return site;
}

/**
 * SIGHUP: the file read again; a good one becomes the identity (`apply`), a
 * bad one is one line in the log and the identity running stays.
 */
export function reloadOnHangup(file: string | undefined, logger: Logger, apply: (site: LoadedSite) => void) {
  process.on("SIGHUP", () => {
    let site: LoadedSite;
    try {
      site = loadSiteConfig(file);
    } catch (error) {
      const reason = error instanceof SiteConfigError ? error.message : String(error);
      logger.error("site identity not reloaded; the running one stays", { reason });
      return;
    }
    const changed = site.version !== currentSiteVersion();
    apply(site);
    logger.info(changed ? "site identity reloaded" : "site identity unchanged", {
      file: site.file,
      version: site.version,
    });
  });
}

/** A worker: the identity comes from the primary; SIGHUP is the primary's to act on. */
export function followPrimary(logger: Logger) {
  process.on("SIGHUP", () => {});
  process.on("message", (message: unknown) => {
    if (!isSiteMessage(message)) return;
    setCurrentSite(message.site.config, message.site.version);
    logger.debug("site identity from the primary", { version: message.site.version });
  });
}

/**
 * The part of a cached page's version the server adds to the content's: the
 * site's day in its time zone (language homes show the quote of the day,
 * every page the year) and the identity's version. The time zone is read
 * from the running identity, so a reload that changes it moves the day too.
 */
export function identityClock(): () => string {
  let zone = currentSite().timeZone;
  let today = siteDayClock(zone);
  return () => {
    const site: SiteConfig = currentSite();
    if (site.timeZone !== zone) {
      zone = site.timeZone;
      today = siteDayClock(zone);
    }
    return `${today()}~${currentSiteVersion()}`;
  };
}
