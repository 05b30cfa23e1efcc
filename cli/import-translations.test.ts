// Decision 039 through the whole importer (`importFile`, as `sukti import` runs
// it): translation groups and sources survive JSON, NDJSON and WordPress
// exports, a re-import changes nothing, and a group with two posts of one
// language rejects the file whole, naming both records.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { RejectedError } from "#cli/errors.ts";
import { importFile } from "#cli/import.ts";
import { parseSourceFields } from "#cli/source.ts";

let dir: string;
let databaseUrl: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-translations-"));
  databaseUrl = `file:${path.join(dir, "sukti.db")}`;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const river = [
  {
    idNum: 1,
    language: "en",
    status: "publish",
    postTime: 1_700_000_000,
    title: "The river and its waves",
    slug: "the-river-and-its-waves",
    content: "<p>The river and its waves are one surf.</p>",
    translationKey: "river",
    source: {
      person: { name: "Kabir", names: { hi: "कबीर", mr: "कबीर" }, slug: "kabir" },
      work: "Songs of Kabir",
      reference: "XVII",
    },
  },
  {
    idNum: 1,
    language: "hi",
    status: "publish",
    postTime: 1_700_000_100,
    title: "दरिया और लहर",
    slug: "दरिया-और-लहर",
    content: "<p>दरिया और लहर में भेद नहीं।</p>",
    translationKey: "river",
    source: { person: "कबीर", work: "बीजक", reference: "साखी 12" },
  },
  {
    idNum: 1,
    language: "mr",
    status: "draft",
    postTime: 1_700_000_200,
    title: "नदी आणि लाटा",
    slug: "नदी-आणि-लाटा",
    content: "<p>नदी आणि लाटा एकच.</p>",
    translationKey: "river",
    source: "कबीर",
  },
  {
    idNum: 2,
    language: "en",
    status: "publish",
    postTime: 1_700_000_300,
    title: "Alone",
    slug: "alone",
    content: "<p>A quote with no translation.</p>",
    source: { person: "Swami Vivekananda" },
  },
];

function store() {
  return new SqliteContentStore(openDatabase(databaseUrl).db);
}

async function expectRiver() {
  const s = store();
  try {
    const english = await s.getPost("english", "the-river-and-its-waves");
    expect(english?.translations).toEqual([
      { language: "hindi", slug: "दरिया-और-लहर", title: "दरिया और लहर" },
    ]);
    expect(english?.source).toEqual({
      person: { slug: "kabir", names: { english: "Kabir", hindi: "कबीर", marathi: "कबीर" } },
      work: "Songs of Kabir",
      reference: "XVII",
    });
    const hindi = await s.getPost("hindi", "दरिया-और-लहर");
    expect(hindi?.source?.person?.slug).toBe("kabir");
    expect(hindi?.translations.map((t) => t.language)).toEqual(["english"]);
    expect((await s.getPost("english", "alone"))?.source).toEqual({
      person: { slug: "swami-vivekananda", names: { english: "Swami Vivekananda", hindi: "", marathi: "" } },
      work: "",
      reference: "",
    });
    expect((await s.listPeople()).map(({ slug, count }) => [slug, count])).toEqual([
      ["kabir", 2],
      ["swami-vivekananda", 1],
    ]);
  } finally {
    await s.close();
  }
}

test("JSON: translations and sources survive; a re-import changes nothing", async () => {
  const file = path.join(dir, "river.json");
  writeFileSync(file, JSON.stringify({ posts: river }));
  expect(await importFile({ file, databaseUrl })).toMatchObject({ created: 4 });
  await expectRiver();
  expect(await importFile({ file, databaseUrl })).toMatchObject({
    created: 0,
    updated: 0,
    unchanged: 4,
  });
  await expectRiver();
});

test("NDJSON: the same records give the same content", async () => {
  const file = path.join(dir, "river.ndjson");
  writeFileSync(file, river.map((record) => JSON.stringify(record)).join("\n"));
  expect(await importFile({ file, databaseUrl })).toMatchObject({ created: 4 });
  await expectRiver();
  expect(await importFile({ file, databaseUrl })).toMatchObject({ unchanged: 4 });
});

test("a group with two posts of one language is rejected whole, naming both records", async () => {
  const file = path.join(dir, "twice.ndjson");
  const second = { ...river[0], idNum: 3, slug: "the-river-again" };
  writeFileSync(file, [...river, second].map((record) => JSON.stringify(record)).join("\n"));
  const error = (await importFile({ file, databaseUrl }).catch((e) => e)) as RejectedError;
  expect(error).toBeInstanceOf(RejectedError);
  expect(error.problems).toEqual([
    'line 5 [english "the-river-again", idNum 3]: translationKey: group "river" has two english posts: this one and line 1 ("the-river-and-its-waves")',
  ]);
  // Nothing was written: the database was not even created.
  expect(existsSync(path.join(dir, "sukti.db"))).toBe(false);
});

test("a post joining a group whose place is held in the database by a post the file leaves alone is rejected", async () => {
  const first = path.join(dir, "river.json");
  writeFileSync(first, JSON.stringify({ posts: river }));
  await importFile({ file: first, databaseUrl });
  const before = readFileSync(path.join(dir, "sukti.db"));
  const file = path.join(dir, "joining.json");
  writeFileSync(file, JSON.stringify({ posts: [{ ...river[3], translationKey: "river" }] }));
  const error = (await importFile({ file, databaseUrl }).catch((e) => e)) as RejectedError;
  expect(error.problems).toEqual([
    'posts[0] (line 1) [english "alone"]: translationKey: group "river" already has the english post "the-river-and-its-waves" in the database, which this file does not include',
  ]);
  // Buffer.equals: toEqual walks a buffer byte by byte (~5 s for this file on a busy machine).
  expect(readFileSync(path.join(dir, "sukti.db")).equals(before)).toBe(true);
  // Rewriting both in one file moves the place.
  const moving = path.join(dir, "moving.json");
  writeFileSync(
    moving,
    JSON.stringify({
      posts: [
        { ...river[0], translationKey: "" },
        { ...river[3], translationKey: "river" },
      ],
    }),
  );
  await importFile({ file: moving, databaseUrl });
  const s = store();
  expect((await s.getPost("hindi", "दरिया-और-लहर"))?.translations.map((t) => t.slug)).toEqual(["alone"]);
  await s.close();
});

test("WordPress with Polylang: groups from post_translations, sources from custom fields; a re-import changes nothing", async () => {
  const file = path.join(dir, "polylang.xml");
  copyFileSync(path.resolve("tests/fixtures/wxr/polylang-en-hi-mr.xml"), file);
  const sourceFields = parseSourceFields("person=quote_author,work=quote_source,reference=quote_ref");
  const first = await importFile({ file, databaseUrl, sourceFields });
  expect(first.created).toBe(6);
  const s = store();
  const lane = await s.getPost("english", "the-lane-of-love");
  expect(lane?.translations.map((t) => t.language)).toEqual(["hindi", "marathi"]);
  expect(lane?.source?.person).not.toBeNull();
  expect(lane?.source?.work).not.toBe("");
  const people = await s.listPeople();
  expect(people.length).toBeGreaterThan(0);
  expect((await s.listTags()).map((tag) => tag.name)).not.toContain("English");
  await s.close();
  expect(await importFile({ file, databaseUrl, sourceFields })).toMatchObject({ unchanged: 6 });
});

test("WordPress with WPML: groups from _wpml_import_translation_group, German skipped; idempotent", async () => {
  const file = path.join(dir, "wpml.xml");
  copyFileSync(path.resolve("tests/fixtures/wxr/wpml-export.xml"), file);
  const first = await importFile({ file, databaseUrl });
  expect(first.created).toBe(3);
  const s = store();
  const lane = await s.getPost("english", "the-lane-of-love");
  expect(lane?.translations.map((t) => [t.language, t.title])).toEqual([
    ["hindi", "प्रेम गली अति सांकरी"],
    ["marathi", "प्रेमाची गल्ली अरुंद"],
  ]);
  await s.close();
  expect(await importFile({ file, databaseUrl })).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
});

// Decision 066: a line about the person (years, one sentence), per language or bare, from every format.
test("a person's line about them: JSON and NDJSON (per language, or bare), WXR (--source-field about=FIELD); drafts write none", async () => {
  const posts = [
    {
      ...river[0],
      source: {
        person: {
          name: "Kabir",
          names: { hi: "कबीर", mr: "कबीर" },
          slug: "kabir",
          about: { en: " 15th century.  A poet. " },
        },
        work: "Songs of Kabir",
        reference: "XVII",
      },
    },
    // A bare line in Devanagari fills the post's language (Hindi); an unpublished record's line is never written.
    { ...river[1], source: { person: { name: "कबीर", about: "15वीं शताब्दी। कवि।" } } },
    { ...river[2], source: { person: { name: "कबीर", about: { mr: "मसुद्याची ओळ" } } } },
    river[3],
  ];
  for (const [name, text] of [
    ["about.json", JSON.stringify({ posts })],
    ["about.ndjson", posts.map((record) => JSON.stringify(record)).join("\n")],
  ] as const) {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    await importFile({ file, databaseUrl });
    const s = store();
    const kabir = await s.getPerson("kabir");
    expect(kabir?.about, name).toEqual({
      english: "15th century. A poet.",
      hindi: "15वीं शताब्दी। कवि।",
      marathi: "",
    });
    expect(kabir?.counts, name).toEqual({ english: 1, hindi: 1, marathi: 0 });
    expect((await s.getPerson("swami-vivekananda"))?.about, name).toEqual({
      english: "",
      hindi: "",
      marathi: "",
    });
    await s.close();
    // Again: nothing changes.
    expect(await importFile({ file, databaseUrl }), name).toMatchObject({ created: 0, updated: 0 });
  }
  // Past the limit: the record's problem, in one line.
  const long = path.join(dir, "long.json");
  writeFileSync(
    long,
    JSON.stringify({ posts: [{ ...river[3], source: { person: { name: "X", about: "a".repeat(301) } } }] }),
  );
  const error = (await importFile({ file: long, databaseUrl }).catch((e) => e)) as RejectedError;
  expect(error.problems).toEqual([
    'posts[0] (line 1) [idNum 2, slug "alone"]: source.person.about: is longer than 300 characters',
  ]);

  // WordPress: the line from a custom field, joining the person of the same post.
  const wxr = path.join(dir, "about.xml");
  const fixture = readFileSync(path.resolve("tests/fixtures/wxr/polylang-en-hi-mr.xml"), "utf8");
  const withAbout = fixture.replace(
    "<wp:meta_value><![CDATA[Kabir]]></wp:meta_value>\n\t\t</wp:postmeta>",
    "<wp:meta_value><![CDATA[Kabir]]></wp:meta_value>\n\t\t</wp:postmeta>\n\t\t<wp:postmeta>\n\t\t\t<wp:meta_key><![CDATA[quote_author_about]]></wp:meta_key>\n\t\t\t<wp:meta_value><![CDATA[15th century. Mystic poet &amp; saint.]]></wp:meta_value>\n\t\t</wp:postmeta>",
  );
  expect(withAbout).not.toBe(fixture);
  writeFileSync(wxr, withAbout);
  const wxrUrl = `file:${path.join(dir, "wxr.db")}`;
  const sourceFields = parseSourceFields("person=quote_author,about=quote_author_about");
  await importFile({ file: wxr, databaseUrl: wxrUrl, sourceFields });
  const s = new SqliteContentStore(openDatabase(wxrUrl).db);
  const people = await s.listPeople();
  const english = people.find((person) => person.names.english === "Kabir");
  expect(english?.about.english).toBe("15th century. Mystic poet & saint.");
  expect(people.filter((person) => person !== english).map((person) => person.about.english)).not.toContain(
    "15th century. Mystic poet & saint.",
  );
  await s.close();
});
