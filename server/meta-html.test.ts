// meta-html.ts writes a route's meta as React writes the elements React
// Router's <Meta/> makes of them (React 19 hoists them the same way outside a
// document): the same markup for markup characters, numbers and every
// attribute the site's meta functions use; anything else is refused.
import { createElement, Fragment } from "react";
import { renderToString } from "react-dom/server";
import { expect, test } from "vitest";
import { metaHtml, UnwrittenMeta } from "./meta-html.ts";

/** The element React Router's <Meta/> makes of a descriptor (title, tagName, ld+json, or a <meta>). */
function element(descriptor: Record<string, unknown>, key: number) {
  if ("tagName" in descriptor) {
    const { tagName, ...rest } = descriptor;
    return createElement(tagName as string, { key, ...rest });
  }
  if ("title" in descriptor) return createElement("title", { key }, String(descriptor.title));
  return createElement("meta", { key, ...descriptor });
}

test("titles, metas and links are written as React writes them", () => {
  const odd = `Fish & "chips" <b> it's \u2028 प्रेम`;
  const descriptors = [
    { title: odd },
    { name: "description", content: odd },
    { tagName: "link", rel: "canonical", href: "https://x.example/hindi/%E0%A4%AA?a=1&b=2" },
    { property: "og:image:width", content: 1200 },
    { tagName: "link", rel: "alternate", hrefLang: "hi", href: "/hindi/x", title: odd },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/json+oembed",
      href: "/oembed?url=a&format=json",
      title: "t",
    },
    { name: "theme-color", content: "#000", media: "(prefers-color-scheme: dark)" },
    { tagName: "link", rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  ];
  const written = metaHtml(descriptors);
  expect(written.hoisted).toBe(renderToString(createElement(Fragment, null, descriptors.map(element))));
  expect(written.scripts).toBe("");
});

test("JSON-LD is a script that no text can close", () => {
  const { hoisted, scripts } = metaHtml([{ "script:ld+json": { name: "</script><!-- & \u2028" } }]);
  expect(hoisted).toBe("");
  expect(scripts).toMatch(/^<script type="application\/ld\+json">\{"name":"[^<]*"\}<\/script>$/);
  expect(JSON.parse(scripts.slice(35, -9))).toEqual({ name: "</script><!-- & \u2028" });
});

test("what React would write otherwise, or not at all, is refused", () => {
  for (const descriptor of [
    { name: "a", content: "b", itemProp: "c" },
    { charSet: "utf-8" },
    { tagName: "script", src: "/x.js" },
    { tagName: "link", rel: "canonical", href: " javascript:alert(1)" },
    { name: "a", content: true },
  ]) {
    expect(() => metaHtml([descriptor]), JSON.stringify(descriptor)).toThrow(UnwrittenMeta);
  }
});
