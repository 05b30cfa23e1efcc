import { afterAll, beforeAll, expect, test } from "vitest";
import { LANGUAGES, postPath } from "#app/content/languages.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";
import { expectRss, expectSitemapIndex, expectUrlset, parseXml } from "./seo-xml.ts";

const ORIGIN = "https://sukti.example";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { PUBLIC_URL: ORIGIN } });
});
afterAll(async () => {
  await server?.stop();
});

function posts(where: string): PostRow[] {
  const db = openReadonly(server.dbPath);
  const rows = db
    .prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE ${where} ORDER BY post_time DESC, id DESC`)
    .all() as PostRow[];
  db.close();
  return rows;
}

/** GETs a public address from the test server. */
async function fetchPublic(url: string) {
  return fetch(url.replace(ORIGIN, server.url), { redirect: "manual" });
}

async function readSitemaps() {
  const response = await fetchPublic(`${ORIGIN}/sitemap.xml`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
  const locs = expectSitemapIndex(parseXml(await response.text()), ORIGIN);
  const entries = [];
  for (const loc of locs) {
    const sitemap = await fetchPublic(loc);
    expect(sitemap.status, loc).toBe(200);
    expect(sitemap.headers.get("content-type")).toMatch(/^application\/xml/);
    entries.push(
      ...expectUrlset(parseXml(await sitemap.text()), ORIGIN).map((entry) => ({ ...entry, sitemap: loc })),
    );
  }
  return { locs, entries };
}

test("robots.txt allows crawling and names the sitemap index at the public origin", async () => {
  const response = await fetchPublic(`${ORIGIN}/robots.txt`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  const lines = (await response.text()).split("\n");
  expect(lines).toContain("User-agent: *");
  expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  expect(lines).not.toContain("Disallow: /");
});

test("the sitemap index lists valid sitemaps: every published post with lastmod, per language, and no other post", async () => {
  const { locs, entries } = await readSitemaps();
  expect(locs).toEqual([
    `${ORIGIN}/sitemaps/pages.xml`,
    `${ORIGIN}/sitemaps/terms.xml`,
    ...LANGUAGES.map((language) => `${ORIGIN}/sitemaps/${language}-1.xml`),
  ]);
  for (const language of LANGUAGES) {
    const listed = entries.filter((entry) => entry.sitemap.endsWith(`/${language}-1.xml`));
    const expected = posts(`status = 'publish' AND language = '${language}'`);
    expect(listed.map((entry) => entry.loc)).toEqual(
      expected.map((p) => `${ORIGIN}${postPath(p.language, p.slug)}`),
    );
    for (const entry of listed) expect(entry.lastmod).not.toBeNull();
  }
  const all = new Set(entries.map((entry) => entry.loc));
  const hidden = posts("status <> 'publish'");
  expect(hidden.length).toBeGreaterThan(0);
  for (const post of hidden) {
    // A draft may share its slug with a published post of another language; its own address must not appear.
    expect(all.has(`${ORIGIN}${postPath(post.language, post.slug)}`), post.slug).toBe(false);
  }
  expect(new Set(entries.map((entry) => entry.loc)).size).toBe(entries.length);
});

test("the pages sitemap holds the home pages with hreflang alternates, tags and site pages; the terms sitemap every used term", async () => {
  const { entries } = await readSitemaps();
  const pages = entries.filter((entry) => entry.sitemap.endsWith("/pages.xml"));
  const homes = [`${ORIGIN}/`, ...LANGUAGES.map((language) => `${ORIGIN}/${language}/home`)];
  expect(pages.map((entry) => entry.loc)).toEqual([
    ...homes,
    `${ORIGIN}/tags`,
    `${ORIGIN}/people`,
    // Site pages in each language, at the address their version is shown at (decision 067).
    `${ORIGIN}/post/privacy-policy`,
    `${ORIGIN}/post/privacy-policy?lang=hi`,
    `${ORIGIN}/post/privacy-policy?lang=mr`,
    `${ORIGIN}/post/terms-conditions`,
    `${ORIGIN}/post/terms-conditions?lang=hi`,
    `${ORIGIN}/post/terms-conditions?lang=mr`,
  ]);
  for (const entry of pages.slice(0, 4)) {
    expect(entry.alternates).toEqual([
      { hreflang: "en", href: `${ORIGIN}/english/home` },
      { hreflang: "hi", href: `${ORIGIN}/hindi/home` },
      { hreflang: "mr", href: `${ORIGIN}/marathi/home` },
      { hreflang: "x-default", href: `${ORIGIN}/` },
    ]);
  }

  const db = openReadonly(server.dbPath);
  const terms = db
    .prepare(
      `SELECT DISTINCT t.kind, t.slug FROM terms t JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id WHERE p.status = 'publish' ORDER BY t.kind, t.slug`,
    )
    .all() as { kind: string; slug: string }[];
  // …and every person with a published quote (the lists of quotes by what they share).
  const people = db
    .prepare(
      `SELECT DISTINCT pe.slug FROM people pe JOIN posts p ON p.person_id = pe.id
       WHERE p.status = 'publish' ORDER BY pe.slug`,
    )
    .pluck()
    .all() as string[];
  db.close();
  const listed = entries.filter((entry) => entry.sitemap.endsWith("/terms.xml")).map((entry) => entry.loc);
  expect(listed).toEqual([
    ...terms.map((t) => `${ORIGIN}/${t.kind}/${encodeURIComponent(t.slug)}`),
    ...people.map((slug) => `${ORIGIN}/people/${encodeURIComponent(slug)}`),
  ]);
  // Every listed address answers 200.
  for (const loc of [...pages.map((entry) => entry.loc), ...listed.slice(0, 10)]) {
    expect((await fetchPublic(loc)).status, loc).toBe(200);
  }
});

test("unknown sitemaps answer 404", async () => {
  for (const name of ["klingon-1.xml", "hindi-2.xml", "hindi-0.xml", "hindi.xml", "pages"]) {
    expect((await fetchPublic(`${ORIGIN}/sitemaps/${name}`)).status, name).toBe(404);
  }
});

test("each language's RSS 2.0 feed holds its newest published posts, newest first, and no other", async () => {
  for (const language of LANGUAGES) {
    const response = await fetchPublic(`${ORIGIN}/${language}/feed.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/rss\+xml/);
    const feed = expectRss(parseXml(await response.text()), ORIGIN, `${ORIGIN}/${language}/feed.xml`);
    const expected = posts(`status = 'publish' AND language = '${language}'`).slice(0, 50);
    expect(feed.items.map((item) => item.link)).toEqual(
      expected.map((p) => `${ORIGIN}${postPath(p.language, p.slug)}`),
    );
    expect(feed.items.map((item) => item.title)).toEqual(expected.map((p) => p.title));
    expect(feed.items.map((item) => Date.parse(item.pubDate) / 1000)).toEqual(
      expected.map((p) => p.postTime),
    );
    // Item HTML is absolute, so it works in a feed reader.
    for (const item of feed.items) expect(item.html).not.toMatch(/(src|href)="\/(?!\/)/);
  }
});

test("a feed stops at 50 posts; a newer draft stays out of feeds and sitemaps", async () => {
  // The app's own opener: the search triggers call its SQL functions.
  const { db } = openDatabase(`file:${server.dbPath}`);
  const newest = db.prepare("SELECT max(post_time) FROM posts").pluck().get() as number;
  const maxId = db.prepare("SELECT max(id_num) FROM posts WHERE language = 'hindi'").pluck().get() as number;
  const insert = db.prepare(
    `INSERT INTO posts (language, id_num, status, post_time, title, slug, content, excerpt)
     VALUES ('hindi', ?, ?, ?, ?, ?, ?, '')`,
  );
  db.transaction(() => {
    for (let i = 1; i <= 8; i++) {
      insert.run(
        maxId + i,
        "publish",
        newest + i * 60,
        `नई सूक्ति ${i}`,
        `नई-सूक्ति-${i}`,
        `<p>नई सूक्ति ${i}</p>`,
      );
    }
    insert.run(maxId + 9, "draft", newest + 3600, "अप्रकाशित मसौदा", "अप्रकाशित-मसौदा", "<p>मसौदा</p>");
  })();
  db.close();

  const published = posts("status = 'publish' AND language = 'hindi'");
  expect(published.length).toBeGreaterThan(50);
  const response = await fetchPublic(`${ORIGIN}/hindi/feed.xml`);
  const feed = expectRss(parseXml(await response.text()), ORIGIN, `${ORIGIN}/hindi/feed.xml`);
  expect(feed.items).toHaveLength(50);
  expect(feed.items.map((item) => item.link)).toEqual(
    published.slice(0, 50).map((p) => `${ORIGIN}${postPath(p.language, p.slug)}`),
  );
  expect(feed.items[0]!.title).toBe("नई सूक्ति 8");
  const { entries } = await readSitemaps();
  const locs = new Set(entries.map((entry) => entry.loc));
  expect(locs.has(`${ORIGIN}${postPath("hindi", "नई-सूक्ति-8")}`)).toBe(true);
  expect(locs.has(`${ORIGIN}${postPath("hindi", "अप्रकाशित-मसौदा")}`)).toBe(false);
  expect(feed.items.some((item) => item.title === "अप्रकाशित मसौदा")).toBe(false);
});
