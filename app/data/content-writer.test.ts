// The writer's rules run alike whatever drives them: the same scenarios run
// through SyncContentWriter (SQLite's writeContent), through
// AsyncContentWriter over SQLite's WriteTarget, and (when installed) through
// PostgreSQL; outcomes, errors and the content read back (search included)
// must agree, and the outcomes and messages are pinned below.
import type pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile } from "#app/content/schemas.ts";
import { AsyncContentWriter, incomingKeys, SyncContentWriter } from "#app/data/content-writer.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { SqliteWriteTarget } from "#app/data/sqlite/write-target.server.ts";
import type { ContentStore } from "#app/data/store.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";
import { postRecord } from "#tests/support/records.ts";

async function writeAsyncSqlite(db: Db, content: ContentFile, dryRun: boolean) {
  const writer = new AsyncContentWriter(new SqliteWriteTarget(db), {
    incoming: incomingKeys(content),
    dryRun,
  });
  if (!dryRun) db.exec("BEGIN IMMEDIATE");
  try {
    for (const post of content.posts) await writer.writePost(post, sanitizePostHtml(post.content));
    for (const page of content.pages) await writer.writePage(page, sanitizePostHtml(page.content));
    await writer.finish();
    if (!dryRun) db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return writer.summary;
}

/** Content with a script in it, which every write must strip. */
const post = (overrides: Parameters<typeof postRecord>[0]) =>
  postRecord({ content: `<p>Content of ${overrides.slug}</p><script>alert(1)</script>`, ...overrides });

const a = post({ idNum: 1, slug: "a", tags: ["Love", "love", "Truth"], categories: ["Wisdom"] });
const b = post({ idNum: 2, slug: "b", tags: ["Peace"] });
const c = post({ language: "hindi", idNum: 1, slug: "प्रेम-का-सार", title: "प्रेम का सार", tags: ["प्रेम"] });
const d = post({ language: "marathi", idNum: 1, slug: "भक्ती", status: "draft", tags: ["भक्ती"] });
const e = post({ idNum: 3, slug: "e", status: "private" });
const page = { slug: "privacy-policy", title: "Privacy", content: "<p>We keep nothing.</p>" };
const kabir = { name: "Kabir", names: { hindi: "कबीर" }, slug: "kabir" };
const kabirA = {
  ...a,
  translationKey: "river",
  source: { person: kabir, work: "Bijak", reference: "Sakhi 12" },
};
// The same person by their Hindi name alone, from a Hindi and a (draft) Marathi post.
const kabirC = {
  ...c,
  status: "publish" as const,
  translationKey: "river",
  source: { person: { name: "कबीर", names: {} }, work: "बीजक", reference: "" },
};
const kabirD = {
  ...d,
  translationKey: "river",
  source: { person: { name: "कबीर", names: {} }, work: "", reference: "" },
};

const STEPS: { name: string; content: ContentFile; dryRun?: boolean }[] = [
  { name: "first import", content: { posts: [a, b, c, d, e], pages: [page] } },
  { name: "the same again", content: { posts: [a, b, c, d, e], pages: [page] } },
  {
    name: "changes",
    content: {
      posts: [
        { ...a, title: "A new title", tags: ["LOVE", "Courage"] },
        { ...c, status: "draft" },
        { ...d, status: "publish", content: "<p>भक्ती आणि ज्ञान</p>" },
        { ...b, tags: [], categories: ["Wisdom", "wisdom"] },
      ],
      pages: [{ ...page, title: "Privacy policy" }],
    },
  },
  {
    name: "dry run",
    dryRun: true,
    content: { posts: [post({ idNum: 9, slug: "new" }), { ...b, title: "changed" }, e], pages: [page] },
  },
  {
    name: "idNum swap",
    content: {
      posts: [
        { ...a, idNum: 2 },
        { ...b, idNum: 1 },
      ],
      pages: [],
    },
  },
  {
    name: "idNum held by a post the import does not write",
    content: { posts: [post({ idNum: 4, slug: "f" }), post({ idNum: 3, slug: "g" })], pages: [] },
  },
  {
    name: "a post gives up its idNum and is not rewritten",
    content: {
      posts: [
        { ...a, idNum: 1 },
        { ...b, idNum: 1 },
      ],
      pages: [],
    },
  },
  { name: "back", content: { posts: [a, b, { ...c, status: "publish" }], pages: [page] } },
  // Translation groups and sources (decision 039).
  { name: "translations and sources", content: { posts: [kabirA, kabirC, kabirD], pages: [] } },
  { name: "translations and sources again", content: { posts: [kabirA, kabirC, kabirD], pages: [] } },
  {
    name: "a second english post in the group",
    content: { posts: [kabirA, { ...b, translationKey: "river" }], pages: [] },
  },
  {
    name: "a place in the group held by a post the import does not write",
    content: { posts: [post({ idNum: 7, slug: "h", translationKey: "river" })], pages: [] },
  },
  {
    name: "the english place moves from a to b, and the person gains a Marathi name",
    content: {
      posts: [
        { ...kabirA, translationKey: undefined },
        { ...b, translationKey: "river" },
        {
          ...kabirC,
          source: { person: { name: "कबीर", names: { marathi: "संत कबीर" } }, work: "बीजक", reference: "" },
        },
      ],
      pages: [],
    },
  },
  // Unpublished records never write a person's names, slug or keys, nor create one (decision 048).
  {
    name: "a draft gives Kabir new names, a pending post names someone new",
    content: {
      posts: [
        {
          ...kabirD,
          source: {
            person: { name: "Kabir", names: { english: "Draft Kabir", marathi: "मसुदा कबीर" }, slug: "kabir" },
            work: "",
            reference: "",
          },
        },
        post({
          idNum: 20,
          slug: "pending-new-person",
          status: "pending",
          tags: ["draftonly"],
          source: { person: { name: "Draftperson", names: {} }, work: "", reference: "" },
        }),
      ],
      pages: [],
    },
  },
  {
    name: "a draft before the published post that creates its person; the tag takes the published spelling",
    content: {
      posts: [
        post({
          idNum: 21,
          slug: "draft-first",
          status: "draft",
          source: { person: { name: "तुकाराम", names: {} }, work: "", reference: "" },
        }),
        post({
          idNum: 22,
          slug: "tukaram-published",
          tags: ["DraftOnly"],
          source: { person: { name: "Tukaram", names: { marathi: "तुकाराम" } }, work: "", reference: "" },
        }),
      ],
      pages: [],
    },
  },
  {
    name: "the same again",
    content: {
      posts: [
        post({
          idNum: 21,
          slug: "draft-first",
          status: "draft",
          source: { person: { name: "तुकाराम", names: {} }, work: "", reference: "" },
        }),
        post({
          idNum: 22,
          slug: "tukaram-published",
          tags: ["DraftOnly"],
          source: { person: { name: "Tukaram", names: { marathi: "तुकाराम" } }, work: "", reference: "" },
        }),
      ],
      pages: [],
    },
  },
  {
    name: "dry run of a new person",
    dryRun: true,
    content: {
      posts: [{ ...a, source: { person: { name: "Tukaram", names: {} }, work: "", reference: "" } }],
      pages: [],
    },
  },
];

/** SyncContentWriter in a dry run (writeContent has none). */
function dryRunSync(db: Db, content: ContentFile) {
  const writer = new SyncContentWriter(new SqliteWriteTarget(db), {
    incoming: incomingKeys(content),
    dryRun: true,
  });
  for (const record of content.posts) writer.writePost(record, sanitizePostHtml(record.content));
  for (const record of content.pages) writer.writePage(record, sanitizePostHtml(record.content));
  writer.finish();
  return writer.summary;
}

type Outcome = { summary: unknown } | { error: string };

async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { summary: await run() };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

async function contents(store: ContentStore) {
  const slugs: [Language, string][] = [
    ["english", "a"],
    ["english", "b"],
    ["english", "e"],
    ["english", "f"],
    ["english", "g"],
    ["english", "new"],
    ["hindi", "प्रेम-का-सार"],
    ["marathi", "भक्ती"],
  ];
  return {
    posts: await Promise.all(slugs.map(([language, slug]) => store.getPost(language, slug))),
    website: await store.getWebsite(),
    tags: await store.listTags(),
    terms: await store.listSitemapTerms().then((terms) => terms.map(({ updatedAt: _u, ...term }) => term)),
    pages: await store.listPages(),
    page: await store.getPage("privacy-policy"),
    searches: await Promise.all(
      ["love", "courage", "prem", "भक्ती", "ज्ञान", "title", "kabir", "bijak", "संत कबीर", "sakhi"].map((q) =>
        store.searchPosts(q, 1, 10),
      ),
    ),
    people: (await store.listPeople()).map(({ updatedAt: _u, ...person }) => person),
    kabir: await store.getPerson("kabir").then((person) => person && { ...person, updatedAt: 0 }),
    kabirPosts: await store.listPosts({ person: "kabir" }, 1, 10),
    tukaram: await store.getPerson("tukaram").then((person) => person && { ...person, updatedAt: 0 }),
    draftonly: await store.getTerm("tag", "draftonly"),
  };
}

const withPostgres = postgresAvailable();
let server: TestPostgres | undefined;
let pool: pg.Pool | undefined;

beforeAll(async () => {
  if (!withPostgres) return;
  server = await sharedPostgres();
  pool = createPool(await server.createDatabase("writer"));
  await migratePostgres(pool);
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

test("the writer's rules give the same outcomes, messages and content, sync, async and on PostgreSQL", async () => {
  const original = openDatabase(":memory:").db;
  const shared = openDatabase(":memory:").db;
  migrate(original);
  migrate(shared);
  const outcomes: Outcome[] = [];
  for (const step of STEPS) {
    const expected = await outcome(() =>
      step.dryRun ? dryRunSync(original, step.content) : writeContent(original, step.content),
    );
    outcomes.push(expected);
    expect(
      await outcome(() => writeAsyncSqlite(shared, step.content, step.dryRun ?? false)),
      step.name,
    ).toEqual(expected);
    if (pool) {
      const p = pool;
      expect(
        await outcome(() => writeContentPostgres(p, step.content, { dryRun: step.dryRun })),
        step.name,
      ).toEqual(expected);
    }
    const want = await contents(new SqliteContentStore(original));
    expect(await contents(new SqliteContentStore(shared)), step.name).toEqual(want);
    if (pool) expect(await contents(new PostgresContentStore(pool)), step.name).toEqual(want);
  }
  expect(outcomes.filter((o) => "error" in o)).toEqual([
    { error: 'IdNumConflictError: idNum 3 (english) of post "g" is already held by post "e"' },
    { error: 'IdNumConflictError: post english "a" gave up its idNum but was not written' },
    { error: 'TranslationConflictError: translation group "river" has two english posts: "a" and "b"' },
    {
      error:
        'TranslationConflictError: translation group "river" already has the english post "a"; post "h" cannot join it',
    },
  ]);
  expect(outcomes[9]).toEqual({
    summary: { created: 0, updated: 0, unchanged: 3, pages: { created: 0, updated: 0, unchanged: 0 } },
  });
  expect(outcomes[1]).toEqual({
    summary: { created: 0, updated: 0, unchanged: 5, pages: { created: 0, updated: 0, unchanged: 1 } },
  });
  // Where the steps leave translations and people (the three writers agreed on it above).
  const store = new SqliteContentStore(original);
  const english = await store.getPost("english", "b");
  expect(english?.translations).toEqual([{ language: "hindi", slug: "प्रेम-का-सार", title: "प्रेम का सार" }]);
  expect((await store.getPost("hindi", "प्रेम-का-सार"))?.translations).toEqual([
    { language: "english", slug: "b", title: "Title b" },
  ]);
  expect((await store.getPost("english", "a"))?.translations).toEqual([]);
  expect((await store.getPost("english", "a"))?.source).toEqual({
    person: { slug: "kabir", names: { english: "Kabir", hindi: "कबीर", marathi: "संत कबीर" } },
    work: "Bijak",
    reference: "Sakhi 12",
  });
  // The draft Marathi post is never counted; the dry run created nobody.
  expect((await store.listPeople()).map(({ slug, count }) => ({ slug, count }))).toEqual([
    { slug: "kabir", count: 2 },
    { slug: "tukaram", count: 1 },
  ]);
  // Unpublished records wrote no person: the draft linked to the one found, the pending post to none
  // (the draft written before Tukaram's published post was linked once the import had written him).
  expect(original.prepare("SELECT slug FROM people ORDER BY slug").pluck().all()).toEqual([
    "kabir",
    "tukaram",
  ]);
  expect(
    original
      .prepare(
        `SELECT p.slug, pe.slug AS person FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
         WHERE p.status <> 'publish' ORDER BY p.slug`,
      )
      .all(),
  ).toEqual([
    { slug: "draft-first", person: "tukaram" },
    { slug: "e", person: null },
    { slug: "pending-new-person", person: null },
    { slug: "भक्ती", person: "kabir" },
  ]);
  expect(outcomes.at(-2)).toEqual({
    summary: { created: 0, updated: 0, unchanged: 2, pages: { created: 0, updated: 0, unchanged: 0 } },
  });
  // A tag only a pending post had takes the name its first published post gives it.
  expect(await store.getTerm("tag", "draftonly")).toEqual({
    kind: "tag",
    name: "DraftOnly",
    slug: "draftonly",
  });
  // The English post was indexed again when its person gained a Marathi name.
  expect((await store.searchPosts("संत कबीर", 1, 10)).posts.map((hit) => hit.slug).sort()).toEqual([
    "a",
    "प्रेम-का-सार",
  ]);
  original.close();
  shared.close();
});
