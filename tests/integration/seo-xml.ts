// Test helpers: a strict XML parser (saxes rejects anything not well-formed)
// and checks of the sitemaps.org 0.9 and RSS 2.0 formats.
import { SaxesParser } from "saxes";
import { expect } from "vitest";

export interface XmlElement {
  /** Namespace URI ("" for none). */
  uri: string;
  /** Local name. */
  local: string;
  /** Qualified name as written. */
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** Parses a whole document; throws on any well-formedness error. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.on("opentag", (tag) => {
    const element: XmlElement = {
      uri: tag.uri,
      local: tag.local,
      name: tag.name,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((a) => [a.name, a.value])),
      children: [],
      text: "",
    };
    stack.at(-1)?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on("text", (text) => {
    const top = stack.at(-1);
    if (top) top.text += text;
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (error) throw error;
  if (!root) throw new Error("no root element");
  return root;
}

export const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
export const XHTML_NS = "http://www.w3.org/1999/xhtml";
export const ATOM_NS = "http://www.w3.org/2005/Atom";
export const CONTENT_NS = "http://purl.org/rss/1.0/modules/content/";
export const DC_NS = "http://purl.org/dc/elements/1.1/";

const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const RFC_822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (GMT|[+-]\d{4})$/;

/** An absolute http(s) URL on `origin`, percent-encoded (ASCII only), at most 2,048 characters. */
function expectLoc(loc: string, origin: string) {
  expect(loc.length).toBeLessThanOrEqual(2048);
  expect(loc).toMatch(/^[\x21-\x7e]+$/);
  expect(new URL(loc).origin).toBe(origin);
  expect(new URL(loc).href).toBe(loc);
}

/** sitemaps.org siteindex.xsd: <sitemapindex> of <sitemap>s, each <loc> then optional <lastmod>. */
export function expectSitemapIndex(root: XmlElement, origin: string): string[] {
  expect([root.uri, root.local]).toEqual([SITEMAP_NS, "sitemapindex"]);
  expect(root.children.length).toBeGreaterThan(0);
  expect(root.children.length).toBeLessThanOrEqual(50_000);
  return root.children.map((sitemap) => {
    expect([sitemap.uri, sitemap.local]).toEqual([SITEMAP_NS, "sitemap"]);
    const names = sitemap.children.map((child) => child.local);
    expect(["loc", "loc,lastmod"]).toContain(names.join(","));
    for (const child of sitemap.children) expect(child.uri).toBe(SITEMAP_NS);
    const loc = sitemap.children[0]!.text;
    expectLoc(loc, origin);
    const lastmod = sitemap.children[1]?.text;
    if (lastmod !== undefined) expect(lastmod).toMatch(W3C_DATETIME);
    return loc;
  });
}

export interface SitemapEntry {
  loc: string;
  lastmod: string | null;
  alternates: { hreflang: string; href: string }[];
}

/**
 * sitemaps.org sitemap.xsd: <urlset> of <url>s, each <loc>, then optional
 * <lastmod>, <changefreq>, <priority>, then elements of other namespaces
 * (here xhtml:link hreflang alternates).
 */
export function expectUrlset(root: XmlElement, origin: string): SitemapEntry[] {
  expect([root.uri, root.local]).toEqual([SITEMAP_NS, "urlset"]);
  expect(root.children.length).toBeLessThanOrEqual(50_000);
  const order = ["loc", "lastmod", "changefreq", "priority"];
  return root.children.map((url) => {
    expect([url.uri, url.local]).toEqual([SITEMAP_NS, "url"]);
    const own = url.children.filter((child) => child.uri === SITEMAP_NS).map((child) => child.local);
    expect(own[0]).toBe("loc");
    expect(own.map((name) => order.indexOf(name))).toEqual(
      [...own.map((name) => order.indexOf(name))].sort((a, b) => a - b),
    );
    expect(new Set(own).size).toBe(own.length);
    const firstOther = url.children.findIndex((child) => child.uri !== SITEMAP_NS);
    if (firstOther >= 0) expect(url.children.slice(firstOther).every((c) => c.uri !== SITEMAP_NS)).toBe(true);
    const text = (name: string) => url.children.find((c) => c.uri === SITEMAP_NS && c.local === name)?.text;
    const loc = text("loc")!;
    expectLoc(loc, origin);
    const lastmod = text("lastmod") ?? null;
    if (lastmod !== null) expect(lastmod).toMatch(W3C_DATETIME);
    const alternates = url.children
      .filter((child) => child.uri !== SITEMAP_NS)
      .map((link) => {
        expect([link.uri, link.local]).toEqual([XHTML_NS, "link"]);
        expect(link.attributes.rel).toBe("alternate");
        expect(link.attributes.hreflang).toMatch(/^([a-z]{2}(-[A-Z]{2})?|x-default)$/);
        expectLoc(link.attributes.href!, origin);
        return { hreflang: link.attributes.hreflang!, href: link.attributes.href! };
      });
    return { loc, lastmod, alternates };
  });
}

// RSS 2.0 (https://www.rssboard.org/rss-specification): the elements a channel and an item may hold.
const CHANNEL_ELEMENTS = new Set([
  "title",
  "link",
  "description",
  "language",
  "copyright",
  "managingEditor",
  "webMaster",
  "pubDate",
  "lastBuildDate",
  "category",
  "generator",
  "docs",
  "cloud",
  "ttl",
  "image",
  "rating",
  "textInput",
  "skipHours",
  "skipDays",
  "item",
]);
const ITEM_ELEMENTS = new Set([
  "title",
  "link",
  "description",
  "author",
  "category",
  "comments",
  "enclosure",
  "guid",
  "pubDate",
  "source",
]);

export interface RssItem {
  title: string;
  link: string;
  guid: string;
  pubDate: string;
  description: string;
  html: string;
}

/** RSS 2.0: <rss version="2.0"> with one <channel> (title, link, description required) of <item>s. */
export function expectRss(root: XmlElement, origin: string, self: string) {
  expect([root.uri, root.local, root.attributes.version]).toEqual(["", "rss", "2.0"]);
  expect(root.children.map((child) => child.local)).toEqual(["channel"]);
  const channel = root.children[0]!;
  const plain = channel.children.filter((child) => child.uri === "");
  for (const child of plain) expect(CHANNEL_ELEMENTS).toContain(child.local);
  const one = (name: string) => {
    const found = plain.filter((child) => child.local === name);
    expect(found.length, name).toBe(1);
    return found[0]!.text;
  };
  const title = one("title");
  expect(title.trim()).not.toBe("");
  expectLoc(one("link"), origin);
  expect(one("description").trim()).not.toBe("");
  expect(one("language")).toMatch(/^[a-z]{2}(-[a-z]{2})?$/i);
  const lastBuild = plain.find((child) => child.local === "lastBuildDate");
  if (lastBuild) expect(lastBuild.text).toMatch(RFC_822);
  const selfLinks = channel.children.filter((child) => child.uri === ATOM_NS);
  expect(
    selfLinks.map((link) => [link.local, link.attributes.rel, link.attributes.href, link.attributes.type]),
  ).toEqual([["link", "self", self, "application/rss+xml"]]);
  const items = plain
    .filter((child) => child.local === "item")
    .map((item): RssItem => {
      for (const child of item.children) {
        if (child.uri === "") expect(ITEM_ELEMENTS).toContain(child.local);
        else
          expect([
            [CONTENT_NS, "encoded"],
            [DC_NS, "creator"],
          ]).toContainEqual([child.uri, child.local]);
      }
      const text = (name: string) => item.children.find((c) => c.uri === "" && c.local === name)?.text ?? "";
      expect(text("title") || text("description")).not.toBe("");
      const link = text("link");
      expectLoc(link, origin);
      const guid = item.children.find((c) => c.local === "guid")!;
      expect(guid.attributes.isPermaLink).toBe("true");
      expect(guid.text).toBe(link);
      expect(text("pubDate")).toMatch(RFC_822);
      for (const category of item.children.filter((c) => c.local === "category")) {
        expect(category.text.trim()).not.toBe("");
      }
      const html = item.children.find((c) => c.uri === CONTENT_NS)?.text ?? "";
      return {
        title: text("title"),
        link,
        guid: guid.text,
        pubDate: text("pubDate"),
        description: text("description"),
        html,
      };
    });
  return { title, items };
}
