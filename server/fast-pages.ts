// The fast path: a page already in the page cache (or the search cache), the
// caches having taken in every write (cached-pages.ts), is sent straight from
// Node's request, before Express: no middleware chain, no database, no React;
// its bytes, headers and compressed copies were made when it was rendered. A
// stale one (a write changed what it shows) is sent too while one fresh render
// replaces it. Two pages not kept are made here too, with the database but
// without React: the home (its gallery, home-page.ts) and a post (its language's
// frame, post-page.ts; with the page cache off as well). Anything else (a miss,
// a static file, /healthz, a refusal, a change log being read) returns false
// and goes to Express (app.ts), which applies the same policies on the long path.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { firstSegmentsOf } from "#app/route-table.ts";
import type { CachedPages } from "./cached-pages.ts";
import { canonicalUrl } from "./canonical-url.ts";
import { HOME_ADDRESS, type HomePage } from "./home-page.ts";
import { type Logger, logRequest } from "./logger.ts";
import type { OriginOf } from "./origin.ts";
import type { RenderedPage } from "./page-cache.ts";
import { isPostAddress, type PostPages } from "./post-page.ts";
import { sendPage } from "./send-page.ts";
import { countPage } from "./stats.ts";

/** The home's fresh gallery, served on the fast path when its template is there (home-page.ts). */
export interface FastHome {
  page: HomePage;
  /** The site's day (the quote of the day's), which the template is kept for. */
  today: () => string;
  /** Where a request goes when the fast home cannot answer it after all (Express: the long path). */
  slow: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Post pages made from their language's frame (post-page.ts), on the fast path too: a miss without Express. */
export interface FastPosts {
  pages: PostPages;
  /** Where a request goes when no page is made here after all (Express: the long path). */
  slow: (req: IncomingMessage, res: ServerResponse) => void;
}

export interface FastPagesOptions {
  /** The page cache; null when pages are not kept (PAGE_CACHE=off): then only post pages are made here. */
  cached: CachedPages | null;
  /** The Cache-Control of pages shared caches may keep (send-page.ts). */
  sharedCacheControl: () => string;
  originOf: OriginOf;
  /** Security headers every response carries (HSTS included when the site is https). */
  baseHeaders: readonly string[];
  logger: Logger;
  stopping: () => boolean;
  home?: FastHome | null;
  posts?: FastPosts | null;
}

/** The API (the routes app/route-table.ts gates so), in any letter case (React Router matches it so). */
const API = new RegExp(`^/(?:${firstSegmentsOf((route) => route.gate === "api")})(?:[/?]|$)`, "i");
/** A line break in a search address is redirected by Express (app.ts). */
const ENCODED_LINE_BREAK = /%0[AD]/i;

export function createFastPages({
  cached,
  sharedCacheControl,
  originOf,
  baseHeaders,
  logger,
  stopping,
  home,
  posts,
}: FastPagesOptions) {
  /** A page answered here: sent, logged and counted as the long path does. */
  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    page: RenderedPage,
    {
      requestId,
      cache,
      effort,
      started,
    }: { requestId: string; cache: "HIT" | "MISS" | "STALE"; effort: "once" | "each"; started: number },
  ) {
    // The status sent (its body may still be compressing: res.statusCode is not set yet).
    const status = sendPage(req, res, page, {
      requestId,
      cache,
      sharedCacheControl,
      baseHeaders,
      closing: stopping(),
      effort,
    });
    logRequest(logger, {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      status,
      started,
      requestId,
    });
    countPage(req, page);
  }

  /** Nothing is sent before a page is made: a failure goes the long way (Express), which answers it. */
  function failed(
    req: IncomingMessage,
    res: ServerResponse,
    slow: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    if (res.headersSent) res.destroy();
    else slow(req, res);
  }

  /** The home with this visitor's gallery (home-page.ts), or the long path when it has no template after all. */
  function serveHome(
    { page, today, slow }: FastHome,
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    url: string,
    started: number,
  ) {
    const requestId = randomUUID();
    page(req, { origin, day: today(), requestId, url })
      .then((home) => {
        if (!home) return slow(req, res);
        answer(req, res, home, { requestId, cache: "MISS", effort: "each", started });
      })
      .catch(() => failed(req, res, slow));
  }

  /** A post page made from its frame, kept when pages are kept; the long path when none is made here. */
  function servePost(
    { pages, slow }: FastPosts,
    req: IncomingMessage,
    res: ServerResponse,
    origin: string,
    target: ReturnType<typeof canonicalUrl>,
    started: number,
  ) {
    const requestId = randomUUID();
    // As the long path (app.ts): a page rendered across a write is not kept.
    const snapshot = cached?.snapshot();
    if (cached) cached.activeRenders++;
    pages(req, { url: target.url, origin, requestId })
      .finally(() => {
        if (cached) cached.activeRenders--;
      })
      .then((made) => {
        if (!made) return slow(req, res);
        const kept =
          cached !== null && snapshot !== undefined && cached.keep(origin, target, made.page, snapshot);
        answer(req, res, made.page, { requestId, cache: "MISS", effort: kept ? "once" : "each", started });
      })
      .catch(() => failed(req, res, slow));
  }

  return function serveFromCache(req: IncomingMessage, res: ServerResponse): boolean {
    const started = performance.now();
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    // The API goes through Express: its per-client limit (api-gate.ts) counts cached answers too.
    if (url.startsWith("/assets/") || url === "/healthz" || API.test(url)) return false;
    const origin = originOf(req.headers.host, false);
    if (origin === null) return false;
    // Pages are served here only once the cache has taken in every write (cached-pages.ts).
    if (cached && !cached.ready()) return false;
    const target = canonicalUrl(url);
    // The home draws its gallery for each visitor from a template made once (home-page.ts).
    if (home && HOME_ADDRESS.test(target.url) && home.page.ready(origin, target.url)) {
      serveHome(home, req, res, origin, target.url, started);
      return true;
    }
    if (!target.cacheable || (target.search && ENCODED_LINE_BREAK.test(url))) return false;
    const hit = cached?.lookup(origin, target);
    if (!hit) {
      // A post page not kept: made from its language's frame here, if it has one (post-page.ts).
      if (!posts || !isPostAddress(target.url) || target.url !== url) return false;
      servePost(posts, req, res, origin, target, started);
      return true;
    }
    answer(req, res, hit.page, {
      requestId: randomUUID(),
      cache: hit.stale ? "STALE" : "HIT",
      effort: "once",
      started,
    });
    return true;
  };
}
