import type { HTMLElement } from "node-html-parser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANG_TAG, LANGUAGES, type Language, postPath } from "#app/content/languages.ts";
import { demoSite as siteConfig } from "#app/site.config.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const ORIGIN = "https://sukti.example";
let server: RunningServer;
let published: PostRow[];
let terms: { kind: string; slug: string; language: Language | null }[];

beforeAll(async () => {
  server = await startServer({ env: { PUBLIC_URL: ORIGIN } });
  const db = openReadonly(server.dbPath);
  published = db
    .prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC`)
    .all() as PostRow[];
  terms = db
    .prepare(
      `SELECT t.kind, t.slug,
         -- A term page is in its posts' language when its first page's posts share one.
         (SELECT CASE WHEN count(DISTINCT language) = 1 THEN min(language) END FROM (
            SELECT p2.language FROM post_terms pt2 JOIN posts p2 ON p2.id = pt2.post_id AND p2.status = 'publish'
            WHERE pt2.term_id = t.id ORDER BY p2.post_time DESC, p2.id DESC LIMIT 24)) AS language
       FROM terms t JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
       GROUP BY t.id HAVING count(*) > 0 ORDER BY count(*) DESC, t.slug`,
    )
    .all() as { kind: string; slug: string; language: Language | null }[];
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

const newest = (language: Language) => published.find((p) => p.language === language)!;
const meta = (doc: HTMLElement, key: string) =>
  doc.querySelectorAll(`meta[property="${key}"], meta[name="${key}"]`).map((m) => m.getAttribute("content"));
const one = (doc: HTMLElement, key: string) => {
  const values = meta(doc, key);
  expect(values, key).toHaveLength(1);
  return values[0]!;
};
const alternates = (doc: HTMLElement) =>
  doc
    .querySelectorAll('link[rel="alternate"][hreflang]')
    .map((link) => [link.getAttribute("hreflang"), link.getAttribute("href")]);

/** Every kind of page, with the language its <html lang> must name. */
function pages(): { path: string; lang: "en" | "hi" | "mr" }[] {
  const tag = terms.find((t) => t.kind === "tag")!;
  const category = terms.find((t) => t.kind === "category")!;
  return [
    { path: "/", lang: "en" },
    ...LANGUAGES.map((language) => ({ path: `/${language}/home`, lang: LANG_TAG[language] })),
    { path: "/hindi/home?page=2", lang: "hi" },
    ...LANGUAGES.map((language) => ({
      path: postPath(language, newest(language).slug),
      lang: LANG_TAG[language],
    })),
    { path: "/tags", lang: "en" },
    { path: `/tag/${encodeURIComponent(tag.slug)}`, lang: LANG_TAG[tag.language ?? "english"] },
    {
      path: `/category/${encodeURIComponent(category.slug)}`,
      lang: LANG_TAG[category.language ?? "english"],
    },
    { path: "/post/privacy-policy", lang: "en" },
    { path: "/post/terms-conditions", lang: "en" },
    { path: "/people", lang: "en" },
    // A person's page speaks their quotes' language when they share one (Surdas: Hindi; Namdev: Marathi).
    { path: "/people/surdas", lang: "hi" },
    { path: "/people/namdev", lang: "mr" },
    { path: "/people/kabir", lang: "en" },
    // …page by page, as tag pages: Kabir's second page holds Hindi quotes only.
    { path: "/people/kabir?page=2", lang: "hi" },
  ];
}

test("every page has its own title and description, in its language, an absolute canonical URL and <html lang>", async () => {
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const { path, lang } of pages()) {
    const { status, doc } = await getHtml(`${server.url}${path}`);
    expect(status, path).toBe(200);
    expect(doc.querySelector("html")?.getAttribute("lang"), path).toBe(lang);
    const title = doc.querySelectorAll("head title");
    expect(title, path).toHaveLength(1);
    const text = title[0]!.text.trim();
    expect(text, path).not.toBe("");
    expect(titles.has(text), `${path}: title "${text}" repeats`).toBe(false);
    titles.add(text);
    const description = one(doc, "description");
    expect(description.length, path).toBeGreaterThan(20);
    expect(description.length, path).toBeLessThanOrEqual(300);
    expect(descriptions.has(description), `${path}: description repeats`).toBe(false);
    descriptions.add(description);
    if (lang !== "en") {
      expect(text, path).toMatch(/\p{Script=Devanagari}/u);
      expect(description, path).toMatch(/\p{Script=Devanagari}/u);
    }
    const canonical = doc.querySelectorAll('link[rel="canonical"]').map((l) => l.getAttribute("href"));
    expect(canonical, path).toEqual([`${ORIGIN}${path}`]);
    expect(one(doc, "og:url"), path).toBe(`${ORIGIN}${path}`);
  }
});

test("a post's canonical address is its language route, also when read at /post/{slug}", async () => {
  const post = newest("marathi");
  const { doc } = await getHtml(`${server.url}/post/${encodeURIComponent(post.slug)}`);
  const canonical = doc.querySelector('link[rel="canonical"]')?.getAttribute("href");
  expect(canonical).toBe(`${ORIGIN}${postPath("marathi", post.slug)}`);
  expect(doc.querySelector("html")?.getAttribute("lang")).toBe("mr");
});

test("post pages carry Open Graph and Twitter tags with the share image, and BlogPosting JSON-LD with the Quotation", async () => {
  const locales = { english: "en_IN", hindi: "hi_IN", marathi: "mr_IN" } as const;
  for (const language of LANGUAGES) {
    const post = newest(language);
    const path = postPath(language, post.slug);
    const { doc } = await getHtml(`${server.url}${path}`);
    expect(one(doc, "og:title")).toBe(`${post.title} · ${siteConfig.name}`);
    expect(one(doc, "og:description").length).toBeGreaterThan(10);
    expect(one(doc, "og:type")).toBe("article");
    expect(one(doc, "og:locale")).toBe(locales[language]);
    expect(one(doc, "og:url")).toBe(`${ORIGIN}${path}`);
    const image = one(doc, "og:image");
    expect(image).toMatch(new RegExp(`^${ORIGIN}/share/${language}/[0-9a-z]+/[^/]+\\.jpg$`));
    expect(one(doc, "og:image:width")).toBe("1200");
    expect(one(doc, "og:image:height")).toBe("630");
    expect(one(doc, "og:image:alt")).toBe(post.title);
    expect(one(doc, "twitter:card")).toBe("summary_large_image");
    expect(one(doc, "twitter:image")).toBe(image);
    expect(one(doc, "twitter:title")).toBe(`${post.title} · ${siteConfig.name}`);

    const scripts = doc.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    const ld = JSON.parse(scripts[0]!.innerHTML);
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("BlogPosting");
    expect(ld.headline).toBe(post.title);
    expect(ld.url).toBe(`${ORIGIN}${path}`);
    expect(ld.image.url).toBe(image);
    expect(ld.datePublished).toBe(new Date(post.postTime * 1000).toISOString());
    expect(ld.inLanguage).toBe(LANG_TAG[language]);
    // The author is the post's person (their name in the post's language, their page), else the teacher.
    const db = openReadonly(server.dbPath);
    const person = db
      .prepare(
        `SELECT pe.slug, pe.name_english AS english, pe.name_hindi AS hindi, pe.name_marathi AS marathi
         FROM posts p JOIN people pe ON pe.id = p.person_id WHERE p.language = ? AND p.slug = ?`,
      )
      .get(language, post.slug) as ({ slug: string } & Record<Language, string>) | undefined;
    const translations = db
      .prepare(
        `SELECT t.language, t.slug FROM posts p JOIN posts t ON t.translation_key = p.translation_key
         WHERE p.language = ? AND p.slug = ? AND t.status = 'publish' ORDER BY t.language`,
      )
      .all(language, post.slug) as { language: Language; slug: string }[];
    db.close();
    expect(ld.author).toEqual(
      person
        ? {
            "@type": "Person",
            name: person[language],
            url: `${ORIGIN}/people/${encodeURIComponent(person.slug)}`,
          }
        : { "@type": "Person", name: siteConfig.teacherName },
    );
    expect(ld.publisher.name).toBe(siteConfig.name);
    expect(ld.mainEntity["@type"]).toBe("Quotation");
    expect(ld.mainEntity.text.length).toBeGreaterThan(5);
    expect(ld.mainEntity.inLanguage).toBe(LANG_TAG[language]);
    // hreflang alternates: a post and its published translations, when it has any.
    expect(alternates(doc).sort()).toEqual(
      translations.length > 1
        ? translations.map((t) => [LANG_TAG[t.language], `${ORIGIN}${postPath(t.language, t.slug)}`]).sort()
        : [],
    );
  }
});

test("hreflang alternates (en, hi, mr, x-default) link the language homes, and each page of no language's three versions (decision 067)", async () => {
  const expected = [
    ["en", `${ORIGIN}/english/home`],
    ["hi", `${ORIGIN}/hindi/home`],
    ["mr", `${ORIGIN}/marathi/home`],
    ["x-default", `${ORIGIN}/`],
  ];
  for (const path of ["/english/home", "/hindi/home", "/marathi/home"]) {
    const { doc } = await getHtml(`${server.url}${path}`);
    expect(alternates(doc), path).toEqual(expected);
  }
  // The home, /tags, /people, site pages, a person of quotes in several languages: ?lang= versions.
  const languageLess = [
    "/",
    "/tags",
    "/post/privacy-policy",
    "/post/terms-conditions",
    "/people",
    "/people/kabir",
  ];
  for (const path of languageLess) {
    const { doc } = await getHtml(`${server.url}${path}`);
    expect(alternates(doc), path).toEqual([
      ["en", `${ORIGIN}${path}`],
      ["hi", `${ORIGIN}${path}?lang=hi`],
      ["mr", `${ORIGIN}${path}?lang=mr`],
      ["x-default", `${ORIGIN}${path}`],
    ]);
  }
  for (const { path } of pages().filter(
    (page) => !/^\/([a-z]+\/home)?$/.test(page.path) && !languageLess.includes(page.path),
  )) {
    const { doc } = await getHtml(`${server.url}${path}`);
    // A tag of quotes in several languages (मन: Hindi and Marathi) is a page of no language too.
    const bare = path.replace(/\?.*$/, "");
    expect(alternates(doc), path).toEqual(
      doc.querySelector(".language-switch")
        ? [
            ["en", `${ORIGIN}${bare}`],
            ["hi", `${ORIGIN}${bare}?lang=hi`],
            ["mr", `${ORIGIN}${bare}?lang=mr`],
            ["x-default", `${ORIGIN}${bare}`],
          ]
        : [],
    );
  }
});

test("every page links the three RSS feeds, the manifest, icons and a theme colour", async () => {
  for (const { path } of pages()) {
    const { doc } = await getHtml(`${server.url}${path}`);
    const feeds = doc
      .querySelectorAll('link[rel="alternate"][type="application/rss+xml"]')
      .map((link) => link.getAttribute("href"));
    // A person's page also names their own feed, first.
    const own = /^\/people\/([^/?]+)/.exec(path);
    expect(feeds, path).toEqual([
      ...(own ? [`/people/${own[1]}/feed.xml`] : []),
      "/english/feed.xml",
      "/hindi/feed.xml",
      "/marathi/feed.xml",
    ]);
    expect(doc.querySelectorAll('link[rel="manifest"]').map((l) => l.getAttribute("href"))).toEqual([
      "/manifest.webmanifest",
    ]);
    expect(doc.querySelector('meta[name="theme-color"]')?.getAttribute("content")).toMatch(/^#[0-9a-f]{6}$/i);
    expect(doc.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href")).toBe(
      "/apple-touch-icon.png",
    );
  }
  for (const feed of ["/english/feed.xml", "/hindi/feed.xml", "/marathi/feed.xml"]) {
    const response = await fetch(`${server.url}${feed}`, { method: "HEAD" });
    expect(response.status, feed).toBe(200);
  }
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect([...bytes.slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  return [view.getUint32(16), view.getUint32(20)];
}

test("the web app manifest names the site, its colours and icons that exist at their stated sizes", async () => {
  const response = await fetch(`${server.url}/manifest.webmanifest`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
  const manifest = await response.json();
  expect(manifest.short_name).toBe(siteConfig.name);
  expect(manifest.name).toContain(siteConfig.name);
  expect(manifest.start_url).toBe("/");
  expect(manifest.display).toBe("standalone");
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  const purposes = new Set<string>();
  for (const icon of manifest.icons as { src: string; sizes: string; type: string; purpose: string }[]) {
    const file = await fetch(`${server.url}${icon.src}`);
    expect(file.status, icon.src).toBe(200);
    expect(file.headers.get("content-type")).toBe(icon.type);
    const [width, height] = pngSize(new Uint8Array(await file.arrayBuffer()));
    expect(`${width}x${height}`).toBe(icon.sizes);
    purposes.add(icon.purpose);
  }
  expect([...purposes].sort()).toEqual(["any", "maskable"]);
  const sizes = (manifest.icons as { sizes: string }[]).map((icon) => icon.sizes);
  expect(sizes).toContain("192x192");
  expect(sizes).toContain("512x512");
});

test("/favicon.ico and /apple-touch-icon.png exist", async () => {
  const favicon = await fetch(`${server.url}/favicon.ico`);
  expect(favicon.status).toBe(200);
  const bytes = new Uint8Array(await favicon.arrayBuffer());
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  expect([bytes[0], bytes[1], bytes[2], bytes[3]]).toEqual([0, 0, 1, 0]);
  expect(bytes[4]).toBeGreaterThan(0);
  const touch = await fetch(`${server.url}/apple-touch-icon.png`);
  expect(touch.status).toBe(200);
  expect(pngSize(new Uint8Array(await touch.arrayBuffer()))).toEqual([180, 180]);
});
