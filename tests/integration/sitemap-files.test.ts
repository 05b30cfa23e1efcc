// A language with more posts than one sitemap file holds (decision 077): its
// posts are split over numbered files, newest first, each listed in the index,
// none repeated or left out, and each file small enough to make and cache.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { SITEMAP_MAX_URLS } from "#app/content/feeds.ts";
import { LANGUAGES, postPath } from "#app/content/languages.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { generateCorpus } from "#cli/generate.ts";
import { openReadonly } from "#tests/support/db.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { expectSitemapIndex, expectUrlset, parseXml } from "./seo-xml.ts";

const ORIGIN = "https://sukti.example";
// English is 40% of a generated corpus: a little over two files' worth of English posts.
const POSTS = Math.ceil((SITEMAP_MAX_URLS * 2.2) / 0.4);
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-sitemaps-"));
  const dbPath = path.join(dir, "sukti.db");
  const { db } = openDatabase(`file:${dbPath}`);
  migrate(db);
  // Every English post, and a few hundred in the other languages (one file each): a shorter write.
  const corpus = generateCorpus({ count: POSTS, seed: 5 });
  const others = corpus.filter((post) => post.language !== "english").slice(0, 300);
  writeContent(db, {
    posts: [...corpus.filter((post) => post.language === "english"), ...others],
    pages: [],
  });
  db.close();
  server = await startServer({ dbPath, env: { PUBLIC_URL: ORIGIN } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function get(loc: string) {
  return fetch(loc.replace(ORIGIN, server.url), { redirect: "manual" });
}

test("each language's posts are split over files of at most SITEMAP_MAX_URLS, newest first, none left out or repeated", async () => {
  const index = await get(`${ORIGIN}/sitemap.xml`);
  expect(index.status).toBe(200);
  const locs = expectSitemapIndex(parseXml(await index.text()), ORIGIN);
  const db = openReadonly(server.dbPath);
  try {
    for (const language of LANGUAGES) {
      const published = db
        .prepare(
          "SELECT slug FROM posts WHERE language = ? AND status = 'publish' ORDER BY post_time DESC, id DESC",
        )
        .all(language) as { slug: string }[];
      const files = Math.ceil(published.length / SITEMAP_MAX_URLS);
      const listed = locs.filter((loc) => loc.startsWith(`${ORIGIN}/sitemaps/${language}-`));
      expect(listed).toEqual(
        Array.from({ length: files }, (_, i) => `${ORIGIN}/sitemaps/${language}-${i + 1}.xml`),
      );
      const seen: string[] = [];
      for (const loc of listed) {
        const response = await get(loc);
        expect(response.status, loc).toBe(200);
        const body = await response.text();
        // Each file stays small enough to make and keep cached (demo slugs: a few hundred kB).
        expect(Buffer.byteLength(body), loc).toBeLessThan(2_000_000);
        const entries = expectUrlset(parseXml(body), ORIGIN);
        expect(entries.length, loc).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
        seen.push(...entries.map((entry) => entry.loc));
      }
      expect(seen).toEqual(published.map(({ slug }) => `${ORIGIN}${postPath(language, slug)}`));
      // One past the last file is not a sitemap.
      expect((await get(`${ORIGIN}/sitemaps/${language}-${files + 1}.xml`)).status).toBe(404);
    }
    // The corpus is large enough that one language needed more than one file.
    expect(locs.filter((loc) => /\/english-2\.xml$/.test(loc))).toHaveLength(1);
  } finally {
    db.close();
  }
});
