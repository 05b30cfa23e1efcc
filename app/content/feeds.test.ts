import { expect, test } from "vitest";
import { absolutizeLinks, escapeXml, rfc822, rssXml, urlsetXml, w3cDateTime } from "#app/content/feeds.ts";

test("XML text is escaped and characters XML forbids are dropped", () => {
  expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
    "&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;",
  );
  expect(escapeXml("a\u0000b\u0008c\td\ne\uFFFEf\uD800g")).toBe("abc\td\nefg");
  expect(escapeXml("क्षमा 😀")).toBe("क्षमा 😀");
});

test("dates: W3C for sitemaps, RFC 822 for RSS", () => {
  expect(w3cDateTime(1_795_000_000)).toBe("2026-11-18T11:06:40Z");
  expect(rfc822(1_795_000_000)).toBe("Wed, 18 Nov 2026 11:06:40 GMT");
});

test("hreflang alternates add the xhtml namespace only when used", () => {
  expect(urlsetXml([{ loc: "https://a.example/" }])).not.toContain("xmlns:xhtml");
  expect(
    urlsetXml([
      { loc: "https://a.example/", alternates: [{ hreflang: "hi", href: "https://a.example/hindi/home" }] },
    ]),
  ).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
});

test("feed items carry escaped HTML and no empty build date", () => {
  const xml = rssXml(
    {
      title: "T",
      link: "https://a.example/hindi/home",
      self: "https://a.example/hindi/feed.xml",
      description: "D",
      language: "hi",
      lastBuildDate: null,
    },
    [
      {
        title: "a & b",
        link: "https://a.example/hindi/x",
        pubDate: 0,
        description: "d",
        html: "<p>x</p>",
        categories: ["सत्य"],
      },
    ],
  );
  expect(xml).not.toContain("lastBuildDate");
  expect(xml).toContain("<title>a &amp; b</title>");
  expect(xml).toContain("<content:encoded>&lt;p&gt;x&lt;/p&gt;</content:encoded>");
  expect(xml).toContain("<category>सत्य</category>");
});

test("root-relative links become absolute; others stay", () => {
  expect(
    absolutizeLinks(
      '<img src="/a.jpg"><a href="//cdn/x">x</a><a href="https://b/">b</a>',
      "https://a.example",
    ),
  ).toBe('<img src="https://a.example/a.jpg"><a href="//cdn/x">x</a><a href="https://b/">b</a>');
});
