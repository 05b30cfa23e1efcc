// Embeds (decision 063) against the built server: the embed page
// in each language (its language, its quote, no cookie, no script, a few kB,
// framable by any site) while every other kind of page still refuses to be
// framed, rendered and from the cache; drafts, unpublished and unknown posts
// 404 on both the embed page and /oembed; oEmbed's answer, its sizes and its
// refusals; the discovery link and the Embed box on post pages.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LANG_TAG, LANGUAGES, type Language } from "#app/content/languages.ts";
import { runSukti } from "#tests/support/cli.ts";
import { getHtml } from "#tests/support/html.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

/** The embed page's budget: its HTML, uncompressed (it loads nothing else). */
const EMBED_BUDGET_BYTES = 8 * 1024;
const PUBLIC_ORIGIN = "https://quotes.example";

let server: RunningServer;
let site: RunningServer;
/** The two newest published posts of each language (their slugs as the site writes them, decoded). */
const posts = {} as Record<Language, string[]>;
const DRAFT: Record<Language, string> = {
  english: "embed-draft-quote",
  hindi: "एम्बेड-मसौदा",
  marathi: "एम्बेड-मसुदा",
};

beforeAll(async () => {
  [server, site] = await Promise.all([startServer(), startServer({ env: { PUBLIC_URL: PUBLIC_ORIGIN } })]);
  for (const language of LANGUAGES) {
    const { text } = await getHtml(`${server.url}/${language}/home`);
    posts[language] = [
      ...text.matchAll(new RegExp(`class="post-card-link" href="/${language}/([^"]+)"`, "g")),
    ]
      .slice(0, 2)
      .map((match) => decodeURIComponent(match[1] as string));
    expect(posts[language].length, language).toBe(2);
  }
  // A draft in each language, imported as an editor would (the import keeps its status).
  const file = path.join(server.dir, "drafts.json");
  writeFileSync(
    file,
    JSON.stringify({
      posts: LANGUAGES.map((language, i) => ({
        idNum: 900_001 + i,
        language,
        status: "draft",
        postTime: 1_800_000_000,
        title: `Draft ${DRAFT[language]}`,
        slug: DRAFT[language],
        content: `<p>Not yet ${DRAFT[language]}</p>`,
        excerpt: "",
        featureImageUrl: "",
        tags: [],
        categories: [],
      })),
    }),
  );
  const imported = await runSukti(["import", file], { DATABASE_URL: `file:${server.dbPath}` });
  expect(imported.status, imported.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all([server?.stop(), site?.stop()]);
});

const embedPath = (language: Language, slug: string) => `/embed/${language}/${encodeURIComponent(slug)}`;
const postUrl = (origin: string, language: Language, slug: string) =>
  `${origin}/${language}/${encodeURIComponent(slug)}`;
const oembed = (base: string, query: Record<string, string>) =>
  fetch(`${base}/oembed?${new URLSearchParams(query)}`);

/** Asked twice: rendered, then (for a page the cache keeps) from the page cache. */
async function twice(url: string): Promise<Response[]> {
  const first = await fetch(url, { redirect: "manual" });
  await first.arrayBuffer();
  const second = await fetch(url, { redirect: "manual" });
  return [first, second];
}

/** Asked until the page cache answers (a busy machine may take more than one try): the first answer and the HIT. */
async function untilCached(url: string): Promise<Response[]> {
  const first = await fetch(url);
  await first.arrayBuffer();
  const until = Date.now() + READY_MS;
  for (;;) {
    const again = await fetch(url);
    if (again.headers.get("x-cache") === "HIT") return [first, again];
    await again.arrayBuffer();
    expect(Date.now(), `${url} is never a HIT`).toBeLessThan(until);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function expectFramable(response: Response, what: string) {
  const csp = response.headers.get("content-security-policy") ?? "";
  expect(csp, what).toMatch(/(?:^|; )frame-ancestors \*(?:;|$)/);
  expect(response.headers.get("x-frame-options"), what).toBeNull();
}

/** X-Frame-Options DENY everywhere; a page's CSP says frame-ancestors 'none' (a cached feed or JSON goes out without a CSP, as before). */
function expectNotFramable(response: Response, what: string) {
  expect(response.headers.get("x-frame-options"), what).toBe("DENY");
  const csp = response.headers.get("content-security-policy");
  if (csp !== null || response.headers.get("content-type")?.startsWith("text/html"))
    expect(csp ?? "", what).toMatch(/(?:^|; )frame-ancestors 'none'(?:;|$)/);
}

describe("the embed page", () => {
  test.each(LANGUAGES)(
    "in %s: its language, the quote, who said it, a link back; no cookie, no script, a few kB; framable by any site",
    async (language) => {
      const slug = posts[language][0] as string;
      const [rendered, cached] = await twice(`${server.url}${embedPath(language, slug)}`);
      expect(cached?.headers.get("x-cache")).toBe("HIT");
      for (const response of [rendered, cached] as Response[]) {
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(response.headers.get("set-cookie")).toBeNull();
        expect(response.headers.get("x-robots-tag")).toBe("noindex");
        // A write to the post drops it (decision 057): it carries the post's tag.
        expect(response.headers.get("xkey")).toMatch(/(?:^| )post[-_]/);
        expectFramable(response, `${language} embed (${response.headers.get("x-cache")})`);
      }
      const { text, doc } = await getHtml(`${server.url}${embedPath(language, slug)}`, {
        headers: { "Accept-Encoding": "identity" },
      });
      expect(Buffer.byteLength(text)).toBeLessThan(EMBED_BUDGET_BYTES);
      const html = doc.querySelector("html");
      expect(html?.getAttribute("lang")).toBe(LANG_TAG[language]);
      expect(html?.getAttribute("dir")).toBe("ltr");
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex");
      // Nothing to run, nothing to fetch: one inline style, allowed by its hash.
      expect(doc.querySelectorAll("script").length).toBe(0);
      expect(doc.querySelectorAll("link, img, iframe").length).toBe(0);
      expect(text).not.toMatch(/ nonce="| style="/);
      expect(doc.querySelectorAll("style").length).toBe(1);
      // The quote is the post's: its text is on the post page, and the card links back to it.
      const quote = doc.querySelector("blockquote")?.text.trim() ?? "";
      expect(quote.length).toBeGreaterThan(10);
      if (language !== "english") expect(quote).toMatch(/[\u0900-\u097F]/);
      const post = await getHtml(postUrl(server.url, language, slug));
      const postText = post.doc.querySelector(".post-content")?.text.replace(/\s+/g, "") ?? "";
      expect(postText).toContain(quote.replace(/\s+/g, "").slice(0, 40));
      const back = doc.querySelector("body > a");
      expect(back?.getAttribute("href")).toBe(postUrl(server.url, language, slug));
      expect(back?.getAttribute("target")).toBe("_blank");
      expect(back?.getAttribute("rel")).toBe("noopener");
    },
  );

  test("drafts, unknown posts, other languages' slugs and other /embed/ addresses get the small 404, framable too", async () => {
    const english = posts.english[0] as string;
    const missing = [
      ...LANGUAGES.map((language) => embedPath(language, DRAFT[language])),
      embedPath("english", "no-such-quote"),
      `/embed/klingon/${encodeURIComponent(english)}`,
      `/embed/english/${encodeURIComponent(english)}/more`,
      "/embed/",
      "/embed/english/%E0%A4",
    ];
    // A slug of one language under another: only if no post of that language has it.
    if (!posts.hindi.includes(english)) missing.push(embedPath("hindi", english));
    for (const target of missing) {
      const { response, doc, text } = await getHtml(`${server.url}${target}`);
      expect(response.status, target).toBe(404);
      expect(response.headers.get("set-cookie"), target).toBeNull();
      expectFramable(response, target);
      expect(doc.querySelectorAll("script").length, target).toBe(0);
      expect(Buffer.byteLength(text), target).toBeLessThan(EMBED_BUDGET_BYTES);
      expect(text, target).not.toContain("Not yet");
    }
    const hindi = await getHtml(`${server.url}${embedPath("hindi", DRAFT.hindi)}`);
    expect(hindi.doc.querySelector("html")?.getAttribute("lang")).toBe("hi");
  });

  test("an unpublished post leaves its embed page and its oEmbed answer, though both were cached", async () => {
    const slug = posts.english[1] as string;
    const embed = `${server.url}${embedPath("english", slug)}`;
    const query = { url: postUrl(server.url, "english", slug), format: "json" };
    expect((await untilCached(embed))[0]?.status).toBe(200);
    expect((await untilCached(`${server.url}/oembed?${new URLSearchParams(query)}`))[0]?.status).toBe(200);
    const unpublished = await runSukti(["unpublish", "english", slug], {
      DATABASE_URL: `file:${server.dbPath}`,
    });
    expect(unpublished.status, unpublished.stderr).toBe(0);
    expect((await fetch(embed)).status).toBe(404);
    const answer = await oembed(server.url, query);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ error: expect.any(String) });
  });
});

test("every other kind of page still refuses to be framed, rendered and from the cache", async () => {
  const [english, hindi] = [posts.english[0] as string, posts.hindi[0] as string];
  const home = await getHtml(`${server.url}/english/home`);
  const tag = home.doc.querySelector('a[href^="/tag/"]')?.getAttribute("href");
  const post = await getHtml(postUrl(server.url, "english", english));
  const person = post.doc.querySelector('a[href^="/people/"]')?.getAttribute("href");
  const targets = [
    "/",
    "/english/home",
    "/hindi/home",
    `/english/${encodeURIComponent(english)}`,
    `/hindi/${encodeURIComponent(hindi)}`,
    `/post/${encodeURIComponent(english)}`,
    "/tags",
    "/people",
    ...(tag ? [tag] : []),
    ...(person ? [person] : []),
    "/search/love",
    "/saved",
    "/no/such/page",
    "/embed",
    "/embedded/english/x",
    "/english/feed.xml",
    "/sitemap.xml",
    "/robots.txt",
    "/images/logo.svg",
    "/healthz",
    `/oembed?${new URLSearchParams({ url: postUrl(server.url, "english", english), format: "json" })}`,
    "/oembed?url=x",
  ];
  for (const target of targets) {
    for (const response of await twice(`${server.url}${target}`)) {
      expect(response.status, target).toBeLessThan(500);
      expectNotFramable(response, `${target} (${response.headers.get("x-cache")})`);
    }
  }
});

describe("oEmbed", () => {
  test("a post's address in each of its forms gets a rich embed: the iframe of its embed page, sizes, provider, author", async () => {
    const slug = posts.hindi[0] as string;
    const canonical = postUrl(server.url, "hindi", slug);
    const answers = [];
    for (const url of [canonical, `${canonical}/`, `${server.url}/post/${encodeURIComponent(slug)}`]) {
      const response = await oembed(server.url, { url, format: "json" });
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      answers.push(await response.json());
    }
    // Without format too (json is the default).
    answers.push(await (await oembed(server.url, { url: canonical })).json());
    const [answer] = answers;
    for (const other of answers) expect(other).toEqual(answer);
    const title = (await getHtml(canonical)).doc.querySelector("h1")?.text;
    expect(answer).toMatchObject({
      type: "rich",
      version: "1.0",
      title,
      provider_name: "Sukti",
      provider_url: `${server.url}/`,
      width: 560,
      cache_age: expect.any(Number),
    });
    expect(answer.height).toBeGreaterThanOrEqual(160);
    expect(answer.height).toBeLessThanOrEqual(640);
    const iframe =
      /^<iframe src="([^"]+)" width="(\d+)" height="(\d+)" title="([^"]*)" loading="lazy"[^>]*><\/iframe>$/.exec(
        answer.html,
      );
    expect(iframe, answer.html).not.toBeNull();
    expect(iframe?.[1]).toBe(`${server.url}${embedPath("hindi", slug)}`);
    expect(Number(iframe?.[2])).toBe(answer.width);
    expect(Number(iframe?.[3])).toBe(answer.height);
    // The snippet's frame is the embed page, which answers.
    expect((await fetch(iframe?.[1] as string)).status).toBe(200);
    // Who said it, when the post names a person: their page on the site.
    const people = await Promise.all(
      LANGUAGES.flatMap((language) =>
        posts[language].map(async (s) =>
          (await oembed(server.url, { url: postUrl(server.url, language, s) })).json(),
        ),
      ),
    );
    const withAuthor = people.filter((a) => a.author_name);
    expect(withAuthor.length).toBeGreaterThan(0);
    for (const a of withAuthor) expect(a.author_url).toMatch(new RegExp(`^${server.url}/people/[^/]+$`));
  });

  test("maxwidth and maxheight are respected", async () => {
    const url = postUrl(server.url, "english", posts.english[0] as string);
    const full = await (await oembed(server.url, { url, format: "json" })).json();
    const narrow = await (await oembed(server.url, { url, format: "json", maxwidth: "320" })).json();
    expect(narrow.width).toBe(320);
    expect(narrow.html).toContain('width="320"');
    // Narrower, the quote wraps onto more lines: never a shorter frame.
    expect(narrow.height).toBeGreaterThanOrEqual(full.height);
    const wide = await (await oembed(server.url, { url, maxwidth: "2000" })).json();
    expect(wide.width).toBe(560);
    const low = await (await oembed(server.url, { url, maxwidth: "300", maxheight: "120" })).json();
    expect([low.width, low.height]).toEqual([300, 120]);
    expect(low.html).toContain('width="300" height="120"');
  });

  test("refusals: 404 for what is not a published post of this site, 400 for a bad request, 501 for another format; JSON", async () => {
    const english = posts.english[0] as string;
    const cases: [Record<string, string>, number][] = [
      [{ url: `https://elsewhere.example/english/${english}` }, 404],
      [{ url: postUrl(server.url, "english", DRAFT.english) }, 404],
      [{ url: postUrl(server.url, "hindi", DRAFT.hindi) }, 404],
      [{ url: postUrl(server.url, "english", "no-such-quote") }, 404],
      [{ url: `${server.url}/english/home` }, 404],
      [{ url: `${server.url}/tags` }, 404],
      [{ url: `${server.url}/post/privacy-policy` }, 404],
      [{ url: `${server.url}/post/${DRAFT.english}` }, 404],
      [{ url: `${server.url}${embedPath("english", english)}` }, 404],
      [{ url: `${server.url}/` }, 404],
      [{ url: postUrl(server.url, "english", english), format: "xml" }, 501],
      [{ url: "/english/x" }, 400],
      [{ url: "not an address" }, 400],
      [{ url: `javascript:alert(1)//${server.url}/english/${english}` }, 400],
      [{ url: "" }, 400],
      [{}, 400],
      [{ url: postUrl(server.url, "english", english), maxwidth: "0" }, 400],
      [{ url: postUrl(server.url, "english", english), maxheight: "-5" }, 400],
      [{ url: postUrl(server.url, "english", english), maxwidth: "wide" }, 400],
    ];
    for (const [query, status] of cases) {
      const response = await oembed(server.url, query);
      const what = JSON.stringify(query);
      expect(response.status, what).toBe(status);
      expect(response.headers.get("content-type"), what).toBe("application/json; charset=utf-8");
      const body = await response.json();
      expect(Object.keys(body), what).toEqual(["error"]);
      expect(body.error, what).toMatch(/^[^\n]{5,100}$/);
    }
  });

  test("with PUBLIC_URL, the site's public address is the one accepted, and the snippet points there", async () => {
    const { text } = await getHtml(`${site.url}/english/home`);
    const slug = /class="post-card-link" href="\/english\/([^"]+)"/.exec(text)?.[1] as string;
    const answer = await oembed(site.url, { url: `${PUBLIC_ORIGIN}/english/${slug}`, format: "json" });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.html).toContain(`src="${PUBLIC_ORIGIN}/embed/english/${slug}"`);
    expect(body.provider_url).toBe(`${PUBLIC_ORIGIN}/`);
    // The address the request came to is not the site's public one.
    expect((await oembed(site.url, { url: `${site.url}/english/${slug}` })).status).toBe(404);
    // http or https on the site's host alike.
    expect((await oembed(site.url, { url: `http://quotes.example/english/${slug}` })).status).toBe(200);
  });
});

test("post pages offer the embed: the oEmbed discovery link and the Embed box with the snippet /oembed gives", async () => {
  for (const language of LANGUAGES) {
    const slug = posts[language][0] as string;
    const canonical = postUrl(server.url, language, slug);
    const expected = await (await oembed(server.url, { url: canonical, format: "json" })).json();
    for (const address of [canonical, `${server.url}/post/${encodeURIComponent(slug)}`]) {
      const { doc } = await getHtml(address);
      const links = doc.querySelectorAll('link[rel="alternate"][type="application/json+oembed"]');
      expect(links.length, address).toBe(1);
      const href = links[0]?.getAttribute("href") ?? "";
      expect(href, address).toBe(`${server.url}/oembed?url=${encodeURIComponent(canonical)}&format=json`);
      expect(links[0]?.getAttribute("title"), address).toBe(expected.title);
      const discovered = await fetch(href);
      expect(discovered.status).toBe(200);
      expect(await discovered.json()).toEqual(expected);
      const box = doc.querySelector("details.embed");
      expect(box?.querySelector("summary")?.text, address).toBe(
        { english: "Embed", hindi: "एम्बेड करें", marathi: "एम्बेड करा" }[language],
      );
      const code = box?.querySelector("textarea");
      expect(code?.hasAttribute("readonly") || code?.hasAttribute("readOnly"), address).toBe(true);
      expect(code?.text, address).toBe(expected.html);
    }
  }
});
