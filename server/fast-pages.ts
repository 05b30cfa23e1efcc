// The fast path: a page already in the page cache (or the search cache) for
// the current content version is sent straight from Node's request, before
// Express: no middleware chain, no database, no React; its bytes, headers and
// compressed copies were made when it was rendered. Anything else (a miss,
// a static file, /healthz, a refusal) returns false and goes to Express
// (app.ts), which applies the same policies on the long path.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { canonicalUrl } from "./canonical-url.ts";
import { type Logger, logRequest } from "./logger.ts";
import type { OriginOf } from "./origin.ts";
import type { PageCache } from "./page-cache.ts";
import { sendPage } from "./send-page.ts";
import { countPage } from "./stats.ts";

export interface FastPagesOptions {
  pages: PageCache;
  searches: PageCache;
  /** The content version and day the cached pages must have been made at (app.ts). */
  pageVersion: () => string | null;
  originOf: OriginOf;
  /** Security headers every response carries (HSTS included when the site is https). */
  baseHeaders: readonly string[];
  logger: Logger;
  stopping: () => boolean;
}

/** A line break in a search address is redirected by Express (app.ts). */
const ENCODED_LINE_BREAK = /%0[AD]/i;

export function createFastPages({
  pages,
  searches,
  pageVersion,
  originOf,
  baseHeaders,
  logger,
  stopping,
}: FastPagesOptions) {
  return function serveFromCache(req: IncomingMessage, res: ServerResponse): boolean {
    const started = performance.now();
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const url = req.url ?? "/";
    if (url.startsWith("/assets/") || url === "/healthz") return false;
    const origin = originOf(req.headers.host, false);
    if (origin === null) return false;
    const version = pageVersion();
    if (version === null) return false;
    const target = canonicalUrl(url);
    if (!target.cacheable || (target.search && ENCODED_LINE_BREAK.test(url))) return false;
    const page = (target.search ? searches : pages).get(`${origin}${target.url}`, version);
    if (!page) return false;
    const requestId = randomUUID();
    sendPage(req, res, page, {
      requestId,
      cache: "HIT",
      baseHeaders,
      closing: stopping(),
      effort: "once",
    });
    logRequest(logger, { method: req.method, path: url, status: res.statusCode, started, requestId });
    countPage(req, page);
    return true;
  };
}
