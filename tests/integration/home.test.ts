import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANGUAGES, MAX_ID_FIELD, postPath } from "#app/content/languages.ts";
import { drawIds, seededRandom } from "#app/content/sampling.ts";
import { demoSite as siteConfig } from "#app/site.config.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { type RunningServer, startServer, TEST_SEED } from "#tests/support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** What SPEC §7.2 says the gallery holds for the server's fixed seed. */
function expectedTiles(dbPath: string): PostRow[] {
  const db = openReadonly(dbPath);
  try {
    const website = db
      .prepare("SELECT max_id_eng AS maxIdEng, max_id_hin AS maxIdHin, max_id_mr AS maxIdMr FROM website")
      .get() as Record<string, number>;
    const random = seededRandom(TEST_SEED);
    return LANGUAGES.flatMap((language) => {
      const ids = drawIds(website[MAX_ID_FIELD[language]] ?? 0, random);
      return db
        .prepare(
          `SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish' AND language = ?
           AND id_num IN (${ids.join(",")}) ORDER BY post_time DESC, id DESC LIMIT 3`,
        )
        .all(language) as PostRow[];
    });
  } finally {
    db.close();
  }
}

test("the hero is the newest published post, not the newer draft", async () => {
  const db = openReadonly(server.dbPath);
  const newest = db
    .prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish' ORDER BY post_time DESC LIMIT 1`)
    .get() as PostRow;
  const newerUnpublished = db
    .prepare("SELECT count(*) FROM posts WHERE status <> 'publish' AND post_time > ?")
    .pluck()
    .get(newest.postTime) as number;
  db.close();
  expect(newerUnpublished).toBeGreaterThan(0);

  const { status, doc } = await getHtml(`${server.url}/`);
  expect(status).toBe(200);
  const hero = doc.querySelector(".hero a");
  expect(hero?.getAttribute("href")).toBe(postPath(newest.language, newest.slug));
  expect(doc.querySelector("#hero-title")?.text).toBe(newest.title);
  expect(hero?.querySelector("img")?.getAttribute("src")).toBe(
    newest.featureImageUrl || siteConfig.defaultImage.src,
  );
});

test("the gallery holds the spec's sample: up to 3 published posts per language, newest first", async () => {
  const expected = expectedTiles(server.dbPath);
  expect(expected.length).toBeGreaterThan(0);
  const { doc } = await getHtml(`${server.url}/`);
  const tiles = doc.querySelectorAll(".gallery-tile");
  expect(tiles.map((tile) => tile.querySelector("a")?.getAttribute("href"))).toEqual(
    expected.map((post) => postPath(post.language, post.slug)),
  );
  expect(tiles.map((tile) => tile.querySelector("img")?.getAttribute("alt"))).toEqual(
    expected.map((post) => post.title),
  );
  for (const language of LANGUAGES) {
    expect(
      tiles.filter((tile) => tile.getAttribute("data-language") === language).length,
    ).toBeLessThanOrEqual(3);
  }
});

test("a tile whose post has no image shows the default clip-art", async () => {
  // A database of its own: this test changes a post, which the other tests must not see.
  const own = await startServer();
  try {
    const [first] = expectedTiles(own.dbPath);
    if (!first) throw new Error("the fixed seed drew no tile");
    const db = new Database(own.dbPath);
    db.prepare("UPDATE posts SET feature_image_url = '' WHERE language = ? AND slug = ?").run(
      first.language,
      first.slug,
    );
    db.close();
    const { doc } = await getHtml(`${own.url}/`);
    const tile = doc.querySelector(`.gallery-tile a[href="${postPath(first.language, first.slug)}"] img`);
    expect(tile?.getAttribute("src")).toBe(siteConfig.defaultImage.src);
    expect(tile?.getAttribute("alt")).toBe(first.title);
    const image = await fetch(`${own.url}${siteConfig.defaultImage.src}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toContain("image/svg+xml");
  } finally {
    await own.stop();
  }
});

test("the frame links follow the route table", async () => {
  const { doc } = await getHtml(`${server.url}/`);
  expect(hrefs(doc, ".main-menu a")).toEqual([
    "/",
    "/english/home",
    "/hindi/home",
    "/marathi/home",
    "/tags",
    "/people",
  ]);
  expect(hrefs(doc, ".site-footer a")).toEqual(["/saved", "/post/privacy-policy", "/post/terms-conditions"]);
  const social = doc.querySelectorAll(".social-links a");
  expect(social).toHaveLength(3);
  for (const link of social) {
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toContain("noopener");
  }
  expect(doc.querySelector(".about a")?.getAttribute("href")).toBe(siteConfig.about.readMoreUrl);
  const form = doc.querySelector("form[role=search]");
  expect(form?.getAttribute("action")).toBe("/search");
  expect(form?.getAttribute("method")).toBe("get");
  expect(doc.querySelector(".site-footer")?.text).toContain(siteConfig.copyrightHolder);
});

test("the home page is rendered fresh for every request", async () => {
  const { response } = await getHtml(`${server.url}/`);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("x-powered-by")).toBeNull();
  // The test servers draw with a fixed seed; a real one draws anew each time.
  const unseeded = await startServer({ env: { SUKTI_RANDOM_SEED: undefined } });
  try {
    const galleries = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const { doc } = await getHtml(`${unseeded.url}/`);
      galleries.add(hrefs(doc, ".gallery-tile a").join(" "));
    }
    // Three tiles drawn from each language's posts: eight identical draws would be chance at ~1e-30.
    expect(galleries.size).toBeGreaterThan(1);
  } finally {
    await unseeded.stop();
  }
});

test("the gallery has a row per language, named in its script, and every tile a visible caption", async () => {
  const { doc } = await getHtml(`${server.url}/`);
  const rows = doc.querySelectorAll(".gallery-row");
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const language = row.getAttribute("data-language");
    const heading = row.querySelector(".gallery-language");
    expect(heading?.getAttribute("lang")).toBe({ english: "en", hindi: "hi", marathi: "mr" }[language ?? ""]);
    expect(heading?.text.trim()).toBeTruthy();
    const tiles = row.querySelectorAll(".gallery-tile");
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.length).toBeLessThanOrEqual(3);
    for (const tile of tiles) {
      expect(tile.getAttribute("data-language")).toBe(language);
      const image = tile.querySelector("img");
      const caption = tile.querySelector(".gallery-caption");
      // The alt text stays the title (SPEC §7.2); the caption shows it, hidden from screen readers.
      expect(caption?.text).toBe(image?.getAttribute("alt"));
      expect(caption?.getAttribute("aria-hidden")).toBe("true");
      expect(caption?.getAttribute("lang")).toBe(image?.getAttribute("lang"));
    }
  }
});

test("the gallery's rows are not nested in a list", async () => {
  const { doc } = await getHtml(`${server.url}/`);
  expect(doc.querySelectorAll(".gallery-rows > .gallery-row").length).toBe(
    doc.querySelectorAll(".gallery-row").length,
  );
  expect(doc.querySelectorAll("ul .gallery-row")).toHaveLength(0);
});
