// The service worker (/sw.js, scope /): pages and React Router's data come
// from the network while it answers; what the reader read is kept, with the
// hashed scripts and stylesheets it needs, in one cache per build; offline,
// a kept page opens, anything else gets the offline page in its language.
// Built by vite.config.ts (serviceWorker plugin) into build/client/sw.js,
// served by server/app.ts. Decision 049.
import { dayNumber } from "#app/content/daily.ts";
import { exampleAddress, ROUTES as ROUTE_TABLE } from "#app/route-table.ts";
import {
  assetsOf,
  dailyLinksOf,
  identityOf,
  type KeptQuote,
  languageOfPath,
  OFFLINE_STYLE,
  offlinePage,
  titleOf,
} from "./offline-page.ts";
import { listenForPushes, type PushScope } from "./push.ts";

declare const __BUILD_ID__: string;

// The worker's own types (the project compiles against the DOM library, not WebWorker's).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}
interface MessageFromPage extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: MessageFromPage) => void): void;
}
const worker = self as unknown as WorkerScope;

const PREFIX = "sukti-";
// Written out whole so the built file names its cache plainly ("sukti-<build id>").
const CACHE = `sukti-${__BUILD_ID__}`;
/** What the cache holds, as a JSON entry of its own: pages (newest first) and images. */
const META = "/__sw/meta.json";
/** React Router's route patches for every route, per client build (see routeManifest). */
const ROUTES = "/__sw/routes/";
const MAX_POSTS = 60;
const MAX_OTHER_PAGES = 30;
const MAX_IMAGES = 300;
const HOMES = ["/", "/english/home", "/hindi/home", "/marathi/home"];
/** Kept whatever else is read. */
const PINNED = new Set(["/", "/english/home", "/hindi/home", "/marathi/home", "/saved"]);
/** The server's answers for a page that is no more. */
const GONE = new Set([404, 410]);
const POST = /^\/(?:english|hindi|marathi)\/(?!home$)[^/]+$/;
/** Pages not worth keeping: a search is asked afresh. */
const NOT_KEPT = /^\/(?:search\/|healthz$|__)/;
/**
 * One address per route with a screen (app/route-table.ts; the catch-all's
 * matches only it): asked of /__manifest once per client build, so offline
 * every client-side move finds its route and then asks for its data, which
 * the worker answers from the cache or with a move to the document.
 */
const EVERY_ROUTE = ROUTE_TABLE.filter((route) => route.kind === "page").map((route) =>
  exampleAddress(route.path),
);

interface Page {
  /** Path and query. */
  url: string;
  title: string;
  language: KeptQuote["language"];
  post: boolean;
  /** The hashed scripts and stylesheets it references, kept in the same cache. */
  assets: string[];
  /** Its React Router data (the .data address a client-side move asked for), when kept. */
  data?: string;
  at: number;
}
interface Meta {
  pages: Page[];
  images: string[];
  /** The reader's saved quotes (post paths, from the page's "saved-quotes" message): never dropped. */
  saved?: string[];
  /** The site day (daily.ts) the homes and their quotes of the day were last kept. */
  day?: number;
  /** The site's name and time zone, as the last page kept said them (SITE_CONFIG, decision 055). */
  site?: Site;
}
type Site = { name: string; timeZone: string };

/** The site as the pages say it; the build holds no identity (until a page is kept: no name, UTC). */
let site: Site | null = null;
async function knownSite(): Promise<Site> {
  site ??= (await readMeta(await caches.open(CACHE))).site ?? { name: "", timeZone: "UTC" };
  return site;
}

// --- lifecycle ---------------------------------------------------------------

worker.addEventListener("install", (event) => {
  event.waitUntil(worker.skipWaiting());
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      await adoptOlderCaches();
      await worker.clients.claim();
    })(),
  );
});

/**
 * A new build takes over: each page an older build's cache kept moves into
 * this build's cache with the assets it references (hashed, so they are the
 * old build's, exactly what that page needs), then the older caches go. A
 * page is fetched afresh the next time it is opened online.
 */
async function adoptOlderCaches(): Promise<void> {
  const names = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  if (names.length === 0) return;
  const cache = await caches.open(CACHE);
  await serial(async () => {
    const meta = await readMeta(cache);
    for (const name of names) {
      const old = await caches.open(name);
      const oldMeta = await readMeta(old);
      for (const page of oldMeta.pages) {
        if (meta.pages.some((kept) => kept.url === page.url)) continue;
        const copied = await copyEntries(old, cache, [
          page.url,
          ...page.assets,
          ...(page.data ? [page.data] : []),
        ]);
        if (copied) meta.pages.push(page);
      }
      for (const image of oldMeta.images) {
        if (!meta.images.includes(image) && (await copyEntries(old, cache, [image]))) meta.images.push(image);
      }
      for (const request of await old.keys()) {
        if (new URL(request.url).pathname.startsWith(ROUTES)) await copyEntries(old, cache, [request.url]);
      }
    }
    meta.pages.sort((a, b) => b.at - a.at);
    await writeMeta(cache, meta);
  });
  await Promise.all(names.map((name) => caches.delete(name)));
}

/** Copies entries between caches; false when the first (the page itself) is missing. */
async function copyEntries(from: Cache, to: Cache, urls: string[]): Promise<boolean> {
  for (const [i, url] of urls.entries()) {
    const response = await from.match(url);
    if (!response) {
      if (i === 0) return false;
      continue;
    }
    await to.put(url, response);
  }
  return true;
}

// --- requests ----------------------------------------------------------------

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin || url.pathname === "/sw.js") return;
  if (request.mode === "navigate") event.respondWith(navigation(event, url));
  else if (url.pathname.startsWith("/assets/")) event.respondWith(asset(request));
  else if (url.pathname.endsWith(".data")) event.respondWith(routeData(event, url));
  else if (url.pathname === "/__manifest") event.respondWith(routeManifest(event, url));
  // /card/: the quote cards of posts without an image in lists (decision 064), immutable.
  else if (/^\/(?:images|img|icons|card)\//.test(url.pathname)) event.respondWith(image(event, request));
});

/** Network first; offline, the kept page, else the offline page in the address's language. */
async function navigation(event: FetchEvent, url: URL): Promise<Response> {
  const key = url.pathname + url.search;
  try {
    const response = await fetch(event.request);
    event.waitUntil(keepToday().catch(() => {}));
    if (keepable(response) && !NOT_KEPT.test(url.pathname)) {
      event.waitUntil(keepPage(key, response.clone()).catch(() => {}));
    } else if (GONE.has(response.status)) {
      event.waitUntil(forget(key).catch(() => {}));
    }
    return response;
  } catch {
    return (await keptPage(key)) ?? (await offline(url.pathname));
  }
}

/** Only what the server served whole and as itself: never an error page, a redirect or a 404. */
function keepable(response: Response): boolean {
  return response.status === 200 && response.type === "basic" && !response.redirected;
}

/** Hashed file names never change: the cache first. */
async function asset(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (keepable(response)) await cache.put(request, response.clone());
  return response;
}

/** Images: the cache first (a few hundred, the oldest dropped), else the network. */
async function image(event: FetchEvent, request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (keepable(response)) {
    const url = new URL(request.url);
    const key = url.pathname + url.search;
    const copy = response.clone();
    event.waitUntil(
      serial(async () => {
        await cache.put(key, copy);
        const meta = await readMeta(cache);
        meta.images = [key, ...meta.images.filter((kept) => kept !== key)];
        for (const dropped of meta.images.splice(MAX_IMAGES)) await cache.delete(dropped);
        await writeMeta(cache, meta);
      }).catch(() => {}),
    );
  }
  return response;
}

/** The page a `.data` request is for: /english/x.data → /english/x, /_root.data → /. */
function pageOfData(url: URL): string {
  const path = url.pathname.slice(0, -".data".length);
  const params = new URLSearchParams(url.search);
  params.delete("_routes");
  const query = params.toString();
  return (path === "/_root" ? "/" : path) + (query ? `?${query}` : "");
}

/**
 * React Router's data for a client-side move: the network first, and the
 * page's document is kept beside it (so its address opens offline too).
 * Offline, the kept data; else a move to the document, which this worker
 * answers with the kept page or the offline page.
 */
async function routeData(event: FetchEvent, url: URL): Promise<Response> {
  const page = pageOfData(url);
  const key = url.pathname + url.search;
  try {
    const response = await fetch(event.request);
    if (keepable(response) && !NOT_KEPT.test(page)) {
      const copy = response.clone();
      event.waitUntil(
        (async () => {
          const document = await fetch(page, { credentials: "same-origin" });
          if (!keepable(document) || !(document.headers.get("Content-Type") ?? "").includes("text/html"))
            return;
          await keepPage(page, document, { key, response: copy });
        })().catch(() => {}),
      );
    } else if (GONE.has(response.status)) {
      event.waitUntil(forget(page).catch(() => {}));
    }
    return response;
  } catch {
    const cache = await caches.open(CACHE);
    const kept = await cache.match(key);
    if (kept && (await pageComplete(cache, page))) return kept;
    return new Response(null, {
      status: 204,
      headers: { "X-Remix-Redirect": page, "X-Remix-Status": "302", "X-Remix-Reload-Document": "true" },
    });
  }
}

/**
 * Route discovery: the network first; the first time a client build asks,
 * its patches for every route are kept, and offline they answer any paths.
 */
async function routeManifest(event: FetchEvent, url: URL): Promise<Response> {
  const version = url.searchParams.get("version") ?? "";
  const key = `${ROUTES}${encodeURIComponent(version)}`;
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(event.request);
    if (keepable(response) && !(await cache.match(key))) {
      const every = new URL("/__manifest", url);
      every.searchParams.set("paths", EVERY_ROUTE.join(","));
      every.searchParams.set("version", version);
      event.waitUntil(
        fetch(every)
          .then((all) => (keepable(all) ? cache.put(key, all) : undefined))
          .catch(() => {}),
      );
    }
    return response;
  } catch {
    const kept = await cache.match(key);
    if (kept) return kept;
    return new Response(null, { status: 204, headers: { "X-Remix-Reload-Document": "true" } });
  }
}

// --- keeping -----------------------------------------------------------------

/** Meta updates one at a time (pages kept in parallel would lose each other's). */
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => {});
  return run;
}

async function readMeta(cache: Cache): Promise<Meta> {
  const response = await cache.match(META);
  const meta = response ? ((await response.json()) as Partial<Meta>) : {};
  return {
    pages: meta.pages ?? [],
    images: meta.images ?? [],
    day: meta.day,
    saved: meta.saved ?? [],
    site: meta.site,
  };
}

async function writeMeta(cache: Cache, meta: Meta): Promise<void> {
  await cache.put(
    META,
    new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }),
  );
}

/**
 * Keeps a page (a 200 HTML document) with the hashed assets it references
 * and, when given, its React Router data; drops the oldest beyond the
 * limits; on a home, keeps today's quotes of the day too.
 */
async function keepPage(
  url: string,
  response: Response,
  data?: { key: string; response: Response },
): Promise<void> {
  if (!(response.headers.get("Content-Type") ?? "").includes("text/html")) return;
  const html = await response.clone().text();
  const cache = await caches.open(CACHE);
  const assets = assetsOf(html);
  for (const asset of assets) {
    if (await cache.match(asset)) continue;
    const fetched = await fetch(asset);
    if (!keepable(fetched)) return; // a page without its assets is not kept
    await cache.put(asset, fetched);
  }
  const path = url.split("?")[0] ?? url;
  const said = identityOf(html);
  if (said) site = said;
  const page: Page = {
    url,
    title: titleOf(html, (await knownSite()).name) || url,
    language: languageOfPath(path),
    post: POST.test(path),
    assets,
    at: Date.now(),
  };
  if (data) page.data = data.key;
  await serial(async () => {
    await cache.put(url, response);
    const meta = await readMeta(cache);
    const before = meta.pages.find((kept) => kept.url === url);
    if (data) await cache.put(data.key, data.response);
    if (data && before?.data && before.data !== data.key) await cache.delete(before.data);
    else if (before?.data) page.data = before.data; // a page kept again by its address keeps its data
    const pages = [page, ...meta.pages.filter((kept) => kept.url !== url)];
    const saved = new Set(meta.saved);
    const posts = pages.filter((kept) => kept.post && !saved.has(kept.url));
    const others = pages.filter((kept) => !kept.post && !PINNED.has(kept.url));
    const dropped = [...posts.slice(MAX_POSTS), ...others.slice(MAX_OTHER_PAGES)];
    for (const gone of dropped) {
      await cache.delete(gone.url);
      if (gone.data) await cache.delete(gone.data);
    }
    meta.pages = pages.filter((kept) => !dropped.includes(kept));
    if (said) meta.site = said;
    await writeMeta(cache, meta);
  });
  if (PINNED.has(path) && path !== "/saved") {
    const kept = await readMeta(cache);
    const today = siteDay();
    for (const daily of dailyLinksOf(html)) {
      const known = kept.pages.find((p) => p.url === daily);
      if (known && siteDay(new Date(known.at)) === today) continue;
      await keep(daily);
    }
  }
}

function siteDay(date = new Date()): number {
  return dayNumber(date, site?.timeZone ?? "UTC");
}

/**
 * Once a site day, with the first page the reader opens online: the home and
 * the three language homes are kept, and with them (keepPage) today's quote
 * of the day in every language, whether or not the reader opened them.
 */
let keptDay = -1;
async function keepToday(): Promise<void> {
  await knownSite();
  const today = siteDay();
  if (keptDay === today) return;
  keptDay = today;
  const cache = await caches.open(CACHE);
  if ((await readMeta(cache)).day === today) return;
  const kept = await Promise.all(HOMES.map((home) => keep(home)));
  if (!kept.every(Boolean)) {
    keptDay = -1; // asked again with the next page
    return;
  }
  await serial(async () => {
    const meta = await readMeta(cache);
    meta.day = today;
    await writeMeta(cache, meta);
  });
}

/** A kept page the server now says is gone (unpublished, deleted) leaves the cache and the offline list. */
async function forget(url: string): Promise<void> {
  const cache = await caches.open(CACHE);
  await serial(async () => {
    const meta = await readMeta(cache);
    const gone = meta.pages.find((kept) => kept.url === url);
    if (!gone) return;
    await cache.delete(url);
    if (gone.data) await cache.delete(gone.data);
    meta.pages = meta.pages.filter((kept) => kept !== gone);
    await writeMeta(cache, meta);
  });
}

/** Fetches a page and keeps it; false when the server did not serve it (a 404, an error, offline). */
async function keep(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (GONE.has(response.status)) await forget(url);
    if (!keepable(response)) return false;
    await keepPage(url, response);
    return true;
  } catch {
    return false;
  }
}

/** Whether each asset the page references is in the cache. */
async function pageComplete(cache: Cache, url: string): Promise<boolean> {
  const page = (await readMeta(cache)).pages.find((kept) => kept.url === url);
  if (!page) return false;
  for (const asset of page.assets) if (!(await cache.match(asset))) return false;
  return true;
}

async function keptPage(url: string): Promise<Response | null> {
  const cache = await caches.open(CACHE);
  if (!(await pageComplete(cache, url))) return null;
  return (await cache.match(url)) ?? null;
}

async function offline(pathname: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const meta = await readMeta(cache);
  const quotes = meta.pages
    .filter((page) => page.post)
    .map(({ url, title, language }) => ({ url, title, language }));
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(OFFLINE_STYLE));
  const styleSource = `'sha256-${btoa(String.fromCharCode(...new Uint8Array(hash)))}'`;
  return new Response(offlinePage(languageOfPath(pathname), quotes, (await knownSite()).name), {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": `default-src 'self'; script-src 'none'; style-src ${styleSource}; img-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`,
      "X-Sukti-Offline": "1",
    },
  });
}

// --- messages from pages -----------------------------------------------------

/**
 * {type: "keep", url}: keep that page of this site (a saved quote, the page
 * just opened before the worker took over). The answer, on the message's
 * port when it has one: {type: "kept", url, ok}.
 */
/** At most this many saved quotes are kept (app/content/saved.ts keeps 500). */
const MAX_SAVED = 500;

/**
 * {type: "saved-quotes", paths, images}: the reader's saved quotes
 * (app/content/saved.ts, after every change). Each post page is kept and
 * never dropped while it is saved, with its image; a quote unsaved is
 * dropped in turn like any page read.
 */
async function keepSaved(paths: unknown, images: unknown): Promise<void> {
  const sameSite = (value: unknown, pattern: RegExp): string | null => {
    if (typeof value !== "string") return null;
    try {
      const url = new URL(value, worker.location.origin);
      return url.origin === worker.location.origin && pattern.test(url.pathname) ? url.pathname : null;
    } catch {
      return null;
    }
  };
  const list = (values: unknown, pattern: RegExp) =>
    (Array.isArray(values) ? values : [])
      .slice(0, MAX_SAVED)
      .map((value) => sameSite(value, pattern))
      .filter((value): value is string => value !== null);
  const saved = list(paths, POST);
  const cache = await caches.open(CACHE);
  const missing = await serial(async () => {
    const meta = await readMeta(cache);
    meta.saved = saved;
    await writeMeta(cache, meta);
    const kept = new Set(meta.pages.map((page) => page.url));
    return saved.filter((path) => !kept.has(path));
  });
  for (const path of missing) await keep(path);
  for (const image of list(images, /^\/(?:images|img|card)\//)) {
    if (await cache.match(image)) continue;
    try {
      const response = await fetch(image);
      if (keepable(response)) await cache.put(image, response);
    } catch {
      return; // offline: the next change tries again
    }
  }
}

worker.addEventListener("message", (event) => {
  const saved = event.data as { type?: unknown; paths?: unknown; images?: unknown } | null;
  if (saved?.type === "saved-quotes") {
    event.waitUntil(keepSaved(saved.paths, saved.images));
    return;
  }
  const message = event.data as { type?: unknown; url?: unknown } | null;
  if (message?.type !== "keep" || typeof message.url !== "string") return;
  let url: URL;
  try {
    url = new URL(message.url, worker.location.origin);
  } catch {
    return;
  }
  if (url.origin !== worker.location.origin || NOT_KEPT.test(url.pathname)) return;
  const path = url.pathname + url.search;
  event.waitUntil(keep(path).then((ok) => event.ports[0]?.postMessage({ type: "kept", url: path, ok })));
});

// --- the daily quote by Web Push (decision 061) -------------------------------

// A push shows the quote; its page is kept for offline reading like any page read.
listenForPushes(self as unknown as PushScope, keep);
