// The request path, in order: a page already cached goes out at once
// (fast-pages.ts); anything else goes to Express: request id and log line →
// security headers → compression → static files → /healthz → the API's gate
// (api-gate.ts: preflight, 405, per-client limit) → method filter
// → the site's origin (origin.ts) → search limits → page cache (kept fresh by
// cached-pages.ts), the fast home (home-page.ts) or a render → errors. Each
// step's policy lives in its own file; this one only puts them together.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { RandomSource } from "#app/content/sampling.ts";
import type { ChangesSince } from "#app/data/cache-tags.ts";
import type { ContentStore } from "#app/data/store.ts";
import { resultsLanguageOf, searchPageHref } from "#app/search/labels.ts";
import { cleanSearchText, searchTextFromPath } from "#app/search/page.ts";
import { capSearchText, searchPath } from "#app/search/text.ts";
import { currentSite, currentSiteVersion } from "#app/site.ts";
import { apiGate, DEFAULT_API_RATE_LIMIT } from "./api-gate.ts";
import { CachedPages } from "./cached-pages.ts";
import { canonicalUrl } from "./canonical-url.ts";
import { compressionThreadLogger } from "./compression-thread.ts";
import { createFastPages } from "./fast-pages.ts";
import { createHomePage, HOME_ADDRESS } from "./home-page.ts";
import { identityClock } from "./identity.ts";
import { letterCaseRedirect } from "./letter-case.ts";
import { type Logger, logRequest } from "./logger.ts";
import { originPolicy } from "./origin.ts";
import type { RenderedPage } from "./page-cache.ts";
import { errorHandler, RETRY_AFTER_SECONDS, sendPlain } from "./pages.ts";
import { createPostPages, withPostPages } from "./post-page.ts";
import { createRenderer } from "./render.ts";
import { clientKey, REFUSAL_DELAY_MS, SEARCH_REQUEST, SearchLimiter, SearchTurns } from "./search-limits.ts";
import { searchThreadRenderer } from "./search-worker.ts";
import { HSTS, SECURITY_HEADERS, securityHeaders, staticFileHeaders } from "./security.ts";
import { sendPage, sharedCacheControl } from "./send-page.ts";
import { countPage, statsBeacon } from "./stats.ts";

export interface AppOptions {
  store: ContentStore;
  /** Whether the site can serve its pages (ServedStore.health): null, or what stops it. Default: ping. */
  health?: () => Promise<string | null>;
  /** Changes whenever the content does; null while the database is unreachable (no caching). */
  contentVersion: () => string | null;
  /** What writes changed (ServedStore.changesSince, decision 057); without it any change drops every page. */
  changesSince?: (cursor: string | null) => Promise<ChangesSince>;
  /** Seconds shared caches (a CDN, Varnish) may keep a page, and serve it stale while they refresh it. */
  sharedCache?: { maxAge: number; stale: number };
  /** Render the most visited pages ahead after start (on unless turned off). */
  warmUp?: boolean;
  logger: Logger;
  /** A fresh random source for each request's gallery. */
  randomForRequest: () => RandomSource;
  /** build/client in production; null when Vite serves assets in development. */
  clientDir: string | null;
  /** PUBLIC_URL: the origin visitors use. Without it, only loopback hosts are served. */
  publicUrl?: string;
  /** Bound concurrent searches (SEARCH_LIMITS); on unless turned off. */
  searchLimits?: boolean;
  /** API requests per client per minute (API_RATE_LIMIT, api-gate.ts); 0: no limit. */
  apiRateLimit?: number;
  /** Keep rendered pages in memory (PAGE_CACHE); on unless turned off. */
  pageCache?: boolean;
  /** Make post pages from their language's frame (POST_PAGES, post-page.ts); on unless turned off. */
  postPages?: boolean;
  /** The server build, loaded once at start (production); Vite loads it per request in development. */
  build?: ServerBuild;
  /** Trust X-Forwarded-* headers (TRUST_PROXY), e.g. "loopback" or a hop count. */
  trustProxy?: string;
  /** Where share images and resized images are kept (SHARE_IMAGE_DIR, IMAGE_VARIANT_DIR); audio: AUDIO_DIR. */
  fileCaches?: { shareImages: string; imageVariants: string; audio?: string; syncedImages?: string };
  vite?: ViteDevServer;
  /** The push endpoints (server/push/endpoints.ts, decision 060), mounted beside the beacon. */
  push?: express.Router;
}

/** A search with text (search-limits.ts), on a path already in the site's letter case. */
const SEARCH_WITH_TEXT = new RegExp(SEARCH_REQUEST.source);
/** The home's addresses (canonical): English, Hindi, Marathi (decision 067). */
const SLASH = 0x2f;
const ABSOLUTE_FORM = /^https?:\/\/([^/?#@\s]+)([/?][^#]*)?$/i;

/**
 * An absolute-form request target (`GET http://host/path HTTP/1.1`, RFC 9112
 * §3.2.2) is served as its path would be: the target's authority is the
 * request's Host (the origin rules of origin.ts apply to it, and a Host
 * header beside it is ignored, as the RFC says), its path and query the URL
 * both paths see. Anything else (`*`, a malformed target) is left as it came.
 */
function toOriginForm(req: IncomingMessage): void {
  const match = ABSOLUTE_FORM.exec(req.url ?? "");
  if (!match) return;
  const rest = match[2] ?? "/";
  req.headers.host = match[1];
  req.url = rest.startsWith("?") ? `/${rest}` : rest;
}

export interface App {
  /** The server's request listener. */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** From now on, answers say Connection: close and /healthz says 503. */
  markStopping: () => void;
  /** Drops every cached page and home template (the site's identity reloaded, say). */
  clearCaches: () => void;
}

export function createApp({
  store,
  health = async () => ((await store.ping()) ? null : "the database is unavailable"),
  contentVersion,
  changesSince,
  sharedCache = { maxAge: 3600, stale: 60 },
  warmUp = true,
  logger,
  randomForRequest,
  clientDir,
  publicUrl,
  searchLimits = true,
  apiRateLimit = DEFAULT_API_RATE_LIMIT,
  pageCache = true,
  postPages: makePostPages = true,
  trustProxy,
  build,
  fileCaches,
  vite,
  push,
}: AppOptions): App {
  let stopping = false;
  // A cached page is fresh for one day of the site (language homes show the
  // quote of the day, every page the year), and until a write changes what it
  // shows. The day is the running identity's (its time zone), and a reloaded
  // identity (SITE_CONFIG on SIGHUP, server/identity.ts) drops every page.
  const today = identityClock();
  let identity = currentSiteVersion();
  const cacheControl = sharedCacheControl({
    ...sharedCache,
    secondsToMidnight: () => secondsToSiteMidnight(currentSite().timeZone),
  });
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  if (trustProxy) app.set("trust proxy", /^\d+$/.test(trustProxy) ? Number(trustProxy) : trustProxy);
  const originOf = originPolicy(publicUrl);
  const fullRender = createRenderer({ store, randomForRequest, build, fileCaches, logger, vite });
  // Post pages are made without React once their language's frame is cut (post-page.ts, decision 097).
  const postPages =
    makePostPages && build && !vite
      ? createPostPages({ build, render: fullRender, today, store, randomForRequest, fileCaches, logger })
      : null;
  const render = postPages ? withPostPages(fullRender, postPages) : fullRender;
  const limiter = searchLimits ? new SearchLimiter() : null;
  // Searches admitted by the limiter render in a thread of their own (search-worker.ts).
  const renderSearch = limiter && build && !vite ? searchThreadRenderer({ logger }) : render;
  compressionThreadLogger(logger);
  let cached: CachedPages | null = null;
  const homePage =
    pageCache && !vite
      ? createHomePage({ store, render, randomForRequest, removals: () => cached?.removals ?? 0 })
      : null;
  cached = new CachedPages({
    contentVersion,
    changesSince,
    today,
    render,
    renderSearch,
    homePage,
    store,
    logger,
  });
  const caches = cached;
  // Rendered ahead once the site's origin is known: PUBLIC_URL's, else the first visitor's (loopback).
  let warmed = false;
  const warmUpFor = (origin: string) => {
    if (warmed || !warmUp || !pageCache || vite || !build) return;
    warmed = true;
    setImmediate(() => void caches.warmUp(origin));
  };
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  if (publicOrigin) warmUpFor(publicOrigin);
  // Searches and their refusals one per turn of the event loop, after the pages (search-limits.ts).
  const turns = limiter ? new SearchTurns() : null;
  const httpsSite = publicUrl?.startsWith("https:") ?? false;
  // Behind a trusted proxy whether a request came over https is Express's to
  // say (X-Forwarded-Proto), so only an https site takes the fast path there.
  const serveFromCache =
    (pageCache || postPages) && (!trustProxy || httpsSite)
      ? createFastPages({
          cached: pageCache ? caches : null,
          sharedCacheControl: cacheControl,
          originOf,
          baseHeaders: [...Object.entries(SECURITY_HEADERS).flat(), ...(httpsSite ? HSTS : [])],
          logger,
          stopping: () => stopping,
          home: homePage ? { page: homePage, today, slow: (req, res) => app(req, res) } : null,
          posts: postPages ? { pages: postPages, slow: (req, res) => app(req, res) } : null,
        })
      : () => false;

  app.use((req, res, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    res.locals.requestId = requestId;
    res.set("X-Request-Id", requestId);
    res.on("finish", () => {
      logRequest(logger, {
        method: req.method,
        path: req.originalUrl,
        status: res.statusCode,
        started,
        requestId,
      });
    });
    next();
  });
  app.use(securityHeaders(publicUrl));
  // The site's recordings (AUDIO_DIR, decision 052), before compression: byte
  // ranges (206) for seeking, cached a day and revalidated by ETag after.
  if (fileCaches?.audio) {
    app.use(
      "/audio",
      express.static(fileCaches.audio, {
        maxAge: "1d",
        index: false,
        redirect: false,
        dotfiles: "ignore",
        fallthrough: false,
      }),
      (
        error: { status?: number },
        _req: express.Request,
        res: express.Response,
        next: express.NextFunction,
      ) => {
        // A range past the end: 416 with the Content-Range send set; no such file: the site's 404 page.
        if (error.status === 416) res.status(416).type("text/plain").send("Range Not Satisfiable\n");
        else if (error.status === 404) next();
        else next(error);
      },
    );
  }
  app.use((_req, res, next) => {
    // While shutting down, tell keep-alive clients not to send more on this socket.
    if (stopping) res.set("Connection", "close");
    next();
  });
  app.use(compression());

  if (vite) {
    app.use(vite.middlewares);
  } else if (clientDir) {
    // Hashed file names: cache for a year, never revalidate.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
        setHeaders: staticFileHeaders,
      }),
    );
    // The service worker (decision 049): asked afresh on every update check,
    // by its ETag; scope / is its own folder's, so no Service-Worker-Allowed.
    const worker = path.join(clientDir, "sw.js");
    if (existsSync(worker)) {
      const source = readFileSync(worker);
      const etag = `"${createHash("sha256").update(source).digest("base64url").slice(0, 22)}"`;
      app.get("/sw.js", (_req, res) => {
        res
          .set({ "Cache-Control": "no-cache", ETag: etag })
          .type("text/javascript; charset=utf-8")
          .send(source);
      });
    }
    // Featured images `sukti sync` downloaded (SYNCED_IMAGE_DIR, decision 053); a missing one is the 404 page.
    if (fileCaches?.syncedImages) {
      app.use(
        "/images/synced",
        express.static(fileCaches.syncedImages, {
          maxAge: "1d",
          index: false,
          redirect: false,
          dotfiles: "ignore",
          setHeaders: staticFileHeaders,
        }),
      );
    }
    // public/ files: only paths that name one reach the disk, so pages skip a stat.
    const publicFiles = express.static(clientDir, {
      maxAge: "1h",
      index: false,
      setHeaders: staticFileHeaders,
    });
    const topLevel = new Set(readdirSync(clientDir));
    app.use((req, res, next) => {
      const first = req.path.split("/")[1] ?? "";
      if (topLevel.has(first) && first !== "assets") publicFiles(req, res, next);
      else next();
    });
  }

  // Answers whatever the Host: load balancers probe by address. Down while
  // shutting down, or while the database cannot serve the pages (a table
  // that cannot be read, a corrupt file), so a load balancer stops sending
  // traffic here. Why goes to the log, once per change, never in the answer.
  let unhealthy: string | null = null;
  app.get("/healthz", async (_req, res) => {
    const problem = stopping ? "stopping" : await health();
    if (problem !== unhealthy) {
      if (problem !== null && problem !== "stopping") logger.warn("unhealthy", { reason: problem });
      else if (problem === null) logger.info("healthy again");
      unhealthy = problem;
    }
    res.status(problem === null ? 200 : 503).set("Cache-Control", "no-store");
    if (problem !== null) res.set("Retry-After", RETRY_AFTER_SECONDS);
    res.json({ ok: problem === null });
  });

  // The one write of the public site: copy and share clicks (stats.ts, decision 056).
  app.all("/stats/beacon", statsBeacon);
  // The daily quote's subscriptions and VAPID key (server/push/endpoints.ts, decision 060).
  if (push) app.use(push);

  // The public read API (decision 062): preflight, 405 and the per-client limit, in JSON.
  app.use("/api", apiGate({ perMinute: apiRateLimit }));

  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    res.status(405).set("Allow", "GET, HEAD").type("text/plain").send("Method Not Allowed\n");
  });

  // /ENGLISH/HOME, /tag/Faith: the same page under its one address.
  app.use((req, res, next) => {
    const at = req.originalUrl.indexOf("?");
    const target = letterCaseRedirect(req.path, at === -1 ? "" : req.originalUrl.slice(at));
    if (target === null) return next();
    res.redirect(301, target);
  });

  // A search address with a line break in it (pasted into the address bar)
  // matches no route: React Router's patterns stop at line ends. It gets the
  // same search, its line breaks made spaces, as the search form does.
  app.get(/^\/search\/.*%0[AD]/i, (req, res, next) => {
    const decoded = searchTextFromPath(req.path);
    const { text } = capSearchText(cleanSearchText(decoded ?? ""));
    if (decoded === null || text === "") return next();
    // With its filter on results, if any (decision 065).
    res.redirect(
      302,
      searchPageHref(searchPath(text), resultsLanguageOf(new URL(req.originalUrl, "http://x"))),
    );
  });

  app.use(async (req, res, next) => {
    const requestId = res.locals.requestId as string;
    // req.protocol reads X-Forwarded-Proto only under TRUST_PROXY.
    const origin = originOf(req.headers.host, req.protocol === "https");
    if (origin === null) {
      sendPlain(res, 421, "Unknown site", "This server does not serve a site at this address.");
      return;
    }
    let release: (() => void) | undefined;
    try {
      if (!(await store.ping())) {
        sendPlain(
          res,
          503,
          "Back in a moment",
          "The site's content is unavailable just now. Please try again shortly.",
          { "Retry-After": RETRY_AFTER_SECONDS },
        );
        return;
      }
      const target = canonicalUrl(req.originalUrl);
      if (limiter && SEARCH_WITH_TEXT.test(req.path)) {
        const admission = await limiter.admit(clientKey(req.ip));
        if (!admission.ok) {
          const busy = admission.status === 503;
          // Answered after a pause: a client that ignores Retry-After and asks
          // again at once is slowed to a request a second per connection,
          // instead of spending the CPU the other pages need on refusals.
          setTimeout(
            () =>
              turns?.run(() => {
                if (res.destroyed) return;
                sendPlain(
                  res,
                  admission.status,
                  busy ? "Search is busy" : "One search at a time",
                  busy
                    ? "Many people are searching just now. Please try again in a moment."
                    : "Your earlier searches are still running. Please wait for them, then try again.",
                  { "Retry-After": String(admission.retryAfterSeconds) },
                );
              }),
            REFUSAL_DELAY_MS,
          );
          return;
        }
        // Released when its render is over (finally below), even if the visitor left.
        release = admission.release;
      }
      warmUpFor(origin);
      // The caches first take in what writes changed since (removals before anything is served).
      const fresh = pageCache && (caches.ready() || (await caches.settle()));
      const cacheable = fresh && target.cacheable;
      const hit = cacheable ? caches.lookup(origin, target) : null;
      let page: RenderedPage | null = hit?.page ?? null;
      let kept = false;
      // The home in each language (/, /?lang=hi, /?lang=mr: decision 067) has a template of its own.
      if (!page && homePage && fresh && HOME_ADDRESS.test(target.url)) {
        page = await homePage(req, { origin, day: today(), requestId, url: target.url });
      }
      if (!page) {
        const controller = new AbortController();
        // Only a visitor gone while the page renders aborts it (an abort makes a DOMException: ~30 µs).
        const leave = () => controller.abort();
        res.once("close", leave);
        const renderPage = release ? renderSearch : render;
        const started = caches.snapshot();
        caches.activeRenders++;
        try {
          ({ page } = await renderPage(req, {
            url: target.url,
            origin,
            requestId,
            signal: controller.signal,
          }));
        } finally {
          caches.activeRenders--;
          res.off("close", leave);
        }
        kept = cacheable && caches.keep(origin, target, page, started);
      }
      sendPage(req, res, page, {
        requestId,
        cache: hit ? (hit.stale ? "STALE" : "HIT") : "MISS",
        sharedCacheControl: cacheControl,
        baseHeaders: [],
        closing: stopping,
        effort: kept || hit ? "once" : "each",
      });
      countPage(req, page);
    } catch (error) {
      next(error);
    } finally {
      release?.();
    }
  });

  app.use(errorHandler(logger));
  return {
    listener: (req, res) => {
      // A reloaded identity (SIGHUP) renders every page again: one string compare a request.
      if (identity !== currentSiteVersion()) {
        identity = currentSiteVersion();
        caches.clear();
        postPages?.clear();
      }
      // Origin-form ("/path") is every browser's; anything else costs this one test.
      if (req.url?.charCodeAt(0) !== SLASH) toOriginForm(req);
      if (serveFromCache(req, res)) return;
      if (turns && SEARCH_REQUEST.test(req.url ?? "")) turns.run(() => app(req, res));
      else app(req, res);
    },
    markStopping: () => {
      stopping = true;
    },
    clearCaches: () => {
      caches.clear();
      postPages?.clear();
    },
  };
}

/** Seconds until the next midnight in the site's time zone (when the quote of the day changes). */
function secondsToSiteMidnight(timeZone: string, now = new Date()): number {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return 86_400 - (part("hour") * 3600 + part("minute") * 60 + part("second"));
}
