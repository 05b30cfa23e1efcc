// People and the menu over HTTP against the built server on the demo
// data (decision 066): /people's counts per language (published posts only,
// drafts imported through `sukti` change nothing), each person's line on
// /people and on their page in the page's language, People in the main menu
// in the page's language, the menu item of the page's section marked with
// aria-current, and the zero-results page's popular tags with their language.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { HTMLElement } from "node-html-parser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANG_TAG, LANGUAGE_LABEL, LANGUAGES, type Language } from "#app/content/languages.ts";
import { demoContentPath } from "#app/data/demo.server.ts";
import { eventually, expectCache, warm } from "#tests/support/cache-pages.ts";
import { runSukti } from "#tests/support/cli.ts";
import { openReadonly } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = openReadonly(server.dbPath);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** The published quotes per person and language, as the database holds them. */
function publishedCounts(): Map<string, Partial<Record<Language, number>>> {
  const rows = query<{ slug: string; language: Language; count: number }>(
    `SELECT pe.slug, p.language, count(*) AS count FROM people pe
     JOIN posts p ON p.person_id = pe.id AND p.status = 'publish' GROUP BY pe.id, p.language`,
  );
  const counts = new Map<string, Partial<Record<Language, number>>>();
  for (const row of rows) counts.set(row.slug, { ...counts.get(row.slug), [row.language]: row.count });
  return counts;
}

const LANGUAGE_OF_LABEL = new Map(LANGUAGES.map((language) => [LANGUAGE_LABEL[language], language]));

/** /people's entries: slug → the counts it shows per language, and its line. */
async function listedPeople() {
  const { doc } = await getHtml(`${server.url}/people`);
  const listed = new Map<string, { counts: Partial<Record<Language, number>>; about: HTMLElement | null }>();
  for (const li of doc.querySelectorAll(".people-list li")) {
    const slug = decodeURIComponent(li.querySelector("a")!.getAttribute("href")!.replace("/people/", ""));
    const counts: Partial<Record<Language, number>> = {};
    for (const entry of li.querySelectorAll(".person-count")) {
      const label = entry.querySelector("span[lang]")!;
      const language = LANGUAGE_OF_LABEL.get(label.text)!;
      expect(label.getAttribute("lang"), slug).toBe(LANG_TAG[language]);
      // Language, number and word in one span (white-space: nowrap), the number and its word one text.
      expect(entry.text, slug).toMatch(/^\S+ \d+ \S+$/);
      counts[language] = Number(/\d+/.exec(entry.text)![0]);
    }
    listed.set(slug, { counts, about: li.querySelector(".person-about") });
  }
  return listed;
}

test("/people shows each person's count of published quotes per language, only languages they have any in", async () => {
  const expected = publishedCounts();
  expect(expected.size).toBeGreaterThan(10);
  // The demo has people quoted in two languages (Kabir: English and Hindi).
  expect(Object.keys(expected.get("kabir") ?? {}).sort()).toEqual(["english", "hindi"]);
  const listed = await listedPeople();
  expect(new Map([...listed].map(([slug, entry]) => [slug, entry.counts]))).toEqual(expected);
  // The nowrap rule is in the page's styles (inline or linked).
  const { doc, text } = await getHtml(`${server.url}/people`);
  const sheets = doc.querySelectorAll('link[rel="stylesheet"]').map((link) => link.getAttribute("href")!);
  const linked = await Promise.all(sheets.map(async (href) => (await fetch(`${server.url}${href}`)).text()));
  expect([text, ...linked].join("")).toMatch(/\.person-count\{white-space:nowrap\}/);
});

test("drafts are never counted and never write a person's line", async () => {
  const before = await listedPeople();
  const kabir = before.get("kabir")!;
  const file = path.join(server.dir, "people-drafts.json");
  writeFileSync(
    file,
    JSON.stringify({
      posts: [
        // Kabir in Marathi, a draft: no मराठी count, no new line.
        {
          idNum: 9101,
          language: "marathi",
          status: "draft",
          postTime: 1_700_000_000,
          title: "कबीराचा मसुदा",
          slug: "कबीराचा-मसुदा",
          content: "<p>मसुदा</p>",
          source: { person: { name: "कबीर", about: { en: "A draft's line.", mr: "मसुद्याची ओळ" } } },
        },
        // One more Hindi quote of Kabir, pending: not counted.
        {
          idNum: 9102,
          language: "hindi",
          status: "pending",
          postTime: 1_700_000_100,
          title: "कबीर का मसौदा",
          slug: "कबीर-का-मसौदा",
          content: "<p>मसौदा</p>",
          source: "कबीर",
        },
      ],
    }),
  );
  const result = await runSukti(["import", file], { DATABASE_URL: `file:${server.dbPath}` });
  expect(result.status, result.stderr).toBe(0);
  const after = await listedPeople();
  expect(after.get("kabir")!.counts).toEqual(kabir.counts);
  expect(after.get("kabir")!.counts.marathi).toBeUndefined();
  expect(after.get("kabir")!.about?.text).toBe(kabir.about?.text);
  const page = await getHtml(`${server.url}/people/kabir`);
  expect(page.text).not.toContain("मसुद्याची ओळ");
  expect(page.text).not.toContain("A draft&#x27;s line");
});

test("each demo person's line is shown on /people (English) and on their page in the page's language", async () => {
  const people = query<{ slug: string; en: string; hi: string; mr: string }>(
    "SELECT slug, about_english AS en, about_hindi AS hi, about_marathi AS mr FROM people",
  );
  const listed = await listedPeople();
  for (const [slug] of listed) {
    const row = people.find((person) => person.slug === slug)!;
    // Every real person of the demo has a line in each language, imported from demo-content.json.
    expect(row.en, slug).toMatch(/\.$/);
    expect(row.hi, slug).not.toBe("");
    expect(row.mr, slug).not.toBe("");
    const about = listed.get(slug)!.about;
    expect(about?.text, slug).toBe(row.en);
    expect(about?.getAttribute("lang"), slug).toBe("en");
  }
  // Rahim's quotes are all Hindi: his page is in Hindi, and so is his line.
  const rahim = await getHtml(`${server.url}/people/rahim`);
  expect(rahim.doc.querySelector(".person-page")?.getAttribute("lang")).toBe("hi");
  const line = rahim.doc.querySelector(".person-page .person-about");
  expect(line?.text).toBe(people.find((person) => person.slug === "rahim")!.hi);
  expect(line?.getAttribute("lang")).toBe("hi");
  // Kabir's are English and Hindi: an English page, his English line.
  const kabir = await getHtml(`${server.url}/people/kabir`);
  expect(kabir.doc.querySelector(".person-page .person-about")?.text).toMatch(/^15th century\. /);
  // The person page counts per language too.
  expect(kabir.doc.querySelectorAll(".person-summary .person-count").map((entry) => entry.text)).toEqual([
    expect.stringMatching(/^English \d+ quotes?$/),
    expect.stringMatching(/^हिंदी \d+ quotes?$/),
  ]);
});

test("a changed line reaches the person's page and /people; other people's pages stay cached", async () => {
  const pages = ["/people", "/people/tukaram", "/people/kabir"];
  const before = await warm(server.url, pages);
  // An English Tukaram post of the demo, imported again as it is, but for its person's line.
  const demo = JSON.parse(readFileSync(demoContentPath(), "utf8")) as { posts: Record<string, unknown>[] };
  const post = demo.posts.find(
    (record) =>
      record.language === "english" &&
      record.status === "publish" &&
      (record.source as { person?: unknown } | undefined)?.person === "Tukaram",
  )!;
  const line = "17th century. A line changed by a test.";
  const file = path.join(server.dir, "people-line.json");
  writeFileSync(
    file,
    JSON.stringify({
      posts: [
        { ...post, source: { ...(post.source as object), person: { name: "Tukaram", about: { en: line } } } },
      ],
    }),
  );
  const result = await runSukti(["import", file], { DATABASE_URL: `file:${server.dbPath}` });
  expect(result.status, result.stderr).toBe(0);
  // Refreshed as a write refreshes a page (decision 057): served from the cache, rendered again behind it.
  await expectCache(server.url, before, {
    refreshed: ["/people", "/people/tukaram"],
    kept: ["/people/kabir"],
  });
  await eventually(server.url, "/people/tukaram", (seen) => seen.body.includes(line));
  await eventually(server.url, "/people", (seen) => seen.body.includes(line));
  expect((await listedPeople()).get("tukaram")?.about?.text).toBe(line);
});

/** The menu's items: [href, text, aria-current] (null: none). */
async function menu(address: string) {
  const { status, doc } = await getHtml(`${server.url}${address}`);
  const items = doc
    .querySelectorAll(".main-menu a")
    .map((a) => [a.getAttribute("href"), a.text, a.getAttribute("aria-current") ?? null] as const);
  return { status, items, current: items.filter(([, , current]) => current !== null) };
}

test("People is in the main menu, in the page's language", async () => {
  for (const [address, label, lang] of [
    ["/", "People", ""],
    ["/english/home", "People", ""],
    ["/hindi/home", "रचनाकार", "?lang=hi"],
    ["/marathi/home", "रचनाकार", "?lang=mr"],
  ] as const) {
    const { items } = await menu(address);
    // Links to pages of no language carry the page's (decision 067).
    expect(
      items.map(([href]) => href),
      address,
    ).toEqual([
      `/${lang}`,
      "/english/home",
      "/hindi/home",
      "/marathi/home",
      `/tags${lang}`,
      `/people${lang}`,
    ]);
    expect(items.at(-1)?.[1], address).toBe(label);
  }
});

test("the menu marks the section the page belongs to", async () => {
  const [hindiPost] = query<{ slug: string }>(
    "SELECT slug FROM posts WHERE language = 'hindi' AND status = 'publish' ORDER BY id LIMIT 1",
  );
  const [marathiPost] = query<{ slug: string }>(
    "SELECT slug FROM posts WHERE language = 'marathi' AND status = 'publish' ORDER BY id LIMIT 1",
  );
  const [tag] = query<{ slug: string }>(
    `SELECT t.slug FROM terms t JOIN post_terms pt ON pt.term_id = t.id JOIN posts p ON p.id = pt.post_id
     WHERE t.kind = 'tag' AND p.status = 'publish' LIMIT 1`,
  );
  const [category] = query<{ slug: string }>(
    `SELECT t.slug FROM terms t JOIN post_terms pt ON pt.term_id = t.id JOIN posts p ON p.id = pt.post_id
     WHERE t.kind = 'category' AND p.status = 'publish' LIMIT 1`,
  );
  const cases: [string, string | null, string | null][] = [
    ["/", "/", "page"],
    ["/hindi/home", "/hindi/home", "page"],
    ["/hindi/home?page=2", "/hindi/home", "page"],
    // A Hindi post marks हिंदी, at its own address and at /post/{slug}.
    [`/hindi/${encodeURIComponent(hindiPost!.slug)}`, "/hindi/home", "true"],
    [`/post/${encodeURIComponent(hindiPost!.slug)}`, "/hindi/home", "true"],
    [`/marathi/${encodeURIComponent(marathiPost!.slug)}`, "/marathi/home", "true"],
    ["/tags", "/tags", "page"],
    [`/tag/${encodeURIComponent(tag!.slug)}`, "/tags", "true"],
    [`/category/${encodeURIComponent(category!.slug)}`, "/tags", "true"],
    ["/people", "/people", "page"],
    ["/people/kabir", "/people", "true"],
    // No section: search (the menu has no Search item), a site page, a page not found.
    ["/search/love", null, null],
    ["/search/xyzzyqq", null, null],
    ["/post/privacy-policy", null, null],
    ["/hindi/no-such-post", null, null],
    ["/people/no-such-person", null, null],
  ];
  for (const [address, href, current] of cases) {
    const result = await menu(address);
    expect(result.status, address).toBeLessThan(address.includes("no-such") ? 500 : 300);
    expect(
      result.current.map(([itemHref, , itemCurrent]) => [itemHref, itemCurrent]),
      address,
    ).toEqual(href ? [[href, current]] : []);
  }
});

test("the zero-results page's popular tags each carry their language: lang and a label", async () => {
  const { doc } = await getHtml(`${server.url}/search/xyzzyqq`);
  const tags = doc.querySelectorAll(".search-empty-tags li");
  expect(tags.length).toBeGreaterThan(0);
  const languages = new Set<string>();
  for (const li of tags) {
    const link = li.querySelector("a")!;
    const label = li.querySelector(".tag-language")!;
    const language = LANGUAGE_OF_LABEL.get(label.text)!;
    expect(language, link.text).toBeDefined();
    expect(link.getAttribute("lang"), link.text).toBe(LANG_TAG[language]);
    expect(label.getAttribute("lang"), link.text).toBe(LANG_TAG[language]);
    languages.add(language);
    // The label is the language most of the tag's published posts are in.
    const slug = decodeURIComponent(link.getAttribute("href")!.replace("/tag/", ""));
    const [most] = query<{ language: Language }>(
      `SELECT p.language FROM terms t JOIN post_terms pt ON pt.term_id = t.id JOIN posts p ON p.id = pt.post_id
       WHERE t.kind = 'tag' AND t.slug = ? AND p.status = 'publish'
       GROUP BY p.language ORDER BY count(*) DESC, p.language LIMIT 1`,
      slug,
    );
    expect(language, link.text).toBe(most!.language);
  }
  // The demo's popular tags are not all of one language.
  expect(languages.size).toBeGreaterThan(1);
});
