import { afterAll, beforeAll, expect, test } from "vitest";
import { postPath } from "#app/content/languages.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let published: PostRow[];

beforeAll(async () => {
  server = await startServer();
  const db = openReadonly(server.dbPath);
  published = db
    .prepare(
      `SELECT ${POST_COLUMNS}, id FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC`,
    )
    .all() as PostRow[];
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

const ofLanguage = (language: string) => published.filter((p) => p.language === language);

test("a post links to the previous (older) and next (newer) post of its language", async () => {
  const hindi = ofLanguage("hindi");
  const middle = 5;
  const post = hindi[middle]!;
  const { doc } = await getHtml(`${server.url}${postPath("hindi", post.slug)}`);
  expect(doc.querySelector('.post-nav a[rel="prev"]')?.getAttribute("href")).toBe(
    postPath("hindi", hindi[middle + 1]!.slug),
  );
  expect(doc.querySelector('.post-nav a[rel="next"]')?.getAttribute("href")).toBe(
    postPath("hindi", hindi[middle - 1]!.slug),
  );
  const newest = await getHtml(`${server.url}${postPath("hindi", hindi[0]!.slug)}`);
  expect(newest.doc.querySelector('.post-nav a[rel="next"]')).toBeNull();
  const oldest = await getHtml(`${server.url}${postPath("hindi", hindi.at(-1)!.slug)}`);
  expect(oldest.doc.querySelector('.post-nav a[rel="prev"]')).toBeNull();
});

test("related posts share a tag, are in the same language, and number at most 4", async () => {
  const db = openReadonly(server.dbPath);
  const tagsOf = db.prepare(
    `SELECT t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id AND t.kind = 'tag'
     JOIN posts p ON p.id = pt.post_id WHERE p.language = ? AND p.slug = ?`,
  );
  let checked = 0;
  for (const post of ofLanguage("marathi").slice(0, 8)) {
    const mine = new Set(tagsOf.pluck().all("marathi", post.slug) as string[]);
    const { doc } = await getHtml(`${server.url}${postPath("marathi", post.slug)}`);
    const related = doc.querySelectorAll(".related .post-card-link").map((a) => a.getAttribute("href") ?? "");
    expect(related.length).toBeLessThanOrEqual(4);
    for (const href of related) {
      expect(href.startsWith("/marathi/")).toBe(true);
      expect(href).not.toBe(postPath("marathi", post.slug));
      const slug = decodeURIComponent(href.slice("/marathi/".length));
      const theirs = tagsOf.pluck().all("marathi", slug) as string[];
      expect(theirs.some((tag) => mine.has(tag))).toBe(true);
      checked++;
    }
  }
  db.close();
  expect(checked).toBeGreaterThan(0);
});

test("share links carry the post's absolute address", async () => {
  const post = ofLanguage("english")[2]!;
  const { doc } = await getHtml(`${server.url}${postPath("english", post.slug)}`);
  const url = `${server.url}${postPath("english", post.slug)}`;
  const links = doc.querySelectorAll(".share a[target=_blank]").map((a) => a.getAttribute("href") ?? "");
  expect(links).toHaveLength(3);
  expect(links[0]).toMatch(/^https:\/\/wa\.me\/\?text=/);
  expect(links[1]).toMatch(/^https:\/\/www\.facebook\.com\/sharer\/sharer\.php\?u=/);
  expect(links[2]).toMatch(/^https:\/\/x\.com\/intent\/post\?/);
  for (const link of links) expect(decodeURIComponent(link)).toContain(url);
  const download = doc.querySelector(".share a[download]");
  expect(download?.getAttribute("href")).toMatch(/^\/share\/english\/.+\.jpg\?download$/);
  const image = await fetch(`${server.url}${download?.getAttribute("href")}`);
  expect(image.status).toBe(200);
  expect(image.headers.get("content-type")).toBe("image/jpeg");
});

test("the quote of the day is a published post of the language, the same on every request", async () => {
  for (const language of ["english", "hindi", "marathi"]) {
    const first = await getHtml(`${server.url}/${language}/home`);
    const second = await getHtml(`${server.url}/${language}/home`);
    const href = first.doc.querySelector(".daily a")?.getAttribute("href");
    expect(href).toBeTruthy();
    expect(second.doc.querySelector(".daily a")?.getAttribute("href")).toBe(href);
    expect(ofLanguage(language).map((p) => postPath(p.language, p.slug))).toContain(href);
    // Only the first page carries it.
    expect((await getHtml(`${server.url}/${language}/home?page=2`)).doc.querySelector(".daily")).toBeNull();
  }
});

test("labels follow the page's language", async () => {
  const hindi = await getHtml(`${server.url}/hindi/home`);
  expect(hindi.doc.querySelector(".daily-kicker")?.text).toBe("आज की सूक्ति");
  expect(hindi.doc.querySelector(".site-footer")?.text).toContain("गोपनीयता नीति");
  expect(hindi.doc.querySelector(".pagination")?.text).toContain("पृष्ठ 1");
  const marathiPost = ofLanguage("marathi")[0]!;
  const marathi = await getHtml(`${server.url}${postPath("marathi", marathiPost.slug)}`);
  expect(marathi.doc.querySelector("html")?.getAttribute("lang")).toBe("mr");
  expect(marathi.doc.querySelector(".share-title")?.text).toBe("शेअर करा");
  expect(marathi.doc.querySelector(".site-footer")?.text).toContain("नियम व अटी");
  const english = await getHtml(`${server.url}/english/home`);
  expect(english.doc.querySelector(".daily-kicker")?.text).toBe("Quote of the day");
});

test("/tags lists every tag with published posts by language, each with its exact count there", async () => {
  const db = openReadonly(server.dbPath);
  const expected = db
    .prepare(
      `SELECT p.language, t.slug, count(*) AS n FROM terms t JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id AND p.status = 'publish' WHERE t.kind = 'tag' GROUP BY t.id, p.language`,
    )
    .all() as { language: string; slug: string; n: number }[];
  db.close();
  const { doc } = await getHtml(`${server.url}/tags`);
  const lang = { english: "en", hindi: "hi", marathi: "mr" } as Record<string, string>;
  const shown = new Map<string, number>();
  for (const group of doc.querySelectorAll(".tag-group")) {
    const groupLang = group.querySelector(".tag-cloud")?.getAttribute("lang");
    expect(group.querySelector("h2")?.getAttribute("lang")).toBe(groupLang);
    for (const a of group.querySelectorAll(".tag-cloud a")) {
      const slug = decodeURIComponent((a.getAttribute("href") ?? "").slice("/tag/".length));
      shown.set(`${groupLang} ${slug}`, Number(a.querySelector(".count")?.text));
    }
  }
  expect(shown.size).toBe(expected.length);
  for (const { language, slug, n } of expected) expect(shown.get(`${lang[language]} ${slug}`), slug).toBe(n);
  // A tag used in Hindi and in Marathi is in each group (the demo has such tags).
  const both = expected.filter(
    (row) =>
      row.language === "hindi" && expected.some((o) => o.language === "marathi" && o.slug === row.slug),
  );
  for (const { slug } of both) {
    expect(shown.has(`hi ${slug}`) && shown.has(`mr ${slug}`), slug).toBe(true);
  }
});

test("a tag page lists its posts newest first; page 2 of a one-page tag is 404", async () => {
  const { doc } = await getHtml(`${server.url}/tags`);
  const href = doc.querySelector(".tag-cloud a")?.getAttribute("href") ?? "";
  const page = await getHtml(`${server.url}${href}`);
  expect(page.status).toBe(200);
  const order = page.doc.querySelectorAll(".post-card-link").map((a) => a.getAttribute("href"));
  const expected = published.map((p) => postPath(p.language, p.slug)).filter((p) => order.includes(p));
  expect(order).toEqual(expected);
  expect((await getHtml(`${server.url}${href}?page=2`)).status).toBe(404);
});

test("cards carry image dimensions and load lazily below the fold", async () => {
  const { doc } = await getHtml(`${server.url}/english/home`);
  const images = doc.querySelectorAll(".post-card img");
  expect(images.length).toBe(24);
  for (const img of images) {
    expect(img.getAttribute("width")).toBeTruthy();
    expect(img.getAttribute("height")).toBeTruthy();
  }
  expect(images.at(-1)?.getAttribute("loading")).toBe("lazy");
  expect(images[0]?.getAttribute("loading")).toBe("eager");
});
