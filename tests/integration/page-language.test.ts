// Every page in the page's language (decision 067): pages of no
// language of their own answer in English at the SPEC's addresses and in
// Hindi and Marathi at ?lang=hi and ?lang=mr, each its own cached page with
// the same cache tags, linked by reciprocal hreflang alternates.
import { afterAll, beforeAll, expect, test } from "vitest";
import { warm } from "#tests/support/cache-pages.ts";
import { getHtml, hrefs } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const PUBLIC_URL = "http://quotes.example";
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { PUBLIC_URL } });
});
afterAll(async () => {
  await server?.stop();
});

/** Each page of no language, and a word its Hindi and Marathi versions show (the English one at the SPEC's address). */
const PAGES: { path: string; selector: string; words: [string, string, string]; status?: number }[] = [
  { path: "/", selector: "#gallery-title", words: ["From the collection", "संग्रह से", "संग्रहातून"] },
  { path: "/tags", selector: "h1", words: ["Tags", "टैग", "टॅग"] },
  { path: "/people", selector: "h1", words: ["People", "संत और लेखक", "संत आणि लेखक"] },
  { path: "/search", selector: "h1", words: ["Search", "खोज", "शोध"] },
  { path: "/search/love", selector: ".search-count", words: ["found", "मिल", "सापड"] },
  {
    path: "/post/privacy-policy",
    selector: "h1",
    words: ["Privacy Policy", "गोपनीयता नीति", "गोपनीयता धोरण"],
  },
  {
    path: "/post/terms-conditions",
    selector: "h1",
    words: ["Terms and Conditions", "नियम और शर्तें", "अटी आणि नियम"],
  },
  {
    path: "/no/such/page",
    selector: "h1",
    words: ["Page not found", "पृष्ठ नहीं मिला", "पान सापडले नाही"],
    status: 404,
  },
];
const VERSIONS = [
  { query: "", lang: "en", switchLabel: "Language" },
  { query: "?lang=hi", lang: "hi", switchLabel: "भाषा" },
  { query: "?lang=mr", lang: "mr", switchLabel: "भाषा" },
] as const;

test("each page of no language answers in the three languages: lang, its words, the switch; the SPEC's address in English", async () => {
  for (const page of PAGES) {
    for (const [i, version] of VERSIONS.entries()) {
      const url = `${page.path}${version.query}`;
      const { status, doc } = await getHtml(`${server.url}${url}`);
      expect(status, url).toBe(page.status ?? 200);
      expect(doc.querySelector("html")?.getAttribute("lang"), url).toBe(version.lang);
      expect(doc.querySelector(page.selector)?.text, url).toContain(page.words[i]);
      const switcher = doc.querySelector(".language-switch");
      expect(switcher?.getAttribute("aria-label"), url).toBe(version.switchLabel);
      expect(hrefs(doc, ".language-switch a"), url).toEqual([
        page.path,
        `${page.path}?lang=hi`,
        `${page.path}?lang=mr`,
      ]);
      expect(doc.querySelector(".language-switch a[aria-current]")?.getAttribute("lang"), url).toBe(
        version.lang,
      );
      // The frame's links to pages of no language carry the language.
      expect(doc.querySelector(".main-menu a")?.getAttribute("href"), url).toBe(`/${version.query}`);
      expect(hrefs(doc, ".site-footer a"), url).toContain(`/post/privacy-policy${version.query}`);
    }
  }
  // ?lang=en, or a language the site has not, is the English page.
  const english = await getHtml(`${server.url}/tags?lang=en`);
  expect(english.doc.querySelector("html")?.getAttribute("lang")).toBe("en");
  expect(english.doc.querySelector("link[rel=canonical]")?.getAttribute("href")).toBe(`${PUBLIC_URL}/tags`);
});

test("pages with a language of their own have no switch and ignore ?lang=", async () => {
  for (const url of ["/hindi/home?lang=mr", "/english/home?lang=hi", "/saved/marathi?lang=hi"]) {
    const { doc } = await getHtml(`${server.url}${url}`);
    expect(doc.querySelector(".language-switch"), url).toBeNull();
  }
  const hindi = await getHtml(`${server.url}/hindi/home?lang=mr`);
  expect(hindi.doc.querySelector("html")?.getAttribute("lang")).toBe("hi");
  const notFound = await getHtml(`${server.url}/marathi/no-such-post`);
  expect(notFound.status).toBe(404);
  expect(notFound.doc.querySelector("html")?.getAttribute("lang")).toBe("mr");
  expect(notFound.doc.querySelector(".language-switch")).toBeNull();
});

test("hreflang alternates link the three versions and x-default, the same set from each (reciprocal), and each is its canonical", async () => {
  for (const page of PAGES.filter((page) => !page.status)) {
    const expected = [
      ["en", `${PUBLIC_URL}${page.path}`],
      ["hi", `${PUBLIC_URL}${page.path}?lang=hi`],
      ["mr", `${PUBLIC_URL}${page.path}?lang=mr`],
      ["x-default", `${PUBLIC_URL}${page.path}`],
    ];
    for (const version of VERSIONS) {
      const url = `${page.path}${version.query}`;
      const { doc } = await getHtml(`${server.url}${url}`);
      const alternates = doc
        .querySelectorAll('link[rel="alternate"][hreflang]')
        .map((link) => [link.getAttribute("hreflang"), link.getAttribute("href")]);
      expect(alternates, url).toEqual(expected);
      expect(doc.querySelector("link[rel=canonical]")?.getAttribute("href"), url).toBe(`${PUBLIC_URL}${url}`);
    }
  }
});

test("the Hindi and Marathi frames link their own site pages; a version's own slug leads to its address", async () => {
  const post = await getHtml(`${server.url}/hindi/home`);
  const policy = post.doc
    .querySelectorAll(".site-footer a")
    .find((link) => link.text === "गोपनीयता नीति")
    ?.getAttribute("href");
  expect(policy).toBe("/post/privacy-policy?lang=hi");
  const page = await getHtml(`${server.url}${policy}`);
  expect(page.doc.querySelector("article.site-page")?.getAttribute("lang")).toBe("hi");
  expect(page.doc.querySelector("article.site-page h2")?.text).toBe("हम क्या नहीं जुटाते");
  const marathi = await getHtml(`${server.url}/marathi/home`);
  expect(hrefs(marathi.doc, ".site-footer a")).toContain("/post/terms-conditions?lang=mr");
  const own = await getHtml(`${server.url}/post/privacy-policy-marathi`);
  expect(own.status).toBe(301);
  expect(own.response.headers.get("location")).toBe("/post/privacy-policy?lang=mr");
  const sitemap = await (await fetch(`${server.url}/sitemaps/pages.xml`)).text();
  expect(sitemap).toContain(`<loc>${PUBLIC_URL}/post/privacy-policy?lang=hi</loc>`);
  expect(sitemap).not.toContain("privacy-policy-hindi");
});

test("the home's h1 is the site's name and the newest post's title heads the hero (h2), in each language", async () => {
  for (const version of VERSIONS) {
    const { doc } = await getHtml(`${server.url}/${version.query}`);
    expect(doc.querySelectorAll("h1").map((h1) => h1.text)).toEqual(["Sukti"]);
    expect(doc.querySelector("#hero-title")?.tagName).toBe("H2");
    expect(doc.querySelector(".hero-kicker")?.text).toBe(
      ["Latest", "नवीनतम", "नवीनतम"][VERSIONS.indexOf(version)],
    );
  }
  const hindi = await getHtml(`${server.url}/?lang=hi`);
  expect(hindi.doc.querySelector("#about-title")?.text).toBe("परिचय");
  expect(hindi.doc.querySelector(".about")?.getAttribute("lang")).toBe("hi");
});

test("the page cache keeps each version under its own address, with the same cache tags", async () => {
  for (const path of ["/tags", "/people", "/post/privacy-policy"]) {
    const seen = await warm(server.url, [path, `${path}?lang=hi`, `${path}?lang=mr`]);
    const [english, hindi, marathi] = [...seen.values()];
    expect(english?.body).toContain('<html lang="en"');
    expect(hindi?.body).toContain('<html lang="hi"');
    expect(marathi?.body).toContain('<html lang="mr"');
    expect(english?.etag).not.toBe(hindi?.etag);
    const tags = (seen: typeof english) => seen?.headers.get("xkey")?.split(" ").sort();
    if (path !== "/post/privacy-policy") {
      expect(tags(english)).toBeDefined();
      expect(tags(hindi), path).toEqual(tags(english));
      expect(tags(marathi), path).toEqual(tags(english));
    } else {
      // A site page's version carries its own page's tag (a write to it drops it).
      expect(tags(hindi)).toContain("page-privacy-policy-hindi");
    }
  }
});
