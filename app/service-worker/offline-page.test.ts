import { parse } from "node-html-parser";
import { describe, expect, test } from "vitest";
import { assetsOf, dailyLinksOf, languageOfPath, offlinePage, titleOf } from "./offline-page.ts";

describe("the offline page", () => {
  test("is in the address's language and links the kept quotes, each in its own", () => {
    const html = offlinePage(
      languageOfPath("/marathi/%E0%A4%95"),
      [
        { url: "/hindi/prem", title: "प्रेम <गली>", language: "hindi" },
        { url: '/english/a"b', title: "A & B", language: "english" },
      ],
      "Sukti",
    );
    const root = parse(html);
    expect(root.querySelector("html")?.getAttribute("lang")).toBe("mr");
    expect(root.querySelector("h1")?.text).toBe("तुम्ही ऑफलाइन आहात");
    const links = root
      .querySelectorAll("li a")
      .map((a) => [a.getAttribute("href"), a.getAttribute("lang"), a.text]);
    expect(links).toEqual([
      ["/hindi/prem", "hi", "प्रेम <गली>"],
      ['/english/a"b', "en", "A & B"],
    ]);
    expect(html).not.toContain("<गली>");
    expect(html).not.toContain("<script");
  });

  test("with nothing kept, says where read quotes will be", () => {
    const root = parse(offlinePage("hindi", [], "Sukti"));
    expect(root.querySelector("html")?.getAttribute("lang")).toBe("hi");
    expect(root.querySelectorAll("li")).toHaveLength(0);
    expect(root.querySelector("main p")?.text).toContain("ऑनलाइन पढ़ी गई");
  });

  test("an address outside the language folders is English", () => {
    expect(languageOfPath("/")).toBe("english");
    expect(languageOfPath("/tag/love")).toBe("english");
    expect(languageOfPath("/hindi/home")).toBe("hindi");
  });
});

test("a kept page's title, assets and quotes of the day are read from its HTML", () => {
  const html =
    '<title>Kabir &amp; the &quot;weaver&quot; · Sukti</title><link rel="modulepreload" href="/assets/root-AbC_1-x.js"/>' +
    '<script>import("/assets/entry.client-Zz9.js");import("/assets/root-AbC_1-x.js")</script>' +
    "<style>@font-face{src:url(/assets/noto-400-X1.woff2)}</style>" +
    '<a class="daily-link" href="/hindi/%E0%A4%AA">x</a><a href="/hindi/other" class="post-card-link">y</a>';
  expect(titleOf(html, "Sukti")).toBe('Kabir & the "weaver"');
  expect(titleOf("<p>no title</p>", "Sukti")).toBe("");
  expect(assetsOf(html)).toEqual(["/assets/root-AbC_1-x.js", "/assets/entry.client-Zz9.js"]);
  expect(dailyLinksOf(html)).toEqual(["/hindi/%E0%A4%AA"]);
});
