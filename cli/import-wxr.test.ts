import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import {
  autop,
  decodeEntities,
  decodeSlug,
  languageOfLocale,
  languageOfTerm,
  mapWxrItem,
  parseWxr,
  postTimeOf,
  type WxrContext,
  type WxrItem,
  zonedTimeToEpoch,
} from "#cli/import-wxr.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../tests/fixtures/wordpress-export.xml");

async function* once(text: string) {
  yield text;
}

async function parse(text: string) {
  const items: WxrItem[] = [];
  let language = "";
  let version: string | null = null;
  for await (const event of parseWxr(once(text))) {
    if ("item" in event) items.push(event.item);
    else ({ language, version } = event.channel);
  }
  return { items, language, version };
}

function context(overrides: Partial<WxrContext> = {}): WxrContext {
  return {
    fileLanguage: null,
    attachments: new Map(),
    timeZone: "Asia/Kolkata",
    slugsSeen: new Set(),
    ...overrides,
  };
}

function item(overrides: Partial<WxrItem>): WxrItem {
  return {
    index: 1,
    title: "A title",
    postId: "7",
    postDate: "2024-01-01 10:00:00",
    postDateGmt: "2024-01-01 04:30:00",
    postName: "a-title",
    status: "publish",
    postType: "post",
    postPassword: "",
    attachmentUrl: "",
    content: "Text",
    excerpt: "",
    terms: [],
    thumbnailId: "",
    ...overrides,
  };
}

test("reads WordPress's own export: items, post meta, categories; comments ignored", async () => {
  const { items, language, version } = await parse(readFileSync(FIXTURE, "utf8"));
  expect(version).toBe("1.2");
  expect(language).toBe("en-US");
  expect(items.map((i) => `${i.postType}:${i.postId}`)).toEqual([
    "attachment:101",
    "post:12",
    "post:13",
    "post:14",
    "post:15",
    "post:16",
    "post:17",
    "post:18",
    "post:19",
    "page:3",
    "page:4",
    "nav_menu_item:50",
    "attachment:140",
  ]);
  const kabir = items[1]!;
  expect(kabir.thumbnailId).toBe("101");
  expect(kabir.terms).toEqual([
    { domain: "category", nicename: "hindi", name: "Hindi" },
    { domain: "category", nicename: "%e0%a4%a6%e0%a5%8b%e0%a4%b9%e0%a5%87", name: "दोहे" },
    { domain: "post_tag", nicename: "%e0%a4%aa%e0%a5%8d%e0%a4%b0%e0%a5%87%e0%a4%ae", name: "प्रेम" },
  ]);
  expect(kabir.content).toContain("जब मैं था तब हरि नहीं");
  expect(kabir.content).not.toContain("comment");
  expect(items[12]!.attachmentUrl).toBe(
    "https://santvani.example.org/wp-content/uploads/2023/06/tukaram-card.jpg",
  );
});

test("WXR 1.0 and 1.1 are read the same way; other versions and other XML are refused", async () => {
  const v12 = readFileSync(FIXTURE, "utf8");
  for (const version of ["1.0", "1.1"]) {
    const text = v12
      .replaceAll("export/1.2/", `export/${version}/`)
      .replace("<wp:wxr_version>1.2</wp:wxr_version>", `<wp:wxr_version>${version}</wp:wxr_version>`);
    const { items, version: read } = await parse(text);
    expect(read).toBe(version);
    expect(items).toHaveLength(13);
    expect(items[1]!.thumbnailId).toBe("101");
  }
  await expect(parse(v12.replaceAll("export/1.2/", "export/1.3/"))).rejects.toThrow(
    "unsupported WXR version 1.3",
  );
  await expect(parse("<html><body/></html>")).rejects.toThrow("the root element is <html>");
  await expect(
    parse('<rss version="2.0"><channel><item><title>x</title></item></channel></rss>'),
  ).rejects.toThrow("not a WordPress export");
  await expect(parse(v12.slice(0, 6000))).rejects.toThrow(/invalid XML at line \d+, column \d+/);
  await expect(parse(v12.replace("</wp:post_id>", ""))).rejects.toThrow(/invalid XML at line/);
});

test("WXR 1.0 style terms: tags as domain tag, categories without a domain", () => {
  const mapped = mapWxrItem(
    item({
      terms: [
        { domain: "", nicename: "", name: "Poetry" },
        { domain: "category", nicename: "poetry", name: "Poetry" },
        { domain: "tag", nicename: "love", name: "Love" },
        { domain: "post_format", nicename: "post-format-quote", name: "Quote" },
      ],
    }),
    context({ language: "english" }),
  );
  expect(mapped).toMatchObject({ kind: "post", value: { tags: ["Love"], categories: ["Poetry", "Poetry"] } });
});

test("language: a category or tag naming it, else --language, else the channel's <language>", () => {
  const named = (name: string) => item({ terms: [{ domain: "category", nicename: "", name }] });
  expect(mapWxrItem(named("हिंदी"), context({ language: "english" }))).toMatchObject({
    value: { language: "hindi", categories: [] },
  });
  expect(mapWxrItem(named("मराठी"), context())).toMatchObject({ value: { language: "marathi" } });
  expect(mapWxrItem(named("Poetry"), context({ language: "marathi", fileLanguage: "hindi" }))).toMatchObject({
    value: { language: "marathi", categories: ["Poetry"] },
  });
  expect(mapWxrItem(named("Poetry"), context({ fileLanguage: "hindi" }))).toMatchObject({
    value: { language: "hindi" },
  });
  expect(mapWxrItem(named("Poetry"), context())).toMatchObject({
    kind: "invalid",
    message: expect.stringContaining("no --language was given"),
  });
  const both = item({
    terms: [
      { domain: "category", nicename: "", name: "Hindi" },
      { domain: "post_tag", nicename: "", name: "Marathi" },
    ],
  });
  expect(mapWxrItem(both, context())).toMatchObject({
    kind: "invalid",
    message: expect.stringContaining("hindi and marathi"),
  });
  expect(mapWxrItem(both, context({ language: "english" }))).toMatchObject({
    value: { language: "english", tags: [] },
  });
  expect(languageOfTerm(" HINDI ")).toBe("hindi");
  expect(languageOfTerm("हिन्दी")).toBe("hindi");
  expect(languageOfTerm("Poetry")).toBeNull();
  expect(languageOfLocale("hi-IN")).toBe("hindi");
  expect(languageOfLocale("mr")).toBe("marathi");
  expect(languageOfLocale("en-US")).toBe("english");
  expect(languageOfLocale("de-DE")).toBeNull();
});

test("postTime from wp:post_date_gmt; drafts' zero GMT dates fall back to wp:post_date in the site time zone", () => {
  expect(
    postTimeOf({ postDateGmt: "2024-01-01 04:30:00", postDate: "2024-01-01 10:00:00" }, "Asia/Kolkata"),
  ).toBe(Date.UTC(2024, 0, 1, 4, 30) / 1000);
  expect(
    postTimeOf({ postDateGmt: "0000-00-00 00:00:00", postDate: "2024-03-10 09:30:00" }, "Asia/Kolkata"),
  ).toBe(Date.UTC(2024, 2, 10, 4, 0) / 1000);
  expect(postTimeOf({ postDateGmt: "", postDate: "0000-00-00 00:00:00" }, "Asia/Kolkata")).toBeNull();
  // Across a DST change the offset of that day is used.
  expect(zonedTimeToEpoch([2024, 7, 1, 12, 0, 0], "America/New_York")).toBe(Date.UTC(2024, 6, 1, 16) / 1000);
  expect(zonedTimeToEpoch([2024, 1, 15, 12, 0, 0], "America/New_York")).toBe(
    Date.UTC(2024, 0, 15, 17) / 1000,
  );
});

test("slugs: percent-encoded Devanagari decoded; an empty slug derived from the title, kept unique", () => {
  expect(decodeSlug("%e0%a4%aa%e0%a5%8d%e0%a4%b0%e0%a5%87%e0%a4%ae-%e0%a4%97%e0%a4%b2%e0%a5%80")).toBe(
    "प्रेम-गली",
  );
  expect(decodeSlug("100%-sure")).toBe("100%-sure");
  const seen = context({ language: "english" });
  const draft = (postId: string) =>
    item({ postId, postName: "", status: "draft", title: "Notes, for a Talk!" });
  expect(mapWxrItem(draft("1"), seen)).toMatchObject({ value: { slug: "notes-for-a-talk" } });
  expect(mapWxrItem(draft("2"), seen)).toMatchObject({ value: { slug: "notes-for-a-talk-2" } });
  expect(mapWxrItem(item({ postName: "", title: "मन चंगा" }), seen)).toMatchObject({
    value: { slug: "मन-चंगा" },
  });
});

test("items that are not public posts or pages are skipped with a reason", () => {
  const c = context({ language: "english" });
  expect(mapWxrItem(item({ postType: "attachment" }), c)).toMatchObject({
    kind: "skip",
    reason: expect.stringContaining("attachment"),
  });
  expect(mapWxrItem(item({ postType: "nav_menu_item" }), c)).toMatchObject({
    reason: "post_type nav_menu_item",
  });
  expect(mapWxrItem(item({ status: "auto-draft" }), c)).toMatchObject({ reason: "status auto-draft" });
  expect(mapWxrItem(item({ postPassword: "secret" }), c)).toMatchObject({ reason: "password-protected" });
  expect(mapWxrItem(item({ postType: "page", status: "draft" }), c)).toMatchObject({
    reason: "page with status draft",
  });
  expect(mapWxrItem(item({ title: "", status: "draft" }), c)).toMatchObject({ reason: "untitled draft" });
});

test("featured image: _thumbnail_id resolved to the attachment's URL", () => {
  const attachments = new Map([["101", "https://example.org/card.jpg"]]);
  expect(
    mapWxrItem(item({ thumbnailId: "101" }), context({ language: "english", attachments })),
  ).toMatchObject({
    value: { featureImageUrl: "https://example.org/card.jpg" },
  });
  expect(
    mapWxrItem(item({ thumbnailId: "999" }), context({ language: "english", attachments })),
  ).toMatchObject({
    value: { featureImageUrl: "" },
  });
});

test("classic-editor text gets paragraphs and line breaks; block-editor HTML keeps its own", () => {
  expect(autop("One\ntwo\n\nThree\n<ul>\n<li>a</li>\n</ul>\nAfter")).toBe(
    "<p>One<br>\ntwo</p>\n<p>Three</p>\n<ul>\n<li>a</li>\n</ul>\n<p>After</p>",
  );
  expect(
    autop(
      "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>y</p>\n<!-- /wp:paragraph -->",
    ),
  ).toBe("<p>x</p>\n<p>y</p>");
  expect(autop("  ")).toBe("");
  expect(decodeEntities("Faith &amp; Hope &#8217;&#x2014;&hellip; &bogus;")).toBe("Faith & Hope ’—… &bogus;");
});
