import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { decodeEntities } from "#app/content/html-text.ts";
import { autop } from "#app/content/wordpress-content.ts";
import { UserError } from "#cli/errors.ts";
import { openSource, parseItem } from "#cli/records.ts";
import { parseSourceFields, type SourceItem, type SourceOptions } from "#cli/source.ts";
import { wxrSource } from "#cli/wxr/index.ts";
import { mapWxrItem } from "#cli/wxr/items.ts";
import { languageOfLocale, languageOfTerm } from "#cli/wxr/languages.ts";
import { decodeSlug } from "#cli/wxr/slugs.ts";
import type { WxrContext, WxrItem } from "#cli/wxr/types.ts";
import { newItem, parseWxr } from "#cli/wxr/xml.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../tests/fixtures/wordpress-export.xml");
const WXR_FIXTURES = path.resolve(import.meta.dirname, "../../tests/fixtures/wxr");
/** Polylang's own test export (tests/fixtures/wxr/SOURCE.md): English and French. */
const POLYLANG_REAL = path.join(WXR_FIXTURES, "polylang-test-import.xml");
/** A Polylang export of English, Hindi and Marathi quotes, with authors and custom fields. */
const POLYLANG = path.join(WXR_FIXTURES, "polylang-en-hi-mr.xml");
const WPML = path.join(WXR_FIXTURES, "wpml-export.xml");

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
    ...newItem(1),
    title: "A title",
    postId: "7",
    postDate: "2024-01-01 10:00:00",
    postDateGmt: "2024-01-01 04:30:00",
    postName: "a-title",
    status: "publish",
    postType: "post",
    content: "Text",
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

test("WXR 1.0, 1.1 and 1.3 are read the same way; 2.x and other XML are refused", async () => {
  const v12 = readFileSync(FIXTURE, "utf8");
  for (const version of ["1.0", "1.1", "1.3"]) {
    const text = v12
      .replaceAll("export/1.2/", `export/${version}/`)
      .replace("<wp:wxr_version>1.2</wp:wxr_version>", `<wp:wxr_version>${version}</wp:wxr_version>`);
    const { items, version: read } = await parse(text);
    expect(read).toBe(version);
    expect(items).toHaveLength(13);
    expect(items[1]!.thumbnailId).toBe("101");
  }
  await expect(parse(v12.replaceAll("export/1.2/", "export/2.0/"))).rejects.toThrow(
    "unsupported WXR version 2.0: sukti reads WXR 1.x",
  );
  await expect(
    parse(v12.replace("<wp:wxr_version>1.2</wp:wxr_version>", "<wp:wxr_version>2.1</wp:wxr_version>")),
  ).rejects.toThrow("unsupported WXR version 2.1");
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
  // A password-protected post is stored unpublished (private), never skipped: an earlier public copy leaves the site.
  expect(mapWxrItem(item({ postPassword: "secret" }), c)).toMatchObject({
    kind: "post",
    unpublished: "password-protected",
    value: { status: "private" },
  });
  expect(mapWxrItem(item({ postPassword: "secret", status: "draft" }), c)).toMatchObject({
    value: { status: "draft" },
  });
  expect(mapWxrItem(item({ postPassword: "secret", postType: "page" }), c)).toMatchObject({
    reason: "password-protected page",
  });
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
    mapWxrItem(
      item({
        content:
          "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>y</p>\n<!-- /wp:paragraph -->",
      }),
      context({ language: "english" }),
    ),
  ).toMatchObject({ value: { content: "<p>x</p>\n<p>y</p>" } });
  expect(autop("  ")).toBe("");
  expect(decodeEntities("Faith &amp; Hope &#8217;&#x2014;&hellip; &bogus;")).toBe("Faith & Hope ’—… &bogus;");
  // One decoder for the whole site (app/content/html-text.ts): a no-break space is a space.
  expect(decodeEntities("a&nbsp;b")).toBe("a b");
});

/** Every item a WXR source yields in one read, by wp:post_id, and what it says after the read. */
async function readSource(file: string, options: SourceOptions = {}) {
  const source = wxrSource(file, options, "Asia/Kolkata");
  const items = new Map<string, SourceItem>();
  for await (const item of source.items({ bytes: 0 })) {
    items.set(/wp:post_id (\d+)/.exec(item.label)?.[1] ?? item.label, item);
  }
  return { items, after: source.afterFirstPass?.() ?? { errors: [], warnings: [] } };
}

function postValue(item: SourceItem | undefined): Record<string, unknown> {
  expect(item?.kind).toBe("post");
  return (item as { value: Record<string, unknown> }).value;
}

const variantDirs: string[] = [];
afterAll(() => {
  for (const dir of variantDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The file's text, changed, in a temporary file (removed after the file's tests). */
function variant(file: string, change: (text: string) => string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-wxr-"));
  variantDirs.push(dir);
  const out = path.join(dir, path.basename(file));
  writeFileSync(out, change(readFileSync(file, "utf8")));
  return out;
}

test("Polylang's own export: language and translation group from its terms, French skipped", async () => {
  const { items, after } = await readSource(POLYLANG_REAL);
  expect(after).toEqual({ errors: [], warnings: [] });
  expect(postValue(items.get("398"))).toMatchObject({
    language: "english",
    slug: "test",
    translationKey: "pll_56acecea35bef",
    categories: ["Test"],
    tags: [],
  });
  expect(items.get("400")).toMatchObject({
    kind: "skip",
    reason: "language fr (not English, Hindi or Marathi)",
  });
  // A group whose map carries Polylang's extra "sync" data.
  expect(postValue(items.get("413"))).toMatchObject({
    language: "english",
    translationKey: "pll_69d6065abe959",
    categories: [],
  });
  expect(items.get("414")).toMatchObject({ kind: "skip", reason: expect.stringContaining("language fr") });
  expect(items.get("402")).toMatchObject({ kind: "page", value: { slug: "home", title: "Home" } });
  expect(items.get("405")).toMatchObject({ kind: "skip", reason: "post_type nav_menu_item" });
  expect(postValue(items.get("398"))).not.toHaveProperty("source");

  let groups = new Map<string, string>();
  let polylang = false;
  for await (const event of parseWxr(once(readFileSync(POLYLANG_REAL, "utf8")))) {
    if ("channel" in event) ({ translationGroups: groups, polylang } = event.channel);
  }
  expect(polylang).toBe(true);
  expect(Object.fromEntries(groups)).toEqual({
    "398": "pll_56acecea35bef",
    "400": "pll_56acecea35bef",
    "402": "pll_56aced161652a",
    "404": "pll_56aced161652a",
    "413": "pll_69d6065abe959",
    "414": "pll_69d6065abe959",
  });
});

test("Polylang, English, Hindi and Marathi: one key per group, an item known only by the group's map", async () => {
  // --language does not override the language Polylang gives a post.
  const { items, after } = await readSource(POLYLANG, { language: "english" });
  expect(after.warnings).toEqual([]);
  const summary = [...items].map(([id, item]) => {
    const value = postValue(item);
    return [id, value.language, value.translationKey];
  });
  expect(summary).toEqual([
    ["21", "english", "pll_663f1b02e4a71"],
    ["22", "hindi", "pll_663f1b02e4a71"],
    ["23", "marathi", "pll_663f1b02e4a71"], // no post_translations category: from the map (id "23" as a string)
    ["24", "english", "pll_663f1b5d90c3e"],
    ["25", "hindi", "pll_663f1b5d90c3e"],
    ["26", "marathi", undefined],
  ]);
  expect(postValue(items.get("26"))).not.toHaveProperty("translationKey");
  // The language and post_translations terms are neither categories nor tags.
  expect(postValue(items.get("21"))).toMatchObject({ categories: ["Love"], tags: ["Kabir"] });
  expect(postValue(items.get("22"))).toMatchObject({
    slug: "प्रेम-गली-अति-सांकरी",
    categories: ["प्रेम"],
    tags: [],
  });
  expect(postValue(items.get("23"))).toMatchObject({ categories: ["प्रेम"] });
  expect(postValue(items.get("21"))).not.toHaveProperty("source");
});

test("a Polylang map that cannot be read is a warning naming the term; the items' own categories still count", async () => {
  const broken = variant(POLYLANG, (text) =>
    text.replace('a:3:{s:2:"en";i:21;s:2:"hi";i:22;s:2:"mr";s:2:"23";}', 'a:3:{s:2:"en";i:21;s:3:"hi";i:22;'),
  );
  const { items, after } = await readSource(broken);
  expect(after.errors).toEqual([]);
  expect(after.warnings).toEqual([
    expect.stringMatching(
      /^<wp:term> pll_663f1b02e4a71 \(post_translations\): wp:term_description is not a readable serialized array \(expected '"' at byte \d+\); its posts keep the group only if/,
    ),
  ]);
  expect(postValue(items.get("21")).translationKey).toBe("pll_663f1b02e4a71");
  expect(postValue(items.get("22")).translationKey).toBe("pll_663f1b02e4a71");
  expect(postValue(items.get("23"))).not.toHaveProperty("translationKey");
});

test("Polylang language terms: by slug or by name; a language category outside Polylang is not trusted", () => {
  const polylang = (nicename: string, name: string, extra: WxrItem["terms"] = []) =>
    item({ terms: [{ domain: "language", nicename, name }, ...extra] });
  const sure = context({ polylang: true, fileLanguage: "english" });
  expect(mapWxrItem(polylang("mr", "मराठी"), sure)).toMatchObject({ value: { language: "marathi" } });
  expect(mapWxrItem(polylang("hi-in", "Hindi"), sure)).toMatchObject({ value: { language: "hindi" } });
  expect(mapWxrItem(polylang("hin", "हिन्दी"), sure)).toMatchObject({ value: { language: "hindi" } });
  expect(mapWxrItem(polylang("sa", "संस्कृतम्"), sure)).toMatchObject({
    kind: "skip",
    reason: "language sa (not English, Hindi or Marathi)",
  });
  // Not a Polylang file: a "language" taxonomy of the site's own (the quote's original language, say).
  const plain = context({ fileLanguage: "english" });
  expect(
    mapWxrItem(polylang("sa", "Sanskrit", [{ domain: "category", nicename: "gita", name: "Gita" }]), plain),
  ).toMatchObject({ kind: "post", value: { language: "english", categories: ["Gita"] } });
  // … unless the item itself is in a Polylang translation group.
  expect(
    mapWxrItem(
      polylang("sa", "Sanskrit", [{ domain: "post_translations", nicename: "pll_1", name: "pll_1" }]),
      plain,
    ),
  ).toMatchObject({ kind: "skip" });
});

test("WPML: _wpml_import_language_code and _wpml_import_translation_group", async () => {
  const { items } = await readSource(WPML);
  expect(postValue(items.get("31"))).toMatchObject({ language: "english", translationKey: "wpml-12" });
  expect(postValue(items.get("32"))).toMatchObject({ language: "hindi", translationKey: "wpml-12" });
  expect(postValue(items.get("33"))).toMatchObject({ language: "marathi", translationKey: "wpml-12" });
  expect(items.get("34")).toMatchObject({
    kind: "skip",
    reason: "language de (not English, Hindi or Marathi)",
  });
  const wpml = (meta: [string, string][]) => item({ meta: new Map(meta) });
  expect(
    mapWxrItem(wpml([["_wpml_import_translation_group", " 7 "]]), context({ language: "hindi" })),
  ).toMatchObject({ value: { language: "hindi", translationKey: "wpml-7" } });
  expect(
    mapWxrItem(wpml([["_wpml_import_language_code", "mr"]]), context({ language: "hindi" })),
  ).not.toHaveProperty("value.translationKey");
});

test("WordPress.com's https:// namespaces, and https and http in one file", async () => {
  const text = readFileSync(POLYLANG, "utf8");
  const https = text.replaceAll("http://wordpress.org/export/", "https://wordpress.org/export/");
  expect(https).toContain('xmlns:wp="https://wordpress.org/export/1.2/"');
  expect(https).toContain('xmlns:excerpt="https://wordpress.org/export/1.2/excerpt/"');
  const read = async (xml: string) => {
    const { items, version } = await parse(xml);
    return { version, items: items.map((i) => [i.postId, i.postName, i.creator, i.terms.length]) };
  };
  const plain = await read(text);
  expect(plain.items).toHaveLength(6);
  expect(await read(https)).toEqual(plain);
  const mixed = text.replace(
    'xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"',
    'xmlns:excerpt="https://wordpress.org/export/1.2/excerpt/"',
  );
  expect(await read(mixed)).toEqual(plain);
  const { items } = await readSource(variant(POLYLANG, () => https));
  expect(postValue(items.get("22"))).toMatchObject({
    language: "hindi",
    translationKey: "pll_663f1b02e4a71",
  });
  await expect(parse(https.replaceAll("export/1.2/", "export/2.0/"))).rejects.toThrow(
    "unsupported WXR version 2.0",
  );
  await expect(parse("<rss><channel><item><title>x</title></item></channel></rss>")).rejects.toThrow(
    "no element in the http(s)://wordpress.org/export/ namespace",
  );
});

test("WXR 1.3: namespaces and wp:wxr_version of a later 1.x are read", async () => {
  const v13 = readFileSync(POLYLANG, "utf8")
    .replaceAll("export/1.2/", "export/1.3/")
    .replace("<wp:wxr_version>1.2</wp:wxr_version>", "<wp:wxr_version>1.3</wp:wxr_version>");
  const { items, version } = await parse(v13);
  expect(version).toBe("1.3");
  expect(items.map((i) => i.postId)).toEqual(["21", "22", "23", "24", "25", "26"]);
  expect(items[0]!.content).toContain("The lane of love");
});

test("--source-field author: the person is the author's display name (the login when not listed)", async () => {
  const { items } = await readSource(POLYLANG, { sourceFields: parseSourceFields("author") });
  expect(postValue(items.get("21")).source).toEqual({ person: "Sant Vani Editor" });
  expect(postValue(items.get("22")).source).toEqual({ person: "Ramesh Kulkarni" });
  expect(postValue(items.get("26")).source).toEqual({ person: "ghost" });
});

test("--source-field KEY and person=…,work=…,reference=…: post meta; empty parts left out", async () => {
  const person = await readSource(POLYLANG, { sourceFields: parseSourceFields("quote_author") });
  expect(postValue(person.items.get("21")).source).toEqual({ person: "Kabir" });
  expect(postValue(person.items.get("22")).source).toEqual({ person: "कबीर" });
  expect(postValue(person.items.get("24"))).not.toHaveProperty("source"); // blank value
  expect(postValue(person.items.get("25"))).not.toHaveProperty("source"); // no such meta

  const parts = await readSource(POLYLANG, {
    sourceFields: parseSourceFields("person=quote_author, work=quote_source, reference=quote_ref"),
  });
  expect(postValue(parts.items.get("21")).source).toEqual({
    person: "Kabir",
    work: "Bijak",
    reference: "Sakhi 47",
  });
  expect(postValue(parts.items.get("23")).source).toEqual({ person: "संत कबीर" });
  expect(postValue(parts.items.get("26")).source).toEqual({ person: "संत तुकाराम", work: "अभंग गाथा" });
  expect(postValue(parts.items.get("25"))).not.toHaveProperty("source");

  // Through the schema, as the importer checks it.
  expect(parseItem(parts.items.get("21")!, undefined)).toMatchObject({
    post: {
      translationKey: "pll_663f1b02e4a71",
      source: { person: { name: "Kabir" }, work: "Bijak", reference: "Sakhi 47" },
    },
  });
  const alone = parseItem(parts.items.get("25")!, undefined);
  expect(alone && "post" in alone && alone.post.source).toBeUndefined();

  const mixed = await readSource(POLYLANG, {
    sourceFields: parseSourceFields("person=author,work=quote_source"),
  });
  expect(postValue(mixed.items.get("22")).source).toEqual({ person: "Ramesh Kulkarni", work: "बीजक" });
});

test("--source-field syntax, and its refusal for JSON and NDJSON files", () => {
  expect(parseSourceFields("author")).toEqual({ person: { from: "author" } });
  expect(parseSourceFields("quote_author")).toEqual({ person: { from: "meta", key: "quote_author" } });
  expect(parseSourceFields("meta:author")).toEqual({ person: { from: "meta", key: "author" } });
  expect(parseSourceFields("work=quote_source,person=author")).toEqual({
    work: { from: "meta", key: "quote_source" },
    person: { from: "author" },
  });
  const refused = (spec: string, message: string) =>
    expect(() => parseSourceFields(spec)).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringContaining(message) }),
    );
  refused("", "needs a value");
  refused("person=a,title=b", '"title=b" is not person=FIELD, work=FIELD, reference=FIELD or about=FIELD');
  refused("person=a,quote_source", '"quote_source" is not person=FIELD');
  refused("person=a,person=b", "person is given twice");
  refused("work=", "a part names no field");
  refused("meta:", "a part names no field");

  const fields = parseSourceFields("author");
  for (const format of ["json", "ndjson"] as const) {
    expect(() => openSource("posts.json", format, { sourceFields: fields })).toThrow(UserError);
    expect(() => openSource("posts.json", format, { sourceFields: fields })).toThrow(
      "--source-field reads WordPress exports only",
    );
  }
  expect(openSource("posts.json", "json", { language: "hindi" }).format).toBe("json");
  expect(openSource("export.xml", "wxr", { language: "hindi", sourceFields: fields }).format).toBe("wxr");
});

/** An attachment item of the fixture's shape, for post `parent`. */
function attachmentItem(id: string, parent: string, url: string, mime = ""): string {
  return `<item><title>rec</title><wp:post_id>${id}</wp:post_id><wp:post_parent>${parent}</wp:post_parent>
    <wp:status>inherit</wp:status><wp:post_type>attachment</wp:post_type>${mime ? `<wp:post_mime_type>${mime}</wp:post_mime_type>` : ""}
    <wp:attachment_url><![CDATA[${url}]]></wp:attachment_url></item>`;
}

function enclosureMeta(value: string): string {
  return `<wp:postmeta><wp:meta_key>enclosure</wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`;
}

test("audio: an <enclosure> or the enclosure meta of type audio, else the post's first audio attachment (wherever it sits)", async () => {
  const file = variant(FIXTURE, (text) =>
    text
      .replace(
        "<wp:post_id>12</wp:post_id>",
        `<enclosure url="https://santvani.example.org/kabir.mp3" length="1234" type="audio/mpeg"/><wp:post_id>12</wp:post_id>`,
      )
      .replace(
        "<wp:post_id>14</wp:post_id>",
        `${enclosureMeta("https://x.example/v.mp4\n999\nvideo/mp4")}<wp:post_id>14</wp:post_id>`,
      )
      .replace(
        "<wp:post_id>15</wp:post_id>",
        `${enclosureMeta("/audio/q.mp3\r\n10\r\naudio/mpeg\r\n")}<wp:post_id>15</wp:post_id>`,
      )
      .replace(
        "</channel>",
        `${attachmentItem("201", "13", "https://santvani.example.org/uploads/tuka.m4a")}
        ${attachmentItem("202", "13", "https://santvani.example.org/uploads/second.mp3")}
        ${attachmentItem("203", "14", "https://santvani.example.org/uploads/clip.bin", "audio/ogg")}
        ${attachmentItem("204", "16", "https://santvani.example.org/uploads/page.pdf")}
        ${attachmentItem("205", "17", "https://santvani.example.org/uploads/x.jpg", "image/jpeg")}</channel>`,
      ),
  );
  const first = wxrSource(file, {}, "Asia/Kolkata");
  for await (const _ of first.items({ bytes: 0 })) {
    // the first read collects the attachments
  }
  expect(first.afterFirstPass?.().errors).toEqual([]);
  const second = wxrSource(file, {}, "Asia/Kolkata", first.attachments);
  const audio = new Map<string, unknown>();
  for await (const item of second.items({ bytes: 0 })) {
    if (item.kind === "post")
      audio.set(/wp:post_id (\d+)/.exec(item.label)?.[1] ?? "", postValue(item).audio);
  }
  expect(audio.get("12")).toBe("https://santvani.example.org/kabir.mp3");
  // Found after the post, by its parent; the first of two.
  expect(audio.get("13")).toBe("https://santvani.example.org/uploads/tuka.m4a");
  // A video enclosure is not a recording; the audio attachment (by its mime type) is.
  expect(audio.get("14")).toBe("https://santvani.example.org/uploads/clip.bin");
  expect(audio.get("15")).toBe("/audio/q.mp3");
  expect(audio.get("16")).toBe("");
  expect(audio.get("17")).toBe("");
});

test("audio: an attachment whose address could run in a browser is an error of the first read", async () => {
  const file = variant(FIXTURE, (text) =>
    text.replace(
      "</channel>",
      `${attachmentItem("206", "12", "javascript:alert(1)//x.mp3", "audio/mpeg")}</channel>`,
    ),
  );
  const { after } = await readSource(file);
  expect(after.errors).toEqual([
    'item 14 (wp:post_id 206): audio: "javascript:alert(1)//x.mp3" is not an http(s) address or a path starting with / (attachment of post 12)',
  ]);
});
