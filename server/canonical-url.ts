// The address a page is rendered and cached under. A visitor's query string
// and percent-encoding must not mint new pages: only the parameters a route
// keeps survive (its `keeps` in app/route-table.ts: ?page= on paginated
// lists, ?q= on the search form, ?download on share images, oEmbed's …;
// ?language= on searches when it names a language, ?lang=hi|mr on pages of
// no language of their own, decision 067), and each path segment is written
// one way. Anything else (utm_source, fbclid, ?page= on a post) is ignored.
// React Router's own requests keep theirs: /__manifest passes through, and a
// page's data (/x.data) keeps ?_routes= and ?index, cached only without them.

import { keptLanguageParam, LANG_PARAM } from "#app/content/address-language.ts";
import { byFirstSegment, ROUTES, routePattern } from "#app/route-table.ts";

/** Each route's rules, in the table's order: the first whose addresses match applies. */
const KEPT: [RegExp, ...string[]][] = ROUTES.flatMap((route) =>
  (route.keeps ?? []).map((rule): [RegExp, ...string[]] => [
    routePattern(rule.at ?? route.path, rule.anyCase ? "i" : ""),
    ...rule.names,
  ]),
);

/** The routes kept in the search cache: searches, shared collections (as many as there are lists), oEmbed answers. */
const SEARCH_CACHE = ROUTES.filter((route) => route.searchCache).map((route) => routePattern(route.path));
/** Searches: their ?language= filter on results is kept (decision 065). */
const SEARCHES = ROUTES.filter((route) => route.gate === "search").map((route) => routePattern(route.path));
/** A search's filter on results (decision 065): one language, or none (all), never another value. */
const RESULTS_LANGUAGE = /^(?:english|hindi|marathi)$/;

/**
 * Paths whose pages have a language of their own (the language routes, saved
 * quotes and collections) or are no page (files, feeds, images, the API):
 * ?lang= means nothing there and is dropped from their address. The routes'
 * first segments (their `language` in the table), React Router's manifest,
 * and file names by their extension (public/ files too).
 */
const OWN_LANGUAGE = new RegExp(
  `^/(?:${[...byFirstSegment((route) => route.language)]
    .filter(([, language]) => language === "own")
    .map(([first]) => first)
    .concat("__manifest")
    .join("|")})(?:/|$)|\\.(?:xml|txt|webmanifest|json|js|css|ico|png|svg|webp|jpe?g|woff2?|mp3|ogg)$`,
);

/** Whether a path (without `.data`) is a page of no language, shown in the language its address names. */
function isLanguageLessPath(path: string): boolean {
  return !OWN_LANGUAGE.test(path);
}

export interface CanonicalUrl {
  /** Path and query to render. */
  url: string;
  /** Whether the page may be kept in the page cache under `url`. */
  cacheable: boolean;
  /** A search page or a shared collection: kept in a cache of its own, so a run of them cannot push pages out. */
  search: boolean;
}

export function canonicalUrl(originalUrl: string): CanonicalUrl {
  const at = originalUrl.indexOf("?");
  const rawPath = at === -1 ? originalUrl : originalUrl.slice(0, at);
  const path = canonicalPath(rawPath);
  if (path === null || path === "/__manifest") return { url: originalUrl, cacheable: false, search: false };
  const data = path.endsWith(".data");
  const page = data ? path.slice(0, -".data".length) : path;
  // No query: nothing to keep (the common case, and the cached-page path's: no parameters parsed).
  if (at === -1)
    return { url: path, cacheable: true, search: SEARCH_CACHE.some((pattern) => pattern.test(page)) };
  const params = new URLSearchParams(originalUrl.slice(at + 1));
  const kept = new URLSearchParams();
  const resultsLanguage = SEARCHES.some((pattern) => pattern.test(page)) ? params.get("language") : null;
  if (resultsLanguage !== null && RESULTS_LANGUAGE.test(resultsLanguage))
    kept.set("language", resultsLanguage);
  for (const [pattern, ...names] of KEPT) {
    if (!pattern.test(page)) continue;
    for (const name of names) {
      const value = params.get(name);
      // Page 1 is the bare address.
      if (value !== null && !(name === "page" && value === "1")) kept.set(name, value);
    }
    break;
  }
  // The language a language-less page is shown in (decision 067): English is the bare address.
  const language = isLanguageLessPath(page) ? keptLanguageParam(params.get(LANG_PARAM)) : null;
  if (language !== null) kept.set(LANG_PARAM, language);
  let internal = false;
  if (data) {
    for (const name of ["_routes", "index"]) {
      const value = params.get(name);
      if (value !== null) {
        kept.set(name, value);
        internal = true;
      }
    }
  }
  const query = kept.size > 0 ? `?${kept.toString().replace(/=(?=&|$)/g, "")}` : "";
  return {
    url: `${path}${query}`,
    cacheable: !internal,
    search: SEARCH_CACHE.some((pattern) => pattern.test(page)),
  };
}

/** A path encodeURIComponent leaves as it is, segment by segment: already canonical. */
const PLAIN_PATH = /^[A-Za-z0-9\-_.!~*'()/]*$/;

/** Each segment decoded and encoded again (NFC), so /english/%66oo and /english/foo are one page. */
function canonicalPath(path: string): string | null {
  if (PLAIN_PATH.test(path)) return path;
  try {
    return path
      .split("/")
      .map((segment) => encodeURIComponent(decodeURIComponent(segment).normalize("NFC")))
      .join("/");
  } catch {
    return null; // Broken percent-encoding: rendered as it came (the routes answer 400 or 404), never cached.
  }
}
