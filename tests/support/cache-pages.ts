// Helpers for the tests of decision 057 (fine-grained invalidation): a small
// site whose pages show known posts, and what the server's cache says of each
// page (X-Cache: HIT, STALE, MISS) before and after a write.
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import path from "node:path";
import { expect } from "vitest";
import { READY_MS } from "#tests/support/limits.ts";

export interface SitePost {
  language: "english" | "hindi";
  slug: string;
  title: string;
  postTime: number;
  tags: string[];
  person?: string | { name: string; names?: Record<string, string> };
  translationKey?: string;
  status?: string;
}

/** Five English posts, two Hindi ones; alpha and hindi-alpha are translations of each other. */
export const SITE: SitePost[] = [
  {
    language: "english",
    slug: "alpha",
    title: "Alpha words",
    postTime: 1_700_000_100,
    tags: ["Courage"],
    person: "Kabir",
    translationKey: "g1",
  },
  {
    language: "english",
    slug: "bravo",
    title: "Bravo words",
    postTime: 1_700_000_200,
    tags: ["Peace"],
    person: "Mirabai",
  },
  {
    language: "english",
    slug: "charlie",
    title: "Charlie words",
    postTime: 1_700_000_300,
    tags: ["Peace"],
    person: "Kabir",
  },
  { language: "english", slug: "delta", title: "Delta words", postTime: 1_700_000_400, tags: ["Hope"] },
  { language: "english", slug: "echo", title: "Echo words", postTime: 1_700_000_500, tags: ["Hope"] },
  {
    language: "hindi",
    slug: "hindi-alpha",
    title: "हिंदी अल्फा",
    postTime: 1_700_000_150,
    tags: ["Courage"],
    translationKey: "g1",
  },
  { language: "hindi", slug: "hindi-bravo", title: "हिंदी ब्रावो", postTime: 1_700_000_250, tags: ["Shanti"] },
];

/** The pages the tests keep in the cache and look at after each write. */
export const PAGES = [
  "/english/alpha",
  "/english/bravo",
  "/english/charlie",
  "/english/delta",
  "/english/echo",
  "/hindi/hindi-alpha",
  "/hindi/hindi-bravo",
  "/english/home",
  "/hindi/home",
  "/tag/peace",
  "/tag/hope",
  "/tag/courage",
  "/people/kabir",
  "/people/mirabai",
  "/people",
  "/tags",
  "/english/feed.xml",
  "/hindi/feed.xml",
  "/sitemaps/english-1.xml",
  "/sitemaps/hindi-1.xml",
  "/search/words",
  "/search/peace",
];

let idNums = 100;
/** A JSON import file of these posts (each a full record, as sukti import takes it). */
export function contentFile(dir: string, name: string, posts: SitePost[]): string {
  const file = path.join(dir, name);
  const records = posts.map((post) => ({
    idNum: SITE.findIndex((p) => p.slug === post.slug) + 1 || ++idNums,
    language: post.language,
    status: post.status ?? "publish",
    postTime: post.postTime,
    title: post.title,
    slug: post.slug,
    content: `<p>${post.title}, said plainly.</p>`,
    tags: post.tags,
    ...(post.person ? { source: { person: post.person } } : {}),
    ...(post.translationKey ? { translationKey: post.translationKey } : {}),
  }));
  writeFileSync(file, JSON.stringify({ posts: records }));
  return file;
}

export interface Seen {
  status: number;
  cache: string | null;
  etag: string | null;
  body: string;
  headers: Headers;
}

export async function look(base: string, pathname: string): Promise<Seen> {
  const response = await fetch(`${base}${pathname}`);
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    etag: response.headers.get("etag"),
    body: await response.text(),
    headers: response.headers,
  };
}

/**
 * Every page asked until the cache answers it (HIT); returns what each showed.
 * A page a write left stale is HIT once its background render is done: on a
 * busy machine a search's can take seconds, so the bound is generous time,
 * not a count of tries.
 */
export async function warm(base: string, pages = PAGES): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  for (const page of pages) {
    const until = Date.now() + READY_MS;
    for (;;) {
      const got = await look(base, page);
      expect(got.status, page).toBe(200);
      if (got.cache === "HIT") {
        seen.set(page, got);
        break;
      }
      expect(Date.now(), `${page} is never a HIT (X-Cache ${got.cache})`).toBeLessThan(until);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return seen;
}

/** Asks until `check` holds for the page (a background render replaced it), failing after `ms`. */
export async function eventually(base: string, page: string, check: (seen: Seen) => boolean, ms = READY_MS) {
  const until = Date.now() + ms;
  for (;;) {
    const got = await look(base, page);
    if (check(got)) return got;
    if (Date.now() > until) throw new Error(`${page} never showed what was expected (X-Cache ${got.cache})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * After a write: pages in `dropped` are rendered afresh (MISS), pages in
 * `kept` are the same cached page (HIT, same ETag), pages in `refreshed` are
 * served from the cache (STALE, or HIT once their background render is done),
 * never rendered while the visitor waits.
 */
export async function expectCache(
  base: string,
  before: Map<string, Seen>,
  expected: { dropped?: string[]; kept?: string[]; refreshed?: string[] },
): Promise<Map<string, Seen>> {
  const after = new Map<string, Seen>();
  for (const page of expected.dropped ?? []) {
    const got = await look(base, page);
    expect(got.cache, `${page} should have been dropped`).toBe("MISS");
    after.set(page, got);
  }
  for (const page of expected.kept ?? []) {
    const got = await look(base, page);
    expect(got.cache, `${page} should have stayed cached`).toBe("HIT");
    expect(got.etag, `${page} should be the same page`).toBe(before.get(page)?.etag);
    after.set(page, got);
  }
  for (const page of expected.refreshed ?? []) {
    const got = await look(base, page);
    expect(["STALE", "HIT"], `${page} should be served while it is refreshed`).toContain(got.cache);
    after.set(page, got);
  }
  return after;
}

/** A stand-in for a CDN's purge endpoint: records each POST it receives. */
export interface PurgeReceiver {
  url: string;
  received: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export async function purgeReceiver(status = 200): Promise<PurgeReceiver> {
  const received: PurgeReceiver["received"] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/purge`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
