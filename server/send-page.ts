// Sends a rendered (or cached) page on a bare Node response: its headers, its
// CSP, an ETag and a 304 when the browser has the same body, and the body
// compressed when the browser accepts it (each encoding made once per cached
// page). Used by the fast path (fast-pages.ts) and behind Express alike, so
// both send the same headers: a page kept in the page cache carries its cache
// tags (xkey, Surrogate-Key, Cache-Tag) and the shared-cache Cache-Control
// (decision 057), for a Varnish or a CDN in front.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  acceptedEncoding,
  acceptsEncoding,
  compress,
  type Encoding,
  MIN_COMPRESSED_BYTES,
} from "./compression.ts";
import { compressForOneResponse } from "./compression-thread.ts";
import { isKeptPage, type RenderedPage } from "./page-cache.ts";
import { frameableHeaders, withoutPolicyForRasterImage } from "./security.ts";

/**
 * The Cache-Control of a page shared caches may keep (decision 057): browsers
 * revalidate every time (max-age=0, then a 304 by ETag); a shared cache keeps
 * it `maxAge` seconds, never past the site's next midnight (the quote of the
 * day, the year in the footer), and may serve it `stale` seconds more while
 * it refreshes it. Written once a second.
 */
export function sharedCacheControl({
  maxAge,
  stale,
  secondsToMidnight,
}: {
  maxAge: number;
  stale: number;
  secondsToMidnight: () => number;
}): () => string {
  let second = -1;
  let value = "";
  return () => {
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) {
      second = now;
      const sMaxAge = Math.max(0, Math.min(maxAge, secondsToMidnight()));
      // must-revalidate keeps browsers from the stale-while-revalidate meant for shared caches
      // (Chromium serves a page that stale while it asks, an unpublished post included).
      value = `public, max-age=0, must-revalidate, s-maxage=${sMaxAge}, stale-while-revalidate=${stale}`;
    }
    return value;
  };
}

/** The Cache-Control of a page served stale while its fresh render runs (decision 057). */
const STALE_CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=1";

/** A kept page's tag headers, made once per page: space-separated (xkey, Surrogate-Key), comma-separated (Cache-Tag). */
const tagHeaders = new WeakMap<RenderedPage, [string, string]>();
function tagHeadersOf(page: RenderedPage, tags: string[]): [string, string] {
  let made = tagHeaders.get(page);
  if (!made) {
    made = [tags.join(" "), tags.join(",")];
    tagHeaders.set(page, made);
  }
  return made;
}

export interface SendOptions {
  requestId: string;
  /** X-Cache: from the page cache (HIT), served while its fresh render runs (STALE), or rendered now (MISS). */
  cache: "HIT" | "MISS" | "STALE";
  /** The Cache-Control of pages shared caches may keep (sharedCacheControl). */
  sharedCacheControl: () => string;
  /** Headers every response carries (security headers), as name, value, name, value… */
  baseHeaders: readonly string[];
  /** While shutting down: tell keep-alive clients not to send more on this socket. */
  closing: boolean;
  /** Compress once and keep (a cached page), or for this response only. */
  effort: "once" | "each";
}

/**
 * Sends `page` (or a 304) and returns the status sent; a page sent once may
 * still be compressing in its thread (compression-thread.ts) when this returns.
 */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: RenderedPage,
  options: SendOptions,
): number {
  const headers: string[] = [
    // An embed page may be framed (decision 063): no X-Frame-Options.
    ...(page.frameable ? frameableHeaders(options.baseHeaders, res) : options.baseHeaders),
    "X-Request-Id",
    options.requestId,
    "X-Cache",
    options.cache,
  ];
  let cacheControl = "";
  const shared = page.tags !== null && isKeptPage(page);
  if (shared && page.tags) {
    // What the page shows, for a purge by tag in the cache in front.
    const [spaced, commas] = tagHeadersOf(page, page.tags);
    // A stale page (its fresh render under way) is kept by a shared cache for a second only:
    // a purge that came before it must not leave it there for s-maxage.
    cacheControl = options.cache === "STALE" ? STALE_CACHE_CONTROL : options.sharedCacheControl();
    headers.push("Cache-Control", cacheControl, "xkey", spaced, "Surrogate-Key", spaced, "Cache-Tag", commas);
  }
  for (const [name, value] of page.headers) {
    if (name === "cache-control") {
      if (shared) continue;
      cacheControl = value;
    }
    headers.push(name, value);
  }
  if (page.csp) headers.push("Content-Security-Policy", page.csp);
  else withoutPolicyForRasterImage(res, page.headers.find(([name]) => name === "content-type")?.[1]);
  if (!cacheControl) {
    cacheControl = page.status === 200 ? "public, max-age=0, must-revalidate" : "no-cache";
    headers.push("Cache-Control", cacheControl);
  }
  if (options.closing) headers.push("Connection", "close");
  const compressible = page.size >= MIN_COMPRESSED_BYTES;
  if (compressible) headers.push("Vary", "Accept-Encoding");
  if (page.status === 200 && !cacheControl.includes("no-store")) {
    headers.push("ETag", page.etag);
    const known = req.headers["if-none-match"];
    if (known && (known === page.etag || known.split(/\s*,\s*/).includes(page.etag))) {
      res.writeHead(304, headers);
      res.end();
      return 304;
    }
  }
  const accepts = req.headers["accept-encoding"];
  const best = compressible ? acceptedEncoding(accepts) : null;
  // A page sent once that comes already in gzip (the home's, made from parts: spliced-gzip.ts) is
  // sent so to a browser that takes gzip, rather than compressed again in brotli for this response.
  const gzipped = options.effort === "each" && page.encoded.gzip && acceptsEncoding(accepts, "gzip");
  const encoding = best && !page.encoded[best] && gzipped ? "gzip" : best;
  const status = page.status;
  const ready = encoding ? page.encoded[encoding] : undefined;
  if (!encoding) sendBody(res, status, headers, page.body, null);
  else if (ready) sendBody(res, status, headers, ready, encoding);
  else {
    // A post page made from its frame makes its gzip from the frame's (spliced-gzip.ts).
    const made = encoding === "gzip" ? page.gzip : undefined;
    if (options.effort === "once") {
      // A kept page's plain body is made again from its brotli copy (page-cache.ts): read only when needed.
      const kept = made ? made() : compress(page.body, encoding);
      page.encoded[encoding] = kept;
      sendBody(res, status, headers, kept, encoding);
    } else if (made) {
      sendBody(res, status, headers, made(), encoding);
    } else {
      compressForOneResponse(page.body, encoding, (compressed) => {
        // Compressing failed (it does not, short of memory): the page goes as it is.
        if (compressed) sendBody(res, status, headers, compressed, encoding);
        else sendBody(res, status, headers, page.body, null);
      });
    }
  }
  return status;
}

/** The response's head and body, unless the visitor has gone (while its body was compressed). */
function sendBody(
  res: ServerResponse,
  status: number,
  headers: string[],
  body: Buffer,
  encoding: Encoding | null,
) {
  if (res.destroyed) return;
  if (encoding) headers.push("Content-Encoding", encoding);
  headers.push("Content-Length", String(body.length));
  res.writeHead(status, headers);
  res.end(body);
}
