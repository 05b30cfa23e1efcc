import { expect, test } from "vitest";
import { languageAlternates, originOf, pagedPath, pageMeta, summarize } from "#app/content/seo.ts";

test("summaries cut at a word and stay within the limit", () => {
  expect(summarize("short text")).toBe("short text");
  const long = "word ".repeat(60);
  const summary = summarize(long, 160);
  expect(summary.length).toBeLessThanOrEqual(160);
  expect(summary.endsWith("word…")).toBe(true);
  expect(summarize("  many\n\n spaces  ")).toBe("many spaces");
});

test("later pages of a list are their own canonical address", () => {
  expect(pagedPath("/hindi/home", 1)).toBe("/hindi/home");
  expect(pagedPath("/hindi/home", 3)).toBe("/hindi/home?page=3");
});

test("hreflang alternates name the three language homes and the home page as x-default", () => {
  expect(languageAlternates("https://example.org").map((link) => [link.hrefLang, link.href])).toEqual([
    ["en", "https://example.org/english/home"],
    ["hi", "https://example.org/hindi/home"],
    ["mr", "https://example.org/marathi/home"],
    ["x-default", "https://example.org/"],
  ]);
});

test("the origin comes from the site-head layout's loader data", () => {
  expect(
    originOf([{ id: "root" }, { id: "routes/site-head", loaderData: { origin: "https://a.example" } }]),
  ).toBe("https://a.example");
  expect(originOf([{ id: "root" }])).toBe("");
});

test("every page's meta has one canonical link and matching og:url", () => {
  const tags = pageMeta({
    siteName: "Sukti",
    origin: "https://a.example",
    title: "T",
    description: "D",
    path: "/tags",
    language: "marathi",
  });
  expect(tags.filter((tag) => "rel" in tag && tag.rel === "canonical")).toEqual([
    { tagName: "link", rel: "canonical", href: "https://a.example/tags" },
  ]);
  expect(tags).toContainEqual({ property: "og:url", content: "https://a.example/tags" });
  expect(tags).toContainEqual({ property: "og:locale", content: "mr_IN" });
});
