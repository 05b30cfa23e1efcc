import { createHash } from "node:crypto";
import type { Encoding } from "./send-page.ts";

/** A page as React Router rendered it, ready to send as often as asked. */
export interface RenderedPage {
  status: number;
  /** React Router's response headers (content-type, cache-control…), lower-case names. */
  headers: [string, string][];
  body: Buffer;
  etag: string;
  /** The Content-Security-Policy for this body (its scripts' hashes); null when not HTML. */
  csp: string | null;
  /** The body compressed, made on the first request that accepts each encoding. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * Rendered pages kept in memory while the content they came from is
 * unchanged: an entry is valid only for the content version it was made at.
 * Bounded by count and by body bytes (pages carry their CSS inline, ~35 kB
 * each, plus their compressed copies), least recently used first out, so a crawl cannot grow the heap past
 * the server's memory budget.
 */
export class PageCache {
  readonly #entries = new Map<string, { version: string; page: RenderedPage; bytes: number }>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;

  constructor({ maxEntries = 2000, maxBytes = 32 * 1024 * 1024 } = {}) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  get(key: string, version: string): RenderedPage | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.version !== version) {
      this.#delete(key);
      return null;
    }
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.page;
  }

  set(key: string, version: string, page: RenderedPage) {
    this.#delete(key);
    // Compressed copies come later and are small beside the body: counted at half of it.
    const bytes = Math.ceil(page.body.length * 1.5);
    this.#entries.set(key, { version, page, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#delete(oldest);
    }
  }

  #delete(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(key);
  }

  get size() {
    return this.#entries.size;
  }

  get bytes() {
    return this.#bytes;
  }
}

/** Kept when a 200 whose Cache-Control allows it, and not an image (share images are cached on disk). */
export function isKeptPage(page: RenderedPage): boolean {
  const header = (name: string) => page.headers.find(([n]) => n === name)?.[1] ?? "";
  return (
    page.status === 200 &&
    !/no-store|private/.test(header("cache-control")) &&
    !header("content-type").startsWith("image/")
  );
}
