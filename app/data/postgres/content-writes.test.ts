// The write seam over PostgreSQL (openPostgresWrites): one transaction per
// import, nothing changed on a throw or a dry run, idempotent re-import,
// post keys streamed, unpublish and delete gone from every read. A real
// server (tests/support/postgres.ts); no mocks.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ContentFile, PostRecord } from "#app/content/schemas.ts";
import { incomingKeys, type WriteSummary } from "#app/data/content-writer.ts";
import { openPostgresWrites } from "#app/data/postgres/content-writes.server.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { ContentWrites, PostKey } from "#app/data/writes.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { loadGeneratedCorpus } from "#tests/support/postgres-corpus.ts";
import { postRecord } from "#tests/support/records.ts";

const available = postgresAvailable();

const record = (overrides: Parameters<typeof postRecord>[0] & Pick<PostRecord, "language">) =>
  postRecord(overrides);

const CONTENT: ContentFile = {
  posts: [
    record({
      language: "english",
      idNum: 1,
      slug: "first",
      tags: ["Love", "Quiet"],
      content: "<p>alpha</p>",
    }),
    record({ language: "english", idNum: 2, slug: "second", tags: ["Love"], content: "<p>beta</p>" }),
    record({ language: "english", idNum: 3, slug: "third", tags: ["Love"], content: "<p>gamma</p>" }),
    record({ language: "hindi", idNum: 1, slug: "प्रेम", title: "प्रेम की बात", tags: ["प्रेम"] }),
  ],
  pages: [{ slug: "privacy-policy", title: "Privacy", content: "<p>None kept.</p>" }],
};

async function importContent(
  writes: ContentWrites,
  content: ContentFile,
  options: { dryRun?: boolean; fail?: boolean } = {},
): Promise<WriteSummary> {
  return writes.transaction({ incoming: incomingKeys(content), dryRun: options.dryRun }, async (writer) => {
    for (const post of content.posts) await writer.writePost(post, sanitizePostHtml(post.content));
    for (const page of content.pages) await writer.writePage(page, sanitizePostHtml(page.content));
    await writer.finish();
    if (options.fail) throw new Error("the import failed halfway");
    return writer.summary;
  });
}

/** Every table's rows, to tell that a failed write changed nothing. */
async function tablesSnapshot(pool: pg.Pool) {
  const tables = [
    "posts",
    "terms",
    "post_terms",
    "pages",
    "content_version",
    "search_documents",
    "search_words",
    "search_word_trigrams",
    "search_skeletons",
  ];
  const snapshot: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await pool.query(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h, count(*) AS n FROM ${table} t`,
    );
    snapshot[table] = `${rows[0].n}:${rows[0].h}`;
  }
  return snapshot;
}

describe.skipIf(!available)("PostgreSQL content writes", () => {
  let server: TestPostgres;
  let url: string;
  let writes: ContentWrites;
  let pool: pg.Pool;
  let store: PostgresContentStore;

  const version = async () =>
    (await pool.query<{ version: number }>("SELECT version FROM content_version")).rows[0]!.version;

  beforeAll(async () => {
    server = await sharedPostgres();
    url = await server.createDatabase("writes");
    // The command may be the first to reach an empty database: it migrates.
    writes = await openPostgresWrites(url);
    pool = createPool(url, { max: 3 });
    store = new PostgresContentStore(pool);
  });

  afterAll(async () => {
    await writes?.close();
    await pool?.end();
    await server?.stop();
  });

  test("the description has no password", async () => {
    expect(writes.description).toBe(url);
    const other = await openPostgresWrites(url.replace("postgres@", "postgres:hunter2@"));
    try {
      expect(other.description).toBe(url);
    } finally {
      await other.close();
    }
  });

  test("a transaction commits: every post, page and search document, and the version once", async () => {
    const before = await version();
    const summary = await importContent(writes, CONTENT);
    expect(summary).toEqual({
      created: 4,
      updated: 0,
      unchanged: 0,
      pages: { created: 1, updated: 0, unchanged: 0 },
    });
    expect(await version()).toBe(before + 1);
    expect((await store.getPost("english", "first"))?.tags.map((t) => t.name)).toEqual(["Love", "Quiet"]);
    expect((await store.getPost("hindi", "प्रेम"))?.title).toBe("प्रेम की बात");
    expect((await store.getPage("privacy-policy"))?.title).toBe("Privacy");
    expect((await store.searchPosts("gamma", 1, 10)).posts.map((p) => p.slug)).toEqual(["third"]);
    expect(await writes.pageSlugs()).toEqual(["privacy-policy"]);
  });

  test("an import run again unchanged changes nothing, not even the version", async () => {
    const snapshot = await tablesSnapshot(pool);
    const summary = await importContent(writes, CONTENT);
    expect(summary).toEqual({
      created: 0,
      updated: 0,
      unchanged: 4,
      pages: { created: 0, updated: 0, unchanged: 1 },
    });
    expect(await tablesSnapshot(pool)).toEqual(snapshot);
  });

  test("a write that throws leaves nothing behind", async () => {
    const snapshot = await tablesSnapshot(pool);
    const changed: ContentFile = {
      posts: [
        record({ language: "english", idNum: 1, slug: "first", title: "Rewritten", tags: ["New tag"] }),
        record({ language: "marathi", idNum: 7, slug: "नवे", title: "नवे पान" }),
      ],
      pages: [{ slug: "terms", title: "Terms", content: "<p>t</p>" }],
    };
    await expect(importContent(writes, changed, { fail: true })).rejects.toThrow("the import failed halfway");
    expect(await tablesSnapshot(pool)).toEqual(snapshot);
    // The writer's own refusal (an idNum held by a post the import does not rewrite) too.
    const conflict: ContentFile = {
      posts: [record({ language: "english", idNum: 2, slug: "takes-two" })],
      pages: [],
    };
    await expect(importContent(writes, conflict)).rejects.toThrow(/idNum 2 \(english\)/);
    expect(await tablesSnapshot(pool)).toEqual(snapshot);
  });

  test("a dry run reports what a real run would do and changes nothing", async () => {
    const snapshot = await tablesSnapshot(pool);
    const content: ContentFile = {
      posts: [
        record({ language: "english", idNum: 1, slug: "first", title: "Rewritten" }),
        record({ language: "english", idNum: 2, slug: "second", tags: ["Love"], content: "<p>beta</p>" }),
        record({ language: "english", idNum: 40, slug: "new-one" }),
      ],
      pages: [{ slug: "terms", title: "Terms", content: "<p>t</p>" }],
    };
    const summary = await importContent(writes, content, { dryRun: true });
    expect(summary).toEqual({
      created: 1,
      updated: 1,
      unchanged: 1,
      pages: { created: 1, updated: 0, unchanged: 0 },
    });
    expect(await tablesSnapshot(pool)).toEqual(snapshot);
  });

  test("imports take turns: a second waits for the first to commit, then sees its posts", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const first = writes.transaction({ incoming: new Set() }, async (writer) => {
      await writer.writePost(record({ language: "english", idNum: 50, slug: "turn-one" }), "<p>one</p>");
      order.push("first wrote");
      await gate;
      order.push("first done");
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = writes.transaction({ incoming: new Set() }, async (writer) => {
      order.push("second started");
      return writer.writePost(record({ language: "english", idNum: 50, slug: "turn-one" }), "<p>one</p>");
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(["first wrote"]);
    release();
    await first;
    // The second found the first's post as written: unchanged.
    expect(await second).toBe("unchanged");
    expect(order).toEqual(["first wrote", "first done", "second started"]);
  });

  test("unpublishing a post takes it out of every read, search included; deleting one too", async () => {
    const content: ContentFile = {
      posts: [
        record({ language: "english", idNum: 60, slug: "older", tags: ["Shared"] }),
        record({
          language: "english",
          idNum: 61,
          slug: "goes-away",
          title: "Zyxwvut goes away",
          tags: ["Shared", "Only here"],
          categories: ["Solo"],
          postTime: 1_900_000_000,
        }),
        record({ language: "english", idNum: 62, slug: "deleted-one", title: "Qwertzu", tags: ["Shared"] }),
      ],
      pages: [],
    };
    await importContent(writes, content);
    expect((await store.searchPosts("zyxwvut", 1, 10)).total).toBe(1);
    expect((await store.latestPost())?.slug).toBe("goes-away");
    const countBefore = await store.countPosts("english");

    const before = await version();
    expect(await writes.unpublishPost("english", "goes-away")).toBe(true);
    expect(await version()).toBe(before + 1);
    expect(await writes.unpublishPost("english", "goes-away")).toBe(false);
    expect(await writes.unpublishPost("english", "no-such-post")).toBe(false);

    const gone = async (slug: string, word: string) => {
      expect(await store.getPost("english", slug)).toBeNull();
      expect(await store.getPostAnyLanguage(slug)).toBeNull();
      expect((await store.searchPosts(word, 1, 10)).total).toBe(0);
      expect((await store.latestPost())?.slug).not.toBe(slug);
      const listed = await store.listPosts({ language: "english" }, 1, 100);
      expect(listed.posts.map((p) => p.slug)).not.toContain(slug);
      const tagged = await store.listPosts({ tag: "shared" }, 1, 100);
      expect(tagged.posts.map((p) => p.slug)).not.toContain(slug);
      expect((await store.listSitemapPosts("english", 0, 1000)).map((p) => p.slug)).not.toContain(slug);
      expect((await store.listFeedPosts({ language: "english" }, 100)).map((p) => p.slug)).not.toContain(
        slug,
      );
      expect((await store.relatedPosts("english", "older", 10)).map((p) => p.slug)).not.toContain(slug);
      const adjacent = await store.adjacentPosts("english", "older");
      expect([adjacent.previous?.slug, adjacent.next?.slug]).not.toContain(slug);
    };
    await gone("goes-away", "zyxwvut");
    expect(await store.getTerm("tag", "only-here")).toBeNull();
    expect(await store.getTerm("category", "solo")).toBeNull();
    expect((await store.listTags()).map((t) => t.slug)).not.toContain("only-here");
    expect(await store.countPosts("english")).toBe(countBefore - 1);
    // Still a post (a draft): its key stays taken.
    const keys: PostKey[] = [];
    for await (const key of writes.postKeys()) keys.push(key);
    expect(keys).toContainEqual({ language: "english", idNum: 61, slug: "goes-away", translationKey: null });

    const beforeDelete = await version();
    expect(await writes.deletePost("english", "deleted-one")).toBe(true);
    expect(await version()).toBe(beforeDelete + 1);
    expect(await writes.deletePost("english", "deleted-one")).toBe(false);
    await gone("deleted-one", "qwertzu");
    expect(await store.countPosts("english")).toBe(countBefore - 2);
    // Any status can be deleted: the draft too.
    expect(await writes.deletePost("english", "goes-away")).toBe(true);
    const after: PostKey[] = [];
    for await (const key of writes.postKeys()) after.push(key);
    expect(after.map((k) => k.slug)).not.toContain("goes-away");
    expect(after.map((k) => k.slug)).not.toContain("deleted-one");
  });

  test("a post unpublished or deleted in plain SQL (psql) leaves search results and their counts", async () => {
    await importContent(writes, {
      posts: [
        record({ language: "english", idNum: 70, slug: "sql-unpublished", title: "Plughwort one" }),
        record({ language: "english", idNum: 71, slug: "sql-deleted", title: "Plughwort two" }),
      ],
      pages: [],
    });
    expect((await store.searchPosts("plughwort", 1, 10)).total).toBe(2);
    await pool.query("UPDATE posts SET status = 'draft' WHERE slug = 'sql-unpublished'");
    expect((await store.searchPosts("plughwort", 1, 10)).total).toBe(1);
    await pool.query("DELETE FROM posts WHERE slug = 'sql-deleted'");
    const result = await store.searchPosts("plughwort", 1, 10);
    expect(result.total).toBe(0);
    expect(result.posts).toEqual([]);
  });
});

describe.skipIf(!available)("PostgreSQL post keys", () => {
  let server: TestPostgres;
  let url: string;
  let pool: pg.Pool;
  let writes: ContentWrites;
  const COUNT = 12_000;

  beforeAll(async () => {
    server = await sharedPostgres();
    url = await server.createDatabase("keys");
    pool = createPool(url, { max: 2 });
    await migratePostgres(pool);
    await loadGeneratedCorpus(pool, { count: COUNT, seed: 7 });
    writes = await openPostgresWrites(url);
  });

  afterAll(async () => {
    await writes?.close();
    await pool?.end();
    await server?.stop();
  });

  test("postKeys streams every post in batches, and a stop part way frees its connection", async () => {
    const expected = (
      await pool.query<PostKey>(`SELECT language, id_num AS "idNum", slug FROM posts`)
    ).rows.map((k) => `${k.language}:${k.idNum}:${k.slug}`);
    expect(expected).toHaveLength(COUNT);
    const seen: string[] = [];
    for await (const key of writes.postKeys()) seen.push(`${key.language}:${key.idNum}:${key.slug}`);
    expect(seen.sort()).toEqual(expected.sort());

    // The cursor is fetched batch by batch: at most one batch is held at a time.
    const iterator = writes.postKeys()[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    // Stopping early (as `break` does) rolls back and releases the client, many times over.
    await iterator.return?.();
    for (let i = 0; i < 10; i++) {
      for await (const _ of writes.postKeys()) break;
    }
    expect(await writes.pageSlugs()).toEqual([]);
    const { rows } = await pool.query(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'",
    );
    expect(rows[0].n).toBe(0);
  });

  test("postKeys with keys asked for gives exactly the posts holding them (a small import's check)", async () => {
    // Translation groups for a tenth of the posts (the generated corpus has none).
    await pool.query("UPDATE posts SET translation_key = 'group-' || (id / 10) WHERE id % 10 = 0");
    const all: PostKey[] = [];
    for await (const key of writes.postKeys()) all.push(key);
    const grouped = all.filter((key) => key.translationKey !== null);
    expect(grouped.length).toBeGreaterThan(10);
    const only = {
      idNums: [
        ...all.slice(0, 5).map(({ language, idNum }) => ({ language, idNum })),
        { language: "marathi" as const, idNum: 987_654_321 },
      ],
      groups: [
        ...grouped
          .slice(-5)
          .map(({ translationKey, language }) => ({ translationKey: translationKey ?? "", language })),
        // A post also holding one of the idNums above is listed once.
        ...all
          .slice(0, 1)
          .flatMap(({ translationKey, language }) => (translationKey ? [{ translationKey, language }] : [])),
        { translationKey: "no such group", language: "hindi" as const },
      ],
    };
    const wanted = (key: PostKey) =>
      only.idNums.some((k) => k.language === key.language && k.idNum === key.idNum) ||
      only.groups.some((k) => k.translationKey === key.translationKey && k.language === key.language);
    const found: PostKey[] = [];
    for await (const key of writes.postKeys(only)) found.push(key);
    const text = (keys: PostKey[]) =>
      keys.map((k) => JSON.stringify([k.language, Number(k.idNum), k.slug, k.translationKey])).sort();
    expect(text(found)).toEqual(text(all.filter(wanted)));
    expect(found.length).toBeGreaterThanOrEqual(10);
  });
});
