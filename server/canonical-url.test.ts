import { expect, test } from "vitest";
import { canonicalUrl } from "./canonical-url.ts";

test("only the parameters a route reads survive, and page 1 is the bare address", () => {
  expect(canonicalUrl("/english/river?page=3&utm_source=x")).toEqual({
    url: "/english/river",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/english/home?utm_source=x&page=3")).toEqual({
    url: "/english/home?page=3",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/english/home?page=1")).toEqual({
    url: "/english/home",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/tag/love?page=2&page=9")).toEqual({
    url: "/tag/love?page=2",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/people/kabir?page=2&utm_source=x")).toEqual({
    url: "/people/kabir?page=2",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/people?page=2").url).toBe("/people");
  expect(canonicalUrl("/?page=2")).toEqual({ url: "/", cacheable: true, search: false });
  // Search pages are kept too, in a cache of their own (app.ts).
  expect(canonicalUrl("/search?q=prem&x=1")).toEqual({
    url: "/search?q=prem",
    cacheable: true,
    search: true,
  });
  expect(canonicalUrl("/search/prem?page=2")).toEqual({
    url: "/search/prem?page=2",
    cacheable: true,
    search: true,
  });
  // A search's filter on results (decision 065): a language's name survives, any other value is the unfiltered page.
  expect(canonicalUrl("/search/prem?page=2&utm_source=x&language=hindi")).toEqual({
    url: "/search/prem?language=hindi&page=2",
    cacheable: true,
    search: true,
  });
  expect(canonicalUrl("/search?q=prem&language=marathi").url).toBe("/search?language=marathi&q=prem");
  expect(canonicalUrl("/search/prem.data?language=english&_routes=routes%2Fsearch").url).toBe(
    "/search/prem.data?language=english&_routes=routes%2Fsearch",
  );
  for (const junk of ["all", "Hindi", "klingon", ""])
    expect(canonicalUrl(`/search/prem?language=${junk}`).url).toBe("/search/prem");
  expect(canonicalUrl("/english/home?language=hindi").url).toBe("/english/home");
  expect(canonicalUrl("/share/hindi/v1/x.jpg?download")).toEqual({
    url: "/share/hindi/v1/x.jpg?download",
    cacheable: true,
    search: false,
  });
});

test("one spelling per path: percent-encoding and Unicode normalisation", () => {
  const devanagari = encodeURIComponent("प्रेम");
  expect(canonicalUrl("/english/%72iver").url).toBe("/english/river");
  expect(canonicalUrl(`/tag/${devanagari.toLowerCase()}`).url).toBe(`/tag/${devanagari}`);
  // Decomposed क + ़ and precomposed क़ are one page.
  expect(canonicalUrl(`/hindi/${encodeURIComponent("क\u093C")}`).url).toBe(
    `/hindi/${encodeURIComponent("\u0958".normalize("NFC"))}`,
  );
  expect(canonicalUrl("/english/%E0%A4")).toEqual({
    url: "/english/%E0%A4",
    cacheable: false,
    search: false,
  });
  // A path encodeURIComponent leaves alone is its own address (the short way); any other character is written one way.
  expect(canonicalUrl("/english/river-of-life_2.x")).toEqual({
    url: "/english/river-of-life_2.x",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/search/prem")).toEqual({ url: "/search/prem", cacheable: true, search: true });
  expect(canonicalUrl("/english/a b").url).toBe("/english/a%20b");
  expect(canonicalUrl("/english/river%2dof").url).toBe("/english/river-of");
  expect(canonicalUrl("/english/प्रेम").url).toBe(`/english/${devanagari}`);
  expect(canonicalUrl("/english/river.data").url).toBe("/english/river.data");
});

test("React Router's own requests keep their parameters; partial data is not cached", () => {
  expect(canonicalUrl("/english/river.data")).toEqual({
    url: "/english/river.data",
    cacheable: true,
    search: false,
  });
  expect(canonicalUrl("/english/home.data?page=2&_routes=routes%2Fenglish")).toEqual({
    url: "/english/home.data?page=2&_routes=routes%2Fenglish",
    cacheable: false,
    search: false,
  });
  expect(canonicalUrl("/__manifest?paths=%2Ftags&version=abc")).toEqual({
    url: "/__manifest?paths=%2Ftags&version=abc",
    cacheable: false,
    search: false,
  });
});

test("shared collections are kept with the searches, apart from the pages; /saved drops any query", () => {
  expect(canonicalUrl("/c/AwQ?utm_source=whatsapp")).toEqual({
    url: "/c/AwQ",
    cacheable: true,
    search: true,
  });
  expect(canonicalUrl("/c/AwQ.data")).toEqual({ url: "/c/AwQ.data", cacheable: true, search: true });
  expect(canonicalUrl("/saved/hindi?lang=marathi")).toEqual({
    url: "/saved/hindi",
    cacheable: true,
    search: false,
  });
});

test("oEmbed keeps the address, format and size asked about, in one order, with the searches (decision 063)", () => {
  const url = encodeURIComponent("https://sukti.example/english/river");
  expect(canonicalUrl(`/oembed?maxwidth=300&utm_source=x&format=json&url=${url}`)).toEqual({
    url: `/oembed?url=${url}&format=json&maxwidth=300`,
    cacheable: true,
    search: true,
  });
  expect(canonicalUrl(`/oembed?url=${url}&maxheight=200`).url).toBe(`/oembed?url=${url}&maxheight=200`);
  expect(canonicalUrl("/oembed").url).toBe("/oembed");
  // The embed page itself is a page like any other: its query is dropped.
  expect(canonicalUrl("/embed/hindi/%E0%A4%AA?theme=dark")).toEqual({
    url: "/embed/hindi/%E0%A4%AA",
    cacheable: true,
    search: false,
  });
});

test("a page of no language keeps ?lang=hi|mr (decision 067); English and the language routes have none", () => {
  expect(canonicalUrl("/?lang=hi&utm_source=x").url).toBe("/?lang=hi");
  expect(canonicalUrl("/tags?lang=mr").url).toBe("/tags?lang=mr");
  expect(canonicalUrl("/tags?lang=en").url).toBe("/tags");
  expect(canonicalUrl("/tags?lang=fr").url).toBe("/tags");
  expect(canonicalUrl("/people/kabir?lang=hi&page=2").url).toBe("/people/kabir?page=2&lang=hi");
  expect(canonicalUrl("/search?q=prem&lang=hi").url).toBe("/search?q=prem&lang=hi");
  expect(canonicalUrl("/post/privacy-policy?lang=mr").url).toBe("/post/privacy-policy?lang=mr");
  expect(canonicalUrl("/no/such/page?lang=hi").url).toBe("/no/such/page?lang=hi");
  expect(canonicalUrl("/_root.data?lang=hi").url).toBe("/_root.data?lang=hi");
  expect(canonicalUrl("/hindi/home?lang=mr").url).toBe("/hindi/home");
  expect(canonicalUrl("/english/some-post?lang=hi").url).toBe("/english/some-post");
  expect(canonicalUrl("/saved/hindi?lang=mr").url).toBe("/saved/hindi");
  expect(canonicalUrl("/sitemap.xml?lang=hi").url).toBe("/sitemap.xml");
});
