import { createHash } from "node:crypto";

export type BodyPart = Buffer | "nonce" | "requestId";

export interface RenderedPage {
  status: number;
  headers: [string, string][];
  /** The body as rendered, cut where the nonce and request id go. */
  parts: BodyPart[];
  etag: string;
}

/** Cuts `body` at each placeholder token, once, so each response only concatenates. */
export function splitAtTokens(body: Buffer, tokens: { nonce: string; requestId: string }): BodyPart[] {
  const parts: BodyPart[] = [];
  const names = [
    ["nonce", Buffer.from(tokens.nonce)],
    ["requestId", Buffer.from(tokens.requestId)],
  ] as const;
  let from = 0;
  for (;;) {
    let next = -1;
    let found: (typeof names)[number] | null = null;
    for (const entry of names) {
      const at = body.indexOf(entry[1], from);
      if (at !== -1 && (next === -1 || at < next)) {
        next = at;
        found = entry;
      }
    }
    if (!found) break;
    if (next > from) parts.push(body.subarray(from, next));
    parts.push(found[0]);
    from = next + found[1].length;
  }
  if (from < body.length) parts.push(body.subarray(from));
  return parts;
}

export function joinParts(parts: BodyPart[], values: { nonce: string; requestId: string }): Buffer {
  if (parts.length === 1 && typeof parts[0] !== "string") return parts[0] as Buffer;
  return Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(values[part]) : part)));
}

export function etagOf(body: Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`;
}

/**
 * Rendered pages kept in memory while the content they came from is
 * unchanged: an entry is valid only for the content version it was made at.
 * Bounded by count and by body bytes (pages carry their CSS inline, ~35 kB
 * each), least recently used first out, so a crawl cannot grow the heap past
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
    const bytes = page.parts.reduce((sum, part) => sum + (typeof part === "string" ? 0 : part.length), 0);
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
