import { createHash } from "node:crypto";
import { brotliDecompressSync } from "node:zlib";
import { ALL_TAG } from "#app/data/cache-tags.ts";
import { compress, type Encoding, MIN_COMPRESSED_BYTES } from "./compression.ts";

/** A page as React Router rendered it, ready to send as often as asked. */
export interface RenderedPage {
  status: number;
  /** React Router's response headers (content-type, cache-control…), lower-case names. */
  headers: [string, string][];
  /** The body as rendered; a kept page holds it compressed only and makes it again when asked (heldCompressed). */
  body: Buffer;
  /** The body's length in bytes (a kept page's body is not held). */
  size: number;
  etag: string;
  /** The Content-Security-Policy for this body (its scripts' hashes); null when not HTML. */
  csp: string | null;
  /** The body compressed, made on the first request that accepts each encoding. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /**
   * Its gzip made a cheaper way than compressing the body (a post page's: its
   * frame's parts compressed once, spliced-gzip.ts), when a client that takes
   * gzip but not brotli first asks for it (a cache in front, as Varnish asks).
   * Not held by the page cache (heldCompressed): it holds the page's pieces.
   */
  gzip?: () => Buffer;
  /**
   * What the page shows, as cache tags (decision 057), `all` first; null
   * when unknown (then it is neither kept nor shared).
   */
  tags: string[] | null;
  /** An embed page (decision 063): other sites may frame it (security.ts, frameableHeaders). */
  frameable?: boolean;
}

/**
 * The page as the cache holds it: its brotli copy (made now when no visitor
 * has asked for it yet, as the first would), and its plain body made again
 * from it only when asked (a client without brotli, the stats' first look).
 * Both objects share `encoded`, so the render's own response uses the same
 * copy. A page too small to compress is held as it is.
 */
export function heldCompressed(page: RenderedPage): RenderedPage {
  if (page.size < MIN_COMPRESSED_BYTES) return page;
  page.encoded.br ??= compress(page.body, "br");
  const br = page.encoded.br;
  const { gzip: _pieces, ...held } = page;
  Object.defineProperty(held, "body", { get: () => brotliDecompressSync(br), enumerable: true });
  return held;
}

/**
 * One identity for a rendered page and the copy the cache holds of it
 * (heldCompressed): they share `encoded`. What is worked out once per page
 * (the stats' classification) is keyed by it, so the cache's first hit does
 * not make the plain body again from brotli to work it out a second time
 * (2,000 pages doing so in the first seconds of their hits were the visitor's
 * p99 there, decision 079).
 */
export function pageIdentity(page: RenderedPage): object {
  return page.encoded;
}

/** A body's ETag (the body, or its pieces in order). */
export function etagOf(body: Buffer | readonly Buffer[]): string {
  const hash = createHash("sha1");
  for (const piece of Buffer.isBuffer(body) ? [body] : body) hash.update(piece);
  return `W/"${hash.digest("base64url").slice(0, 27)}"`;
}

/** How long a changed page may be served while its one fresh render runs; past it, the next visitor waits for a render. */
export const MAX_STALE_MS = 10_000;

/** A page found in the cache: `stale` when a write changed what it shows and a fresh render should replace it. */
export interface CacheHit {
  readonly page: RenderedPage;
  readonly stale: boolean;
}

/** An entry is its own hit: a lookup allocates nothing. */
class Entry implements CacheHit {
  /** Asked for since the eviction hand last passed it: it gets a second chance. */
  used = false;

  constructor(
    readonly page: RenderedPage,
    readonly bytes: number,
    /** The site-day it was rendered on (quote of the day, the year in the footer). */
    readonly day: string,
    /** When a write changed what it shows (or its day ended); null while fresh. */
    public staleSince: number | null,
  ) {}

  get stale(): boolean {
    return this.staleSince !== null;
  }
}

/**
 * Rendered pages kept in memory, each with the tags of what it shows
 * (decision 057). A write that changed a tag marks the pages showing it stale
 * (served while one fresh render replaces them) or, for a removal, drops them;
 * a page made on an earlier site-day is stale too. Bounded by count and by
 * bytes, least recently used first out, so a crawl cannot grow the memory
 * past the server's budget. Recency is a flag (second chance, or CLOCK): a
 * hit only sets it, and the eviction hand moves a flagged page to the back
 * instead of dropping it. A hit that reordered the Map (delete, set) made
 * V8 rebuild its table every few thousand hits, ~40% of what the cached-page
 * path left for the old generation's collections (decision 079).
 * A page is held compressed only (heldCompressed:
 * a post page is ~51 kB as rendered, its CSS inline, and ~12 kB in brotli),
 * counted twice over for the gzip copy a cache in front may ask for: 48 MB
 * hold some 2,000 post pages, where 32 MB of plain bodies held ~425.
 */
export class PageCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor({ maxEntries = 3000, maxBytes = 48 * 1024 * 1024 } = {}) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  get(key: string, day: string, now = Date.now()): CacheHit | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.staleSince === null && entry.day !== day) entry.staleSince = now;
    if (entry.staleSince !== null && now - entry.staleSince > MAX_STALE_MS) {
      this.delete(key);
      return null;
    }
    entry.used = true;
    return entry;
  }

  /** Keeps the page (compressed: heldCompressed); `stale` when what it shows changed while it rendered. */
  set(key: string, day: string, page: RenderedPage, { stale = false } = {}) {
    this.delete(key);
    const held = heldCompressed(page);
    // A second encoding (gzip, for a cache in front) may come later: room for it is counted now.
    const bytes = held.encoded.br ? 2 * held.encoded.br.length : held.size;
    this.#entries.set(key, new Entry(held, bytes, day, stale ? Date.now() : null));
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.entries().next().value;
      if (oldest === undefined) break;
      const [oldestKey, entry] = oldest;
      // Each pass clears a flag or drops a page: at most one lap of the hand.
      if (entry.used) {
        entry.used = false;
        this.#entries.delete(oldestKey);
        this.#entries.set(oldestKey, entry);
      } else {
        this.delete(oldestKey);
      }
    }
  }

  /**
   * A write changed these tags: the pages showing any of them are dropped
   * (`removal`) or marked stale. `all` names every page. Returns the keys
   * marked stale (to refresh), or dropped.
   */
  invalidate(tags: ReadonlySet<string>, removal: boolean, now = Date.now()): string[] {
    const every = tags.has(ALL_TAG);
    const touched: string[] = [];
    for (const [key, entry] of this.#entries) {
      if (!every && !(entry.page.tags ?? []).some((tag) => tags.has(tag))) continue;
      touched.push(key);
      if (removal) this.delete(key);
      else entry.staleSince ??= now;
    }
    return touched;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  delete(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(key);
  }

  clear() {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size() {
    return this.#entries.size;
  }

  get bytes() {
    return this.#bytes;
  }
}

/**
 * Kept (and shared with caches in front, by its tags) when a 200 whose
 * Cache-Control allows it, with tags, and not an image (share images are
 * cached on disk, with Cache-Control of their own).
 */
export function isKeptPage(page: RenderedPage): boolean {
  return page.status === 200 && mayKeep(page) && !headerOf(page, "content-type").startsWith("image/");
}

/** A page's header (lower-case name), "" when absent. */
function headerOf(page: RenderedPage, name: string): string {
  return page.headers.find(([n]) => n === name)?.[1] ?? "";
}

/** What it shows is known (its tags) and its Cache-Control does not forbid keeping it. */
function mayKeep(page: RenderedPage): boolean {
  return page.tags !== null && !/no-store|private/.test(headerOf(page, "cache-control"));
}

/**
 * A 404 page kept apart (cached-pages.ts `missing`, decision 080): an HTML
 * page that says what it was asked about (tags: the post's address among
 * them, so publishing it drops the page) and does not forbid keeping it.
 * Never shared with caches in front (its Cache-Control says no-cache).
 */
export function isMissingPage(page: RenderedPage): boolean {
  return page.status === 404 && mayKeep(page) && headerOf(page, "content-type").startsWith("text/html");
}
