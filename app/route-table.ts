// Every URL of the site, once (docs/decisions/069-one-route-table.md). Plain
// data and pure functions, no React: app/routes.ts builds React Router's route
// config from it, and the server and vite.config.ts read it too. Adding a
// route is one entry here (and its module); these derive from the table:
//   app/routes.ts            React Router's routes, ids and layout
//   server/canonical-url.ts  the query parameters an address keeps (?page= …),
//                            ?lang= on pages of no language, the search cache
//   server/letter-case.ts    which addresses answer 301 to their lower case
//   server/search-limits.ts  which requests the search limiter admits (app.ts)
//   server/fast-pages.ts     which requests bypass the fast path (the API)
//   server/security.ts       which pages other sites may frame
//   vite.config.ts           which routes' empty client chunks are expected
//   app/service-worker/sw.ts the routes it asks React Router about (offline moves)
// and app/route-table.test.ts checks each of them against the table, and that
// every module exists.
//
// Any page kept in the page cache is sent by server/fast-pages.ts straight
// from the cache, before Express; the home and the posts are also rendered a
// second way (their entries say how).

/** A rule of the query parameters an address keeps (server/canonical-url.ts). */
export interface KeptQuery {
  /** In this order; every other parameter is dropped. `page` marks a paginated list (page 1 is the bare address). */
  names: readonly string[];
  /** Only at these addresses of the route (a pattern like `path`), else at all of them. */
  at?: string;
  /** Kept whatever the address's letter case (React Router matches in any case; the API is not redirected to lower case). */
  anyCase?: true;
}

export interface RouteEntry {
  /** React Router's pattern, no leading slash; "" is the home (an index route). */
  path: string;
  /** The route module, under app/. */
  module: string;
  /** React Router's id, where one module serves several paths. */
  id?: string;
  /**
   * "page": a screen, inside the site's layout (routes/site-head.tsx).
   * "resource": a file, feed, image, JSON answer or redirect, outside it: no
   * screen, so its client chunk is empty (vite.config.ts expects that).
   * "redirect": a resource route among the pages, inside the layout, whose
   * loader only redirects to a page.
   */
  kind: "page" | "resource" | "redirect";
  /**
   * "own": its language is in the address (/hindi/…, /saved/hindi) or it has
   * none (files, feeds, images): ?lang= is dropped. "param": a page of no
   * language, shown in the language ?lang=hi|mr names, English bare (decision 067).
   * Decided by an address's first segment: every route under one first
   * segment says the same, except one ending in a file name (feed.xml),
   * which its extension decides (server/canonical-url.ts).
   */
  language: "own" | "param";
  /** The first matching rule's parameters survive; none: the query is dropped. */
  keeps?: readonly KeptQuery[];
  /**
   * Addresses differing only in letter case answer 301 (server/letter-case.ts):
   * "lower": the route name and the slug are lowered; "name": the route name
   * and a `home` slug (the slug is a post's, as its import gave it); "exact":
   * only the route name (a collection's code is case-sensitive). Absent: left
   * as it came. Decided by the first segment, like `language`.
   */
  letterCase?: "lower" | "name" | "exact";
  /** Kept in the page cache's partition for searches, so a run of them cannot push pages out (app.ts). */
  searchCache?: true;
  /**
   * "search": a request with text is admitted by the search limiter and runs
   * in turns (server/search-limits.ts). "api": the per-client limit
   * (server/api-gate.ts) counts every answer, so never from the fast path.
   */
  gate?: "search" | "api";
  /** Other sites may frame it (server/security.ts, decision 063). */
  frameable?: true;
}

const PAGE: KeptQuery = { names: ["page"] };

/** A language's feed, and its home and posts (one route). */
function languageRoutes(language: "english" | "hindi" | "marathi") {
  return {
    feed: { path: `${language}/feed.xml`, module: "routes/feed.ts", id: `routes/feed-${language}` },
    // /{language}/home is the language's home (paginated); any other slug is a post. A post's
    // page is also made without React: its language's frame, cut from one full render, with the
    // post's own pieces written in (server/post-page.ts, decision 097).
    page: {
      path: `${language}/:slug`,
      module: "routes/language.tsx",
      id: `routes/${language}`,
      keeps: [{ names: ["page"], at: `${language}/home` }],
    },
  } as const;
}
const english = languageRoutes("english");
const hindi = languageRoutes("hindi");
const marathi = languageRoutes("marathi");

/** React Router matches the first of equal rank in this order; resource routes come before the layout. */
export const ROUTES: readonly RouteEntry[] = [
  // For crawlers, feed readers and link previews (docs/decisions/030-…, 031-…).
  { path: "sitemap.xml", module: "routes/sitemap-index.ts", kind: "resource", language: "own" },
  { path: "sitemaps/:name", module: "routes/sitemap.ts", kind: "resource", language: "own" },
  { path: "robots.txt", module: "routes/robots.ts", kind: "resource", language: "own" },
  { path: "manifest.webmanifest", module: "routes/manifest.ts", kind: "resource", language: "own" },
  { ...english.feed, kind: "resource", language: "own", letterCase: "name" },
  { ...hindi.feed, kind: "resource", language: "own", letterCase: "name" },
  { ...marathi.feed, kind: "resource", language: "own", letterCase: "name" },
  {
    path: "people/:slug/feed.xml",
    module: "routes/person-feed.ts",
    kind: "resource",
    language: "own",
    letterCase: "lower",
  },
  {
    path: "share/:language/:version/:file",
    module: "routes/share-image.ts",
    kind: "resource",
    language: "own",
    keeps: [{ names: ["download"] }],
  },
  // The public read API: JSON for other sites and apps (decision 062, docs/api.md).
  ...(
    [
      ["api/v1/today", "routes/api/today.ts", ["language"]],
      ["api/v1/random", "routes/api/random.ts", ["language"]],
      ["api/v1/posts/:language/:slug", "routes/api/post.ts", []],
      ["api/v1/openapi.json", "routes/api/openapi.ts", []],
      ["api/*", "routes/api/not-found.ts", []],
    ] as const
  ).map(
    ([path, module, names]): RouteEntry => ({
      path,
      module,
      kind: "resource",
      language: "own",
      gate: "api",
      ...(names.length > 0 ? { keeps: [{ names, anyCase: true }] } : {}),
    }),
  ),
  // The site's images at narrower widths, for srcset.
  { path: "img/:width/*", module: "routes/image-variant.ts", kind: "resource", language: "own" },
  // Embeds (decision 063): a quote card other sites may frame, its 404 for any
  // other /embed/… address (the only frameable pages: server/security.ts), and oEmbed.
  {
    path: "embed/:language/:slug",
    module: "routes/embed.ts",
    kind: "resource",
    language: "own",
    frameable: true,
  },
  {
    path: "embed/*",
    module: "routes/embed.ts",
    id: "routes/embed-other",
    kind: "resource",
    language: "own",
    frameable: true,
  },
  // oEmbed answers: one per address and size asked about, so they share the searches' cache.
  {
    path: "oembed",
    module: "routes/oembed.ts",
    kind: "resource",
    language: "own",
    keeps: [{ names: ["url", "format", "maxwidth", "maxheight"] }],
    searchCache: true,
  },
  // A post without an image: its quote card in lists, light or dark (decision 064).
  {
    path: "card/:language/:version/:scheme/:width/:file",
    module: "routes/list-card.ts",
    kind: "resource",
    language: "own",
  },

  // Every page: the layout (routes/site-head.tsx) hands `meta` the public origin and adds feed and icon links.
  // `/` is rendered two ways. routes/home.tsx is the React page (client-side
  // moves, and the render the integration tests compare against); a request
  // for /, /?lang=hi or /?lang=mr is answered by server/home-page.ts instead:
  // the home rendered once as a template, into which each request splices a
  // fresh gallery written as a string by app/components/gallery-tiles.tsx, the
  // string twin of the React gallery (decision 036). A change to the home's
  // gallery is made in both; tests/integration/home-fast.test.ts compares them
  // byte for byte.
  { path: "", module: "routes/home.tsx", kind: "page", language: "param" },
  { ...english.page, kind: "page", language: "own", letterCase: "name" },
  { ...hindi.page, kind: "page", language: "own", letterCase: "name" },
  { ...marathi.page, kind: "page", language: "own", letterCase: "name" },
  // A site page's or any post's address by slug alone (decision 067).
  { path: "post/:slug", module: "routes/post.tsx", kind: "page", language: "param", letterCase: "exact" },
  { path: "tags", module: "routes/tags.tsx", kind: "page", language: "param", letterCase: "name" },
  {
    path: "tag/:slug",
    module: "routes/tag.tsx",
    kind: "page",
    language: "param",
    letterCase: "lower",
    keeps: [PAGE],
  },
  {
    path: "category/:slug",
    module: "routes/category.tsx",
    kind: "page",
    language: "param",
    letterCase: "lower",
    keeps: [PAGE],
  },
  // Who said or wrote the quotes.
  { path: "people", module: "routes/people.tsx", kind: "page", language: "param", letterCase: "lower" },
  {
    path: "people/:slug",
    module: "routes/person.tsx",
    kind: "page",
    language: "param",
    letterCase: "lower",
    keeps: [PAGE],
  },
  // Saved quotes, kept in the reader's browser, and shared collections (decision 050).
  {
    path: "saved/:language?",
    module: "routes/saved.tsx",
    kind: "page",
    language: "own",
    letterCase: "lower",
  },
  // As many collections as there are lists: they share the searches' cache.
  {
    path: "c/:code",
    module: "routes/collection.tsx",
    kind: "page",
    language: "own",
    letterCase: "exact",
    searchCache: true,
  },
  // A trimmed address (/english, /tag …) redirects to the page it was part of.
  ...(["english", "hindi", "marathi", "tag", "category"] as const).map(
    (path): RouteEntry => ({
      path,
      module: "routes/shortcut.ts",
      id: `routes/shortcut-${path}`,
      kind: "redirect",
      language: path === "tag" || path === "category" ? "param" : "own",
      letterCase: path === "tag" || path === "category" ? "lower" : "name",
    }),
  ),
  // /search?q= (the form without JavaScript) redirects to /search/{text}, a paginated list.
  {
    path: "search/*",
    module: "routes/search.tsx",
    kind: "page",
    language: "param",
    keeps: [{ names: ["q"], at: "search" }, PAGE],
    searchCache: true,
    gate: "search",
  },
  { path: "*", module: "routes/not-found.tsx", kind: "page", language: "param" },
];

/** The first segment of a pattern or a path ("" for the home). */
export function firstSegment(path: string): string {
  return path.replace(/^\//, "").split("/")[0] ?? "";
}

/**
 * A pattern's addresses as a regular expression on a path, as React Router
 * reads it: `:name` one segment, `:name?` an optional one, a final `*` any
 * rest (or none), a trailing slash allowed.
 */
export function routePattern(path: string, flags = ""): RegExp {
  let source = "";
  for (const segment of path.split("/").filter((part) => part !== "")) {
    if (segment === "*") source += "(?:/.*)?";
    else if (segment.startsWith(":")) source += segment.endsWith("?") ? "(?:/[^/]+)?" : "/[^/]+";
    else source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  }
  return new RegExp(`^${source}/?$`, flags);
}

/** Whether a pattern ends in a file name (sitemap.xml, people/:slug/feed.xml). */
export function namesFile(path: string): boolean {
  return /\.[a-z]+$/.test(path);
}

/**
 * Each first segment's value of a field the table decides by first segment
 * (letter case, language), from its routes that end in no file name.
 */
export function byFirstSegment<T>(pick: (route: RouteEntry) => T | undefined): Map<string, T> {
  const found = new Map<string, T>();
  for (const route of ROUTES) {
    const value = pick(route);
    const first = firstSegment(route.path);
    if (value !== undefined && !namesFile(route.path) && !found.has(first)) found.set(first, value);
  }
  return found;
}

/** The first segments of the routes `pick` chooses, once each, as alternatives of a regular expression (embed|oembed). */
export function firstSegmentsOf(pick: (route: RouteEntry) => boolean | undefined): string {
  return [...new Set(ROUTES.filter(pick).map((route) => firstSegment(route.path)))].join("|");
}

/** One address a pattern matches, the only route's that matches it: `:name` → x, a rest → x/y/z. */
export function exampleAddress(path: string): string {
  const segments = path
    .split("/")
    .map((segment) => (segment === "*" ? "x/y/z" : segment.startsWith(":") ? "x" : segment));
  return `/${segments.join("/")}`;
}

/** The file name of a module without its folder or extension: the name Vite gives its chunk. */
export function moduleName(module: string): string {
  return module.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
}
