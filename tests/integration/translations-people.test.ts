// Decision 039 over HTTP against the built server on the demo data: a post's
// source and its "Read in" links, hreflang and JSON-LD; /people and
// /people/{slug} with its feed and sitemap entries; search by person and
// work. Unpublished posts are never linked, listed or counted: the test
// imports drafts into groups and for a new person, and unpublishes a
// translation, through the `sukti` command as an operator would.
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { HTMLElement } from "node-html-parser";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANG_TAG, type Language, postPath } from "#app/content/languages.ts";
import { runSukti } from "#tests/support/cli.ts";
import { openReadonly } from "#tests/support/db.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const ORIGIN = "https://sukti.example";
let server: RunningServer;

interface GroupRow {
  key: string;
  language: Language;
  slug: string;
}

beforeAll(async () => {
  server = await startServer({ env: { PUBLIC_URL: ORIGIN } });
});
afterAll(async () => {
  await server?.stop();
});

/** `sukti …` on the server's database, in this process (tests/support/cli.ts). */
async function sukti(...args: string[]) {
  const result = await runSukti(args, { DATABASE_URL: `file:${server.dbPath}` });
  expect(result.status, result.stderr).toBe(0);
}

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = openReadonly(server.dbPath);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Published posts in translation groups of two or more published posts. */
function publishedGroups(): Map<string, GroupRow[]> {
  const rows = query<GroupRow>(
    `SELECT translation_key AS key, language, slug FROM posts
     WHERE status = 'publish' AND translation_key IN (
       SELECT translation_key FROM posts WHERE status = 'publish' AND translation_key IS NOT NULL
       GROUP BY translation_key HAVING count(*) > 1)
     ORDER BY translation_key, language`,
  );
  const groups = new Map<string, GroupRow[]>();
  for (const row of rows) groups.set(row.key, [...(groups.get(row.key) ?? []), row]);
  return groups;
}

const readIn = (doc: HTMLElement) =>
  doc.querySelectorAll(".post-translations a").map((a) => ({
    href: a.getAttribute("href"),
    lang: a.getAttribute("lang"),
    hreflang: a.getAttribute("hreflang"),
    text: a.text,
  }));
const headAlternates = (doc: HTMLElement) =>
  doc
    .querySelectorAll('head link[rel="alternate"][hreflang]')
    .map((link) => [link.getAttribute("hreflang"), link.getAttribute("href")])
    .sort();
const jsonLd = (doc: HTMLElement) =>
  JSON.parse(doc.querySelector('script[type="application/ld+json"]')?.text ?? "null") as Record<
    string,
    unknown
  >;

test("every post of a translation group links to the others: Read in links, hreflang, JSON-LD", async () => {
  const groups = publishedGroups();
  expect(groups.size).toBeGreaterThanOrEqual(5);
  const names = { english: "English", hindi: "हिंदी", marathi: "मराठी" };
  for (const members of groups.values()) {
    for (const post of members) {
      const others = members.filter((other) => other !== post);
      const { status, doc } = await getHtml(`${server.url}${postPath(post.language, post.slug)}`);
      expect(status).toBe(200);
      expect(readIn(doc)).toEqual(
        others.map((other) => ({
          href: postPath(other.language, other.slug),
          lang: LANG_TAG[other.language],
          hreflang: LANG_TAG[other.language],
          text: names[other.language],
        })),
      );
      expect(headAlternates(doc)).toEqual(
        members
          .map((member) => [LANG_TAG[member.language], `${ORIGIN}${postPath(member.language, member.slug)}`])
          .sort(),
      );
      const ld = jsonLd(doc);
      expect((ld.workTranslation as { url: string }[]).map((t) => t.url)).toEqual(
        others.map((other) => `${ORIGIN}${postPath(other.language, other.slug)}`),
      );
    }
  }
});

test("a post alone has no Read in links and no hreflang of its own", async () => {
  const [alone] = query<GroupRow>(
    "SELECT language, slug FROM posts WHERE status = 'publish' AND translation_key IS NULL ORDER BY id LIMIT 1",
  );
  const { doc } = await getHtml(`${server.url}${postPath(alone!.language, alone!.slug)}`);
  expect(doc.querySelector(".post-translations")).toBeNull();
  expect(headAlternates(doc)).toEqual([]);
});

test("a post shows its source under the quote, in the page's language, and in JSON-LD and the share message", async () => {
  const rows = query<{
    language: Language;
    slug: string;
    work: string;
    person: string;
    en: string;
    hi: string;
    mr: string;
  }>(
    `SELECT p.language, p.slug, p.work, pe.slug AS person, pe.name_english AS en, pe.name_hindi AS hi,
       pe.name_marathi AS mr
     FROM posts p JOIN people pe ON pe.id = p.person_id
     WHERE p.status = 'publish' AND p.work <> '' ORDER BY p.id`,
  );
  for (const language of ["english", "hindi", "marathi"] as const) {
    const row = rows.find((r) => r.language === language);
    expect(row, language).toBeDefined();
    const { doc } = await getHtml(`${server.url}${postPath(row!.language, row!.slug)}`);
    const name = { english: row!.en, hindi: row!.hi, marathi: row!.mr }[language];
    const source = doc.querySelector(".post-source");
    expect(source?.querySelector("a")?.getAttribute("href")).toBe(
      `/people/${encodeURIComponent(row!.person)}`,
    );
    expect(source?.querySelector("a")?.text).toBe(name);
    expect(source?.querySelector("cite")?.text).toBe(row!.work);
    // Inside the post's lang: Devanagari names are read as Hindi or Marathi.
    expect(doc.querySelector(".post-layout")?.getAttribute("lang")).toBe(LANG_TAG[language]);
    const ld = jsonLd(doc);
    expect(ld.author).toEqual({
      "@type": "Person",
      name,
      url: `${ORIGIN}/people/${encodeURIComponent(row!.person)}`,
    });
    const whatsapp = hrefs(doc, ".share-list a").find((href) => href.startsWith("https://wa.me/"))!;
    expect(decodeURIComponent(whatsapp)).toContain(`— ${name}`);
  }
});

test("/people lists each person once with their count of published quotes; /people/{slug} lists them newest first", async () => {
  const people = query<{ slug: string; count: number }>(
    `SELECT pe.slug, count(*) AS count FROM people pe JOIN posts p ON p.person_id = pe.id AND p.status = 'publish'
     GROUP BY pe.id`,
  );
  expect(people.length).toBeGreaterThan(5);
  const { doc } = await getHtml(`${server.url}/people`);
  // Each language's count (decision 066) adds up to the person's published quotes.
  const listed = doc.querySelectorAll(".people-list li").map((li) => ({
    slug: decodeURIComponent(li.querySelector("a")!.getAttribute("href")!.replace("/people/", "")),
    count: li
      .querySelectorAll(".person-count")
      .reduce((sum, entry) => sum + Number(/\d+/.exec(entry.text)![0]), 0),
  }));
  expect([...listed].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(
    [...people].sort((a, b) => a.slug.localeCompare(b.slug)),
  );
  // The most quoted person's pages: 24 a page, newest first, every language, then 404.
  const top = [...people].sort((a, b) => b.count - a.count)[0]!;
  expect(top.count).toBeGreaterThan(24);
  const expected = query<{ language: Language; slug: string }>(
    `SELECT p.language, p.slug FROM posts p JOIN people pe ON pe.id = p.person_id
     WHERE pe.slug = ? AND p.status = 'publish' ORDER BY p.post_time DESC, p.id DESC`,
    top.slug,
  ).map((post) => postPath(post.language, post.slug));
  const seen: string[] = [];
  for (let page = 1; page <= Math.ceil(top.count / 24); page++) {
    const { status, doc: list } = await getHtml(
      `${server.url}/people/${top.slug}${page > 1 ? `?page=${page}` : ""}`,
    );
    expect(status).toBe(200);
    seen.push(...hrefs(list, ".post-card-link"));
  }
  expect(seen).toEqual(expected);
  expect(
    (await getHtml(`${server.url}/people/${top.slug}?page=${Math.ceil(top.count / 24) + 1}`)).status,
  ).toBe(404);
  expect((await getHtml(`${server.url}/people/no-such-person`)).status).toBe(404);
  // Its feed: the same posts, newest first, with who said them.
  const feed = await (await fetch(`${server.url}/people/${top.slug}/feed.xml`)).text();
  const links = [...feed.matchAll(/<link>([^<]+)<\/link>/g)].map((m) => m[1]).slice(1);
  expect(links).toEqual(expected.slice(0, 50).map((href) => `${ORIGIN}${href}`));
  expect(feed).toContain("<dc:creator>");
  // The sitemaps name /people and every person's page.
  const terms = await (await fetch(`${server.url}/sitemaps/terms.xml`)).text();
  for (const person of people)
    expect(terms).toContain(`<loc>${ORIGIN}/people/${encodeURIComponent(person.slug)}</loc>`);
  expect(await (await fetch(`${server.url}/sitemaps/pages.xml`)).text()).toContain(
    `<loc>${ORIGIN}/people</loc>`,
  );
});

test("search finds a quote by its person, in any script, and by its work", async () => {
  const [row] = query<{ language: Language; slug: string; en: string; work: string }>(
    `SELECT p.language, p.slug, pe.name_english AS en, p.work FROM posts p JOIN people pe ON pe.id = p.person_id
     WHERE p.status = 'publish' AND p.language = 'marathi' AND p.work <> '' ORDER BY p.id LIMIT 1`,
  );
  for (const text of [row!.en, row!.work]) {
    const found: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const { doc } = await getHtml(
        `${server.url}/search/${encodeURIComponent(text)}${page > 1 ? `?page=${page}` : ""}`,
      );
      found.push(...hrefs(doc, ".search-hit a").map(decodeURIComponent));
      if (!doc.querySelector('a[rel="next"]')) break;
    }
    expect(found, text).toContain(decodeURIComponent(postPath(row!.language, row!.slug)));
  }
});

test("unpublished posts are never linked, listed or counted", async () => {
  const groups = publishedGroups();
  const [key, members] = [...groups.entries()].find(
    ([, m]) => m.length === 2 && m.every((p) => p.language !== "hindi"),
  )!;
  const file = path.join(server.dir, "drafts.json");
  writeFileSync(
    file,
    JSON.stringify({
      posts: [
        // A draft Hindi translation in the group, and a draft by someone with no published quote.
        {
          idNum: 9001,
          language: "hindi",
          status: "draft",
          postTime: 1_700_000_000,
          title: "मसौदा अनुवाद",
          slug: "मसौदा-अनुवाद",
          content: "<p>मसौदा</p>",
          translationKey: key,
          source: { person: { name: "Hidden Sage", slug: "hidden-sage" } },
        },
      ],
    }),
  );
  await sukti("import", file);
  const [first, second] = members;
  const { doc } = await getHtml(`${server.url}${postPath(first!.language, first!.slug)}`);
  expect(readIn(doc).map((link) => link.href)).toEqual([postPath(second!.language, second!.slug)]);
  const people = await getHtml(`${server.url}/people`);
  expect(people.text).not.toContain("Hidden Sage");
  expect((await getHtml(`${server.url}/people/hidden-sage`)).status).toBe(404);
  expect(await (await fetch(`${server.url}/sitemaps/terms.xml`)).text()).not.toContain("hidden-sage");
  // Unpublishing one of two translations leaves the other alone: no link, no hreflang.
  await sukti("unpublish", second!.language, second!.slug);
  const after = await getHtml(`${server.url}${postPath(first!.language, first!.slug)}`);
  expect(after.doc.querySelector(".post-translations")).toBeNull();
  expect(headAlternates(after.doc)).toEqual([]);
});

test("a search hit shows who said it and its translations beside it", async () => {
  const [members] = [...publishedGroups().values()];
  const post = members!.find((member) => member.language === "english") ?? members![0]!;
  const [row] = query<{ title: string; person: string | null }>(
    `SELECT p.title, pe.slug AS person FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
     WHERE p.language = ? AND p.slug = ?`,
    post.language,
    post.slug,
  );
  const { doc } = await getHtml(`${server.url}/search/${encodeURIComponent(row!.title)}`);
  const hit = doc
    .querySelectorAll(".search-hit")
    .find((li) => li.querySelector("h2 a")?.getAttribute("href") === postPath(post.language, post.slug));
  expect(hit, row!.title).toBeDefined();
  expect(
    hit!
      .querySelectorAll(".search-hit-translations a")
      .map((a) => [a.getAttribute("href"), a.getAttribute("lang")]),
  ).toEqual(
    members!
      .filter((member) => member !== post)
      .map((member) => [postPath(member.language, member.slug), LANG_TAG[member.language]]),
  );
  if (row!.person) {
    expect(hit!.querySelector(".search-hit-person")?.getAttribute("href")).toBe(
      `/people/${encodeURIComponent(row!.person)}`,
    );
  }
});
