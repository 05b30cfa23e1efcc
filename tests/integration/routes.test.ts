import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { postPath } from "#app/content/languages.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let published: PostRow[];
let unpublished: PostRow[];

beforeAll(async () => {
  server = await startServer();
  const db = openReadonly(server.dbPath);
  published = db.prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish'`).all() as PostRow[];
  unpublished = db.prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status <> 'publish'`).all() as PostRow[];
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

const byLanguage = (language: string) =>
  published.filter((p) => p.language === language).sort((a, b) => b.postTime - a.postTime);

test("each language home lists that language's published posts, newest first", async () => {
  for (const [language, lang] of [
    ["english", "en"],
    ["hindi", "hi"],
    ["marathi", "mr"],
  ] as const) {
    const { status, doc } = await getHtml(`${server.url}/${language}/home`);
    expect(status).toBe(200);
    expect(doc.querySelector("html")?.getAttribute("lang")).toBe(lang);
    const links = doc.querySelectorAll(".post-card-link").map((a) => a.getAttribute("href"));
    expect(links).toEqual(
      byLanguage(language)
        .slice(0, 24)
        .map((p) => postPath(p.language, p.slug)),
    );
  }
});

test("a language home pages through all its posts and answers 404 past the end", async () => {
  const all = byLanguage("hindi");
  const seen: string[] = [];
  let page = 1;
  for (;;) {
    const { status, doc } = await getHtml(`${server.url}/hindi/home${page > 1 ? `?page=${page}` : ""}`);
    expect(status).toBe(200);
    seen.push(...doc.querySelectorAll(".post-card-link").map((a) => a.getAttribute("href") ?? ""));
    if (!doc.querySelector('a[rel="next"]')) break;
    page++;
  }
  expect(seen).toEqual(all.map((p) => postPath(p.language, p.slug)));
  expect((await getHtml(`${server.url}/hindi/home?page=${page + 1}`)).status).toBe(404);
  expect((await getHtml(`${server.url}/hindi/home?page=0`)).status).toBe(404);
  expect((await getHtml(`${server.url}/hindi/home?page=abc`)).status).toBe(404);
});

test("a post page shows the post in its language", async () => {
  const post = byLanguage("marathi")[0]!;
  const { status, doc } = await getHtml(`${server.url}${postPath(post.language, post.slug)}`);
  expect(status).toBe(200);
  expect(doc.querySelector("html")?.getAttribute("lang")).toBe("mr");
  expect(doc.querySelector("h1")?.text).toBe(post.title);
  expect(doc.querySelector("title")?.text).toContain(post.title);
});

test("drafts, trashed, wrong-language and missing posts all answer the same 404", async () => {
  expect(unpublished.length).toBeGreaterThan(0);
  const english = byLanguage("english")[0]!;
  const paths = [
    ...unpublished.map((p) => postPath(p.language, p.slug)),
    ...unpublished.map((p) => `/post/${encodeURIComponent(p.slug)}`),
    postPath("hindi", english.slug),
    "/english/no-such-post",
    "/hindi/no-such-post",
    "/marathi/no-such-post",
    "/post/no-such-page",
    "/tag/no-such-tag",
    "/category/no-such-category",
    "/no/such/path",
  ];
  // The 404 speaks the language its address starts with; within a language,
  // an unpublished post's 404 is the same page as a post that never existed.
  const bodies = new Map<string, Set<string>>();
  for (const path of paths) {
    const { status, doc } = await getHtml(`${server.url}${path}`);
    expect(status, path).toBe(404);
    // Inside the frame: header, search box and footer are there.
    expect(doc.querySelector("form[role=search]"), path).not.toBeNull();
    expect(doc.querySelector(".site-footer"), path).not.toBeNull();
    const language = /^\/(hindi|marathi)\//.exec(path)?.[1] ?? "english";
    const seen = bodies.get(language) ?? new Set<string>();
    seen.add(doc.querySelector("main")?.innerHTML ?? "");
    bodies.set(language, seen);
  }
  expect([...bodies.keys()].sort()).toEqual(["english", "hindi", "marathi"]);
  for (const [language, seen] of bodies) expect(seen.size, language).toBe(1);
});

test("a trimmed address redirects to the page it was part of", async () => {
  const expected = {
    "/english": "/english/home",
    "/hindi/": "/hindi/home",
    "/marathi": "/marathi/home",
    "/tag": "/tags",
    "/category/": "/tags",
  };
  for (const [from, to] of Object.entries(expected)) {
    const response = await fetch(`${server.url}${from}`, { redirect: "manual" });
    expect(response.status, from).toBe(301);
    expect(response.headers.get("location"), from).toBe(to);
  }
  expect((await fetch(`${server.url}/english/home`)).status).toBe(200);
});

test("an address that differs only in letter case answers 301 to the site's address", async () => {
  const english = byLanguage("english")[0]!;
  const db = openReadonly(server.dbPath);
  const tagRow = db
    .prepare("SELECT slug FROM terms WHERE kind = 'tag' AND slug GLOB '[a-z]*' LIMIT 1")
    .pluck()
    .get() as string;
  db.close();
  const capitalised = `${tagRow[0]!.toUpperCase()}${tagRow.slice(1)}`;
  const expected = {
    "/ENGLISH/HOME": "/english/home",
    "/English/home?page=2": "/english/home?page=2",
    "/TAGS": "/tags",
    [`/tag/${capitalised}`]: `/tag/${tagRow}`,
    [postPath("english", english.slug).toUpperCase()]: postPath("english", english.slug),
  };
  for (const [from, to] of Object.entries(expected)) {
    const response = await fetch(`${server.url}${from}`, { redirect: "manual" });
    expect(response.status, from).toBe(301);
    // The post route moves a capitalised slug in a second step; follow to the end.
    const final = await fetch(`${server.url}${from}`);
    expect(new URL(final.url).pathname + new URL(final.url).search, from).toBe(to);
    expect(final.status, from).toBe(200);
  }
  // A slug no post has, in any case, is still a 404.
  expect((await fetch(`${server.url}/english/NO-SUCH-POST`)).status).toBe(404);
});

test("no image served from public/ shows an unpublished post's quote", async () => {
  const publishedImages = new Set(published.map((post) => post.featureImageUrl));
  const cards = readdirSync(path.resolve("public/images/cards")).map((file) => `/images/cards/${file}`);
  expect(cards.length).toBeGreaterThan(100);
  for (const card of cards) expect(publishedImages.has(card), card).toBe(true);
  for (const post of unpublished) {
    if (!post.featureImageUrl.startsWith("/") || publishedImages.has(post.featureImageUrl)) continue;
    expect((await fetch(`${server.url}${post.featureImageUrl}`)).status, post.featureImageUrl).toBe(404);
  }
});

test("Hindi and Marathi pages, their 404s included, speak their language in the frame", async () => {
  const cases = [
    ["/hindi/home", 200, "hi", "मुखपृष्ठ", "टैग", "रचनाकार", "सूक्तियाँ खोजें"],
    ["/hindi/no-such-post", 404, "hi", "मुखपृष्ठ", "टैग", "रचनाकार", "सूक्तियाँ खोजें"],
    ["/marathi/home?page=999", 404, "mr", "मुखपृष्ठ", "टॅग", "रचनाकार", "सुविचार शोधा"],
    ["/english/no-such-post", 404, "en", "Home", "Tags", "People", "Search quotes"],
  ] as const;
  for (const [target, status, lang, home, tags, people, searchLabel] of cases) {
    const page = await getHtml(`${server.url}${target}`);
    expect(page.status, target).toBe(status);
    expect(page.doc.querySelector("html")?.getAttribute("lang"), target).toBe(lang);
    const menu = page.doc.querySelectorAll(".main-menu a").map((a) => a.text);
    expect(menu, target).toEqual([home, "English", "हिंदी", "मराठी", tags, people]);
    expect(page.doc.querySelector('form[role="search"] label')?.text, target).toBe(searchLabel);
  }
  const notFound = await getHtml(`${server.url}/marathi/no-such-post`);
  expect(notFound.doc.querySelector("h1")?.text).toBe("पान सापडले नाही");
  expect(notFound.doc.querySelector("title")?.text).toContain("पान सापडले नाही");
});

test("a tag whose posts are all Hindi or all Marathi is shown in that language", async () => {
  const db = openReadonly(server.dbPath);
  const terms = db
    .prepare(
      `SELECT t.kind, t.slug, min(p.language) AS language
       FROM terms t JOIN post_terms pt ON pt.term_id = t.id JOIN posts p ON p.id = pt.post_id
       WHERE p.status = 'publish'
       GROUP BY t.id HAVING count(DISTINCT p.language) = 1 AND count(*) <= 24`,
    )
    .all() as { kind: "tag" | "category"; slug: string; language: string }[];
  db.close();
  const expected = {
    english: ["en", "Tag", "Category"],
    hindi: ["hi", "टैग", "श्रेणी"],
    marathi: ["mr", "टॅग", "वर्ग"],
  };
  for (const language of ["hindi", "marathi"] as const) {
    const term = terms.find((t) => t.language === language);
    expect(term, language).toBeDefined();
    const [lang, tag, category] = expected[language];
    const page = await getHtml(`${server.url}/${term!.kind}/${encodeURIComponent(term!.slug)}`);
    expect(page.status).toBe(200);
    expect(page.doc.querySelector("html")?.getAttribute("lang")).toBe(lang);
    expect(page.doc.querySelector("h1 .kicker")?.text).toBe(term!.kind === "tag" ? tag : category);
  }
});

test("the site pages live under /post", async () => {
  for (const slug of ["privacy-policy", "terms-conditions"]) {
    const { status, doc } = await getHtml(`${server.url}/post/${slug}`);
    expect(status).toBe(200);
    expect(doc.querySelector("h1")?.text.length).toBeGreaterThan(3);
  }
});

test("/post/{slug} shows a published post of any language, pointing at its own route", async () => {
  const post = byLanguage("hindi")[0]!;
  const { status, doc } = await getHtml(`${server.url}/post/${encodeURIComponent(post.slug)}`);
  expect(status).toBe(200);
  expect(doc.querySelector("h1")?.text).toBe(post.title);
  expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(
    `${server.url}${postPath("hindi", post.slug)}`,
  );
});

test("tags list only tags with published posts, and their pages list those posts", async () => {
  const { status, doc } = await getHtml(`${server.url}/tags`);
  expect(status).toBe(200);
  const tags = doc.querySelectorAll(".tag-cloud a");
  expect(tags.length).toBeGreaterThan(5);
  const first = tags[0]!;
  // A tag's page lists its posts in every language: its counts in each language's group, summed.
  const count = tags
    .filter((tag) => tag.getAttribute("href") === first.getAttribute("href"))
    .reduce((sum, tag) => sum + Number(tag.querySelector(".count")?.text), 0);
  const tagPage = await getHtml(`${server.url}${first.getAttribute("href")}`);
  expect(tagPage.status).toBe(200);
  expect(tagPage.doc.querySelectorAll(".post-card").length).toBe(Math.min(count, 24));
});

test("a post's category links to a category page that lists it", async () => {
  const post = byLanguage("english")[0]!;
  const { doc } = await getHtml(`${server.url}${postPath(post.language, post.slug)}`);
  const category = doc.querySelector('.post-terms a[href^="/category/"]');
  expect(category).not.toBeNull();
  const page = await getHtml(`${server.url}${category?.getAttribute("href")}`);
  expect(page.status).toBe(200);
  expect(page.doc.querySelectorAll(".post-card-link").map((a) => a.getAttribute("href"))).toContain(
    postPath(post.language, post.slug),
  );
});

test("the search form without JavaScript redirects to /search/{text}", async () => {
  const redirect = await fetch(`${server.url}/search?q=${encodeURIComponent("  प्रेम ")}`, {
    redirect: "manual",
  });
  expect(redirect.status).toBe(302);
  expect(redirect.headers.get("location")).toBe(`/search/${encodeURIComponent("प्रेम")}`);
  const empty = await getHtml(`${server.url}/search?q=%20%20`);
  expect(empty.status).toBe(200);
  expect(empty.doc.querySelector("h1")?.text).toBe("Search");
});

test("search lists matching published posts and escapes the text", async () => {
  const post = byLanguage("english")[0]!;
  const word = post.title.split(/\s+/).find((w) => w.length > 3) ?? post.title;
  const { status, doc } = await getHtml(`${server.url}/search/${encodeURIComponent(word)}`);
  expect(status).toBe(200);
  expect(doc.querySelectorAll(".post-card-link").map((a) => a.getAttribute("href"))).toContain(
    postPath(post.language, post.slug),
  );
  const hostile = await getHtml(
    `${server.url}/search/${encodeURIComponent('<script>alert(1)</script> " OR 1=1 --')}`,
  );
  expect(hostile.status).toBe(200);
  expect(hostile.text).not.toContain("<script>alert(1)</script>");
  const long = await getHtml(`${server.url}/search/${"a".repeat(150)}`);
  expect(long.status).toBe(200);
  expect(long.doc.querySelector("[role=status]")?.text).toContain("100 characters");
});

test("healthz answers 200 with the database up", async () => {
  const response = await fetch(`${server.url}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ ok: true });
});

test("each language home shows a link to its feed, in its language", async () => {
  for (const [language, text] of [
    ["english", "Subscribe to new quotes (RSS)"],
    ["hindi", "नई सूक्तियों की सदस्यता लें (RSS)"],
    ["marathi", "नवीन सुविचारांची सदस्यता घ्या (RSS)"],
  ] as const) {
    const { doc } = await getHtml(`${server.url}/${language}/home`);
    const link = doc.querySelector(".feed-link a");
    expect(link?.getAttribute("href"), language).toBe(`/${language}/feed.xml`);
    expect(link?.text.trim(), language).toBe(text);
    const feed = await fetch(`${server.url}/${language}/feed.xml`);
    expect(feed.headers.get("content-type"), language).toContain("application/rss+xml");
  }
});

test("a post without an image of its own leads with its text; one with an image shows it", async () => {
  const without = published.find((post) => post.featureImageUrl === "");
  const withImage = published.find((post) => post.featureImageUrl !== "");
  expect(without && withImage).toBeTruthy();
  const bare = await getHtml(`${server.url}${postPath(without!.language, without!.slug)}`);
  expect(bare.doc.querySelectorAll("article.post img")).toHaveLength(0);
  expect(bare.doc.querySelector("article.post .post-content")?.text.trim()).toBeTruthy();
  const pictured = await getHtml(`${server.url}${postPath(withImage!.language, withImage!.slug)}`);
  expect(pictured.doc.querySelector("article.post img.post-image")?.getAttribute("src")).toBe(
    withImage!.featureImageUrl,
  );
});
