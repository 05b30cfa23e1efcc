// The search page over HTTP, against the built server and its demo database.
import { parse } from "node-html-parser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postPath } from "#app/content/languages.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;
let unpublished: PostRow[];

beforeAll(async () => {
  server = await startServer();
  const db = openReadonly(server.dbPath);
  unpublished = db.prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status <> 'publish'`).all() as PostRow[];
  db.close();
});
afterAll(async () => {
  await server?.stop();
});

const search = (text: string, query = "") =>
  getHtml(`${server.url}/search/${encodeURIComponent(text)}${query}`);

test("a results page: count, heading and title with the text, hits with lang and marked words", async () => {
  const { status, doc } = await search("prem");
  expect(status).toBe(200);
  expect(doc.querySelector("title")?.text).toContain("Search: prem");
  expect(doc.querySelector("h1")?.text).toContain("prem");
  expect(doc.querySelector(".search-count")?.text).toMatch(/^\d+ quotes? found$/);
  const hits = doc.querySelectorAll(".search-hit");
  expect(hits.length).toBeGreaterThan(0);
  for (const hit of hits) {
    expect(["en", "hi", "mr"]).toContain(hit.getAttribute("lang"));
    expect(hit.querySelector(".search-hit-title a")?.getAttribute("href")).toMatch(
      /^\/(english|hindi|marathi)\//,
    );
  }
  expect(doc.querySelectorAll(".search-hit mark").map((m) => m.text)).toContain("प्रेम");
  // Title hits first: the first result has प्रेम in its title.
  expect(hits[0]?.querySelector(".search-hit-title mark")?.text).toBe("प्रेम");
});

test("on a results page the search box keeps the words searched; elsewhere it is empty", async () => {
  const { doc } = await search("  प्रेम  ");
  expect(doc.querySelector('form[role="search"] input[name="q"]')?.getAttribute("value")).toBe("प्रेम");
  const hostile = await search('"><script>x</script>');
  expect(hostile.text).not.toContain("<script>x</script>");
  expect(hostile.doc.querySelector('input[name="q"]')?.getAttribute("value")).toBe('"><script>x</script>');
  const tags = await getHtml(`${server.url}/tags`);
  expect(tags.doc.querySelector('input[name="q"]')?.getAttribute("value")).toBe("");
});

test("Devanagari spellings fold: शांति finds the post that writes शान्ति, and the page marks it", async () => {
  const { status, doc } = await search("शांति");
  expect(status).toBe(200);
  expect(doc.querySelectorAll(".search-hit mark").map((m) => m.text)).toContain("शान्ति");
});

test("the searched text is escaped in the title and the heading", async () => {
  const { status, text, doc } = await search('<script>alert("x")</script><img src=x onerror=alert(1)>');
  expect(status).toBe(200);
  expect(text).not.toContain("<script>alert");
  expect(text).not.toContain("<img src=x");
  expect(doc.querySelector("title")?.text).toContain('<script>alert("x")</script>');
  expect(doc.querySelector("h1 bdi")?.text).toContain("<img src=x onerror=alert(1)>");
});

test("hostile text gets a normal page, never a 500", async () => {
  const hostile = [
    '"',
    "*",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "love AND peace",
    "NEAR(love peace)",
    "(",
    ")",
    "-",
    "self-effort",
    ":",
    "title:love",
    "'; DROP TABLE posts; --",
    "1' OR '1'='1",
    "\u0000",
    "\u0007bell",
    "\u202Eevil",
    "\u200Fप्रेम\u200E",
    "🙏",
    "👨‍👩‍👧 🔥",
    "%",
    "%25",
    "../../etc/passwd",
    "a/b",
    "   ",
  ];
  for (const text of hostile) {
    const { status, doc } = await search(text);
    expect(status, text).toBe(200);
    expect(doc.querySelector("h1")?.text, text).toMatch(/^Search/);
  }
  const { doc } = await search("\u202Eevil\u0000");
  expect(doc.querySelector("h1 bdi")?.text).toBe("evil");
});

test("broken percent-encoding in the URL gets a clear message with status 400", async () => {
  for (const path of ["/search/%E0%A4", "/search/%ZZ", "/search/%", "/search/%E0%A4?page=2"]) {
    const { status, doc } = await getHtml(`${server.url}${path}`);
    expect(status, path).toBe(400);
    expect(doc.querySelector("[role=alert]")?.text, path).toContain("not valid text");
  }
  const { status } = await getHtml(`${server.url}/search?q=%E0%A4`);
  expect(status).toBeLessThan(500);
});

test("a line break in a search address leads to the same search with a space", async () => {
  const response = await fetch(`${server.url}/search/love%0Apeace`, { redirect: "manual" });
  expect(response.status).toBe(302);
  expect(response.headers.get("location")).toBe("/search/love%20peace");
  // A filter on results goes along (decision 065).
  const filtered = await fetch(`${server.url}/search/love%0Apeace?language=hindi&page=1`, {
    redirect: "manual",
  });
  expect(filtered.headers.get("location")).toBe("/search/love%20peace?language=hindi");
  const followed = await fetch(`${server.url}/search/love%0D%0Apeace`);
  expect(followed.status).toBe(200);
  expect(new URL(followed.url).pathname).toBe("/search/love%20peace");
});

test("a 10 kB text is cut to the search box's limit, and the page says so", async () => {
  const { status, doc } = await search("love ".repeat(2_000));
  expect(status).toBe(200);
  expect(doc.querySelector(".notice")?.text).toContain("limited to 100 characters");
  expect(Array.from(doc.querySelector("h1 bdi")?.text ?? "").length).toBeLessThanOrEqual(100);
});

test("the form without JavaScript redirects to /search/{text}; an empty form shows the search page", async () => {
  const { status, response } = await getHtml(`${server.url}/search?q=${encodeURIComponent("  प्रेम ")}`);
  expect(status).toBe(302);
  expect(response.headers.get("location")).toBe(`/search/${encodeURIComponent("प्रेम")}`);
  const blank = await getHtml(`${server.url}/search?q=%20%20`);
  expect(blank.status).toBe(200);
  expect(blank.doc.querySelector("h1")?.text).toBe("Search");
});

test("no results: tags, the language homes and a spelling hint", async () => {
  const latin = await search("xyzzyqq");
  expect(latin.status).toBe(200);
  expect(latin.doc.querySelector(".search-count")?.text).toBe("No quotes found");
  expect(latin.doc.querySelectorAll(".search-empty-tags a").length).toBeGreaterThan(0);
  for (const a of latin.doc.querySelectorAll(".search-empty-tags a"))
    expect(a.getAttribute("href")).toMatch(/^\/tag\//);
  const homes = latin.doc.querySelectorAll(".search-empty a").map((a) => a.getAttribute("href"));
  expect(homes).toEqual(expect.arrayContaining(["/english/home", "/hindi/home", "/marathi/home"]));
  expect(latin.doc.querySelector(".search-empty-hints")?.text).toContain("prem");
  const devanagari = await search("क्षक्षक्ष");
  expect(devanagari.doc.querySelector(".search-empty-hints")?.text).toContain("shanti");
});

test("results are paginated with ?page=N; past the end is a 404", async () => {
  const first = await search("the");
  const total = Number(first.doc.querySelector(".search-count")?.text.match(/^[\d,]+/)?.[0]);
  expect(total).toBeGreaterThan(24);
  expect(first.doc.querySelectorAll(".search-hit")).toHaveLength(24);
  const next = first.doc.querySelector("a[rel=next]")?.getAttribute("href");
  expect(next).toBe("/search/the?page=2");
  const second = await search("the", "?page=2");
  expect(second.status).toBe(200);
  const firstHrefs = first.doc.querySelectorAll(".search-hit-title a").map((a) => a.getAttribute("href"));
  const secondHrefs = second.doc.querySelectorAll(".search-hit-title a").map((a) => a.getAttribute("href"));
  expect(firstHrefs.filter((href) => secondHrefs.includes(href))).toEqual([]);
  const last = Math.ceil(total / 24);
  expect((await search("the", `?page=${last + 1}`)).status).toBe(404);
  expect((await search("the", "?page=0")).status).toBe(404);
  expect((await search("the", "?page=x")).status).toBe(404);
});

test("unpublished posts are never found, not even by their own titles", async () => {
  expect(unpublished.length).toBeGreaterThan(0);
  for (const post of unpublished) {
    const { status, text } = await search(post.title);
    expect(status).toBe(200);
    expect(text).not.toContain(`href="${postPath(post.language, post.slug)}"`);
  }
  // ज़िंदगी is only in a draft of the demo content.
  const { doc } = await search("zindagi");
  expect(doc.querySelector(".search-count")?.text).toBe("No quotes found");
});

test("nonsense gets the no-results page: no romanised guess from a run of one letter", async () => {
  for (const text of ["zzzz", "qqqq", "kkkk"]) {
    const { status, doc } = await search(text);
    expect(status, text).toBe(200);
    expect(doc.querySelector(".search-count")?.text, text).toBe("No quotes found");
    expect(doc.querySelectorAll(".search-hit"), text).toHaveLength(0);
    expect(doc.querySelectorAll(".search-empty-tags a").length, text).toBeGreaterThan(0);
  }
});

test("a Latin word lists every English post that has it before any Devanagari one", async () => {
  const db = openReadonly(server.dbPath);
  const english = db
    .prepare(
      `SELECT slug FROM posts WHERE status = 'publish' AND language = 'english'
       AND (' ' || lower(title) || ' ' || lower(content) || ' ') GLOB '*[^a-z]man[^a-z]*'`,
    )
    .pluck()
    .all() as string[];
  db.close();
  expect(english.length).toBeGreaterThan(0);
  const { doc } = await search("man");
  const languages = doc.querySelectorAll(".search-hit").map((hit) => hit.getAttribute("lang"));
  const firstDevanagari = languages.findIndex((lang) => lang !== "en");
  expect(firstDevanagari).toBeGreaterThanOrEqual(english.length);
  const hrefs = doc.querySelectorAll(".search-hit-title a").map((a) => a.getAttribute("href"));
  for (const slug of english) expect(hrefs.slice(0, firstDevanagari)).toContain(postPath("english", slug));
  // A romanised hit says what it matched as.
  const guess = doc.querySelectorAll(".search-hit")[firstDevanagari];
  expect(guess?.querySelector(".search-hit-as")?.text).toMatch(/Matched as: .*म/);
});

test("short romanised words find their Devanagari word whole; a word of another language finds its concept", async () => {
  const ke = await search("ke");
  expect(ke.doc.querySelectorAll(".search-hit mark").map((m) => m.text)).toContain("के");
  const love = await search("love");
  const marks = love.doc.querySelectorAll(".search-hit mark").map((m) => m.text);
  expect(marks).toContain("प्रेम");
  // Other languages after every post with the word itself.
  const hits = love.doc.querySelectorAll(".search-hit");
  const withWord = hits
    .map((hit, i) => (hit.querySelectorAll("mark").some((m) => /^lov/i.test(m.text)) ? i : -1))
    .filter((i) => i >= 0);
  const firstOther = hits.findIndex((hit) => hit.getAttribute("lang") !== "en");
  expect(withWord.length).toBeGreaterThan(0);
  expect(firstOther).toBeGreaterThan(Math.max(...withWord));
  expect(hits[firstOther]?.querySelector(".search-hit-as")?.text).toContain("प्रेम");
});

test("the no-results page says so once", async () => {
  const { text } = await search("zzzz");
  expect(text.match(/No quotes/g)).toHaveLength(1);
});

// A filter on results (decision 065): ?language= on /search/{text}, plain links, in the database.
describe("results in one language", () => {
  const hitLangs = (doc: Awaited<ReturnType<typeof search>>["doc"]) =>
    doc.querySelectorAll(".search-hit").map((hit) => hit.getAttribute("lang"));
  const countOf = (doc: Awaited<ReturnType<typeof search>>["doc"]) =>
    Number(/^(\d+) quotes? found$/.exec(doc.querySelector(".search-count")?.text ?? "")?.[1] ?? Number.NaN);

  test("the filter's links, the one shown marked; each language's results are its own, and add up to all", async () => {
    const all = await search("prem");
    const links = all.doc.querySelectorAll("nav.search-languages a");
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "/search/prem",
      "/search/prem?language=english",
      "/search/prem?language=hindi",
      "/search/prem?language=marathi",
    ]);
    expect(links.map((a) => a.text)).toEqual(["All", "English", "हिंदी", "मराठी"]);
    expect(links.map((a) => a.getAttribute("lang") ?? null)).toEqual([null, "en", "hi", "mr"]);
    expect(links.map((a) => a.getAttribute("aria-current") ?? null)).toEqual(["page", null, null, null]);
    expect(new Set(hitLangs(all.doc)).size).toBeGreaterThan(1);
    let sum = 0;
    for (const [language, lang] of [
      ["english", "en"],
      ["hindi", "hi"],
      ["marathi", "mr"],
    ] as const) {
      const { status, doc } = await search("prem", `?language=${language}`);
      expect(status).toBe(200);
      const langs = hitLangs(doc);
      expect(langs.length, language).toBeGreaterThan(0);
      expect(
        langs.every((l) => l === lang),
        language,
      ).toBe(true);
      expect(countOf(doc), language).toBe(langs.length);
      sum += countOf(doc);
      const current = doc.querySelectorAll("nav.search-languages a[aria-current=page]");
      expect(current.map((a) => a.getAttribute("href"))).toEqual([`/search/prem?language=${language}`]);
    }
    expect(sum).toBe(countOf(all.doc));
  });

  test("the filter survives pagination, and each page of a language holds only it", async () => {
    const first = await search("the", "?language=english");
    expect(hitLangs(first.doc).every((l) => l === "en")).toBe(true);
    expect(hitLangs(first.doc)).toHaveLength(24);
    const next = first.doc.querySelector("a[rel=next]")?.getAttribute("href");
    expect(next).toBe("/search/the?language=english&page=2");
    const second = await getHtml(`${server.url}${next}`);
    expect(second.status).toBe(200);
    expect(hitLangs(second.doc).every((l) => l === "en")).toBe(true);
    const titles = (doc: typeof first.doc) => doc.querySelectorAll(".search-hit-title a").map((a) => a.text);
    expect(titles(second.doc).filter((t) => titles(first.doc).includes(t))).toEqual([]);
    expect(second.doc.querySelector("a[rel=prev]")?.getAttribute("href")).toBe(
      "/search/the?language=english",
    );
    // The filter's links start again at page 1.
    expect(hrefs(second.doc, "nav.search-languages a")).toContain("/search/the?language=hindi");
    // A page past the language's last is not found.
    expect((await search("the", "?language=english&page=99")).status).toBe(404);
  });

  test("the form without JavaScript keeps the filter; any other value is every language", async () => {
    const form = await fetch(`${server.url}/search?q=prem&language=marathi&utm_source=x`, {
      redirect: "manual",
    });
    expect(form.status).toBe(302);
    expect(form.headers.get("location")).toBe("/search/prem?language=marathi");
    const junk = await fetch(`${server.url}/search?q=prem&language=klingon`, { redirect: "manual" });
    expect(junk.headers.get("location")).toBe("/search/prem");
    const unfiltered = await search("prem", "?language=all");
    expect(new Set(hitLangs(unfiltered.doc)).size).toBeGreaterThan(1);
  });

  test("a filtered page is kept under its own address: served again from the cache, still filtered", async () => {
    const url = `${server.url}/search/${encodeURIComponent("प्रेम")}?language=marathi`;
    let cache: string | null = null;
    let html = "";
    for (let tries = 0; tries < 400 && cache !== "HIT"; tries++) {
      const response = await fetch(url);
      cache = response.headers.get("x-cache");
      html = await response.text();
      if (cache !== "HIT") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(cache).toBe("HIT");
    const doc = parse(html);
    expect(doc.querySelector("nav.search-languages a[aria-current=page]")?.text).toBe("मराठी");
    expect(hitLangs(doc).length).toBeGreaterThan(0);
    expect(hitLangs(doc).every((l) => l === "mr")).toBe(true);
    // The bare address is its own page (all languages), not the filtered one.
    const bare = await search("प्रेम");
    expect(new Set(hitLangs(bare.doc)).size).toBeGreaterThan(1);
  });
});
