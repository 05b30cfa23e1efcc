// The address a page is rendered and cached under. A visitor's query string
// and percent-encoding must not mint new pages: only the parameters a route
// reads survive (?page= on paginated lists, ?q= on the search form,
// ?language= on searches when it names a language, ?download on share images,
// ?lang=hi|mr on pages of no language of their own, decision 067), and each
// path segment is written one way.
// Anything else (utm_source, fbclid, ?page= on a post) is ignored.
// React Router's own requests keep theirs: /__manifest passes through, and a
// page's data (/x.data) keeps ?_routes= and ?index, cached only without them.

import { isLanguageLessPath, keptLanguageParam, LANG_PARAM } from "#app/content/address-language.ts";

const PAGINATED = /^\/(?:(?:english|hindi|marathi)\/home|(?:tag|category|people)\/[^/]+|search\/.+)\/?$/;
/** oEmbed answers: one per address and size asked about, so they share the searches' cache too. */
const OEMBED = /^\/oembed\/?$/;
const KEPT: [RegExp, ...string[]][] = [
  [PAGINATED, "page"],
  [/^\/search\/?$/, "q"],
  [/^\/share\//, "download"],
  // oEmbed (decision 063): the address asked about, the format and the size, in this order.
  [OEMBED, "url", "format", "maxwidth", "maxheight"],
  [/^\/api\/v1\/(?:today|random)\/?$/i, "language"],
];

const SEARCH = /^\/search(?:\/|$)/;
/** A search's filter on results (decision 065): one language, or none (all), never another value. */
const RESULTS_LANGUAGE = /^(?:english|hindi|marathi)$/;
/** Shared collections (/c/…): as many as there are lists, so they share the searches' cache. */
const COLLECTION = /^\/c\//;

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
  const params = new URLSearchParams(at === -1 ? "" : originalUrl.slice(at + 1));
  const data = path.endsWith(".data");
  const page = data ? path.slice(0, -".data".length) : path;
  const kept = new URLSearchParams();
  const resultsLanguage = SEARCH.test(page) ? params.get("language") : null;
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
    search: SEARCH.test(page) || COLLECTION.test(page) || OEMBED.test(page),
  };
}

/** Each segment decoded and encoded again (NFC), so /english/%66oo and /english/foo are one page. */
function canonicalPath(path: string): string | null {
  try {
    return path
      .split("/")
      .map((segment) => encodeURIComponent(decodeURIComponent(segment).normalize("NFC")))
      .join("/");
  } catch {
    return null; // Broken percent-encoding: rendered as it came (the routes answer 400 or 404), never cached.
  }
}
