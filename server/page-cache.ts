import { createHash } from "node:crypto";

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  /** The body as rendered, with placeholder tokens for the nonce and request id. */
  body: Buffer;
  etag: string;
  nonceToken: string;
  requestIdToken: string;
}

export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * Rendered pages kept in memory while the content they came from is
 * unchanged: an entry is valid only for the content version it was made at.
 */
export class PageCache {
  readonly #entries = new Map<string, { version: string; page: RenderedPage }>();
  readonly #maxEntries: number;

  constructor(maxEntries = 2000) {
    this.#maxEntries = maxEntries;
  }

  get(key: string, version: string): RenderedPage | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    if (entry.version !== version) {
      this.#entries.delete(key);
      return null;
    }
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.page;
  }

  set(key: string, version: string, page: RenderedPage) {
    this.#entries.delete(key);
    this.#entries.set(key, { version, page });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  get size() {
    return this.#entries.size;
  }
}
