// The shared writer keeps write.server.ts's rules exactly: the same scenarios
// run through the existing ContentWriter (SQLite), through AsyncContentWriter
// over a better-sqlite3 WriteTarget, and (when installed) through PostgreSQL;
// outcomes, errors and the content read back must agree.
import type { Statement } from "better-sqlite3";
import type pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile, PostRecord } from "#app/content/schemas.ts";
import {
  AsyncContentWriter,
  incomingKeys,
  PARKED_ID_NUM_BASE,
  type PostRow,
  type StoredPost,
  type WriteTarget,
} from "#app/data/content-writer.ts";
import { type Db, migrate, openDatabase } from "#app/data/db.server.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { writeContentPostgres } from "#app/data/postgres/writes.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { SqliteContentStore } from "#app/data/sqlite.server.ts";
import type { ContentStore, PostStatus, TermKind } from "#app/data/store.ts";
import { ContentWriter, writeContent } from "#app/data/write.server.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "#tests/support/postgres.ts";

/**
 * WriteTarget over better-sqlite3: synchronous statements wrapped in async.
 * The SQLite schema's triggers still keep its search index here, so the
 * index operations have nothing to do.
 */
class SqliteWriteTarget implements WriteTarget {
  readonly #sql;

  constructor(db: Db) {
    this.#sql = {
      findPost: db.prepare<[string, string], StoredPost>(
        `SELECT id, id_num AS idNum, status, post_time AS postTime, title,
           feature_image_url AS featureImageUrl, content, excerpt FROM posts WHERE language = ? AND slug = ?`,
      ),
      findByIdNum: db.prepare<[string, number], { id: number; slug: string }>(
        "SELECT id, slug FROM posts WHERE language = ? AND id_num = ?",
      ),
      insertPost: db.prepare(
        `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
         VALUES (@language, @idNum, @status, @postTime, @title, @slug, @featureImageUrl, @content, @excerpt)`,
      ),
      updatePost: db.prepare(
        `UPDATE posts SET id_num = @idNum, status = @status, post_time = @postTime, title = @title,
           feature_image_url = @featureImageUrl, content = @content, excerpt = @excerpt, updated_at = unixepoch()
         WHERE id = @id`,
      ),
      setStatus: db.prepare<[string, number]>("UPDATE posts SET status = ? WHERE id = ?"),
      park: db.prepare<[number]>(`UPDATE posts SET id_num = ${PARKED_ID_NUM_BASE} + id WHERE id = ?`),
      findParked: db.prepare<[], { language: string; slug: string }>(
        `SELECT language, slug FROM posts WHERE language IN ('english', 'hindi', 'marathi')
         AND id_num >= ${PARKED_ID_NUM_BASE} LIMIT 1`,
      ),
      postTerms: db.prepare<[number], { kind: TermKind; name: string }>(
        "SELECT t.kind, t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?",
      ),
      clearTerms: db.prepare<[number]>("DELETE FROM post_terms WHERE post_id = ?"),
      linkTerm: db.prepare<[number, number]>(
        "INSERT OR IGNORE INTO post_terms (post_id, term_id) VALUES (?, ?)",
      ),
      findTerm: db.prepare<[string, string], { id: number; name: string }>(
        "SELECT id, name FROM terms WHERE kind = ? AND slug = ?",
      ),
      insertTerm: db.prepare<[string, string, string], { id: number }>(
        "INSERT INTO terms (kind, name, slug) VALUES (?, ?, ?) RETURNING id",
      ),
      findPage: db.prepare<[string], { title: string; content: string }>(
        "SELECT title, content FROM pages WHERE slug = ?",
      ),
      upsertPage: db.prepare(
        `INSERT INTO pages (slug, title, content) VALUES (@slug, @title, @content)
         ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
      ),
    } satisfies Record<string, Statement<never[], unknown> | Statement<unknown[], unknown>>;
  }

  async findPost(language: Language, slug: string) {
    return this.#sql.findPost.get(language, slug) ?? null;
  }
  async findByIdNum(language: Language, idNum: number) {
    return this.#sql.findByIdNum.get(language, idNum) ?? null;
  }
  async insertPost(row: PostRow) {
    return Number(this.#sql.insertPost.run(row).lastInsertRowid);
  }
  async updatePost(id: number, row: PostRow) {
    this.#sql.updatePost.run({ ...row, id });
  }
  async setStatus(id: number, status: PostStatus) {
    this.#sql.setStatus.run(status, id);
  }
  async park(id: number) {
    this.#sql.park.run(id);
  }
  async findParked() {
    return this.#sql.findParked.get() ?? null;
  }
  async postTerms(postId: number) {
    return this.#sql.postTerms.all(postId);
  }
  async clearTerms(postId: number) {
    this.#sql.clearTerms.run(postId);
  }
  async linkTerm(postId: number, termId: number) {
    this.#sql.linkTerm.run(postId, termId);
  }
  async findTerm(kind: TermKind, slug: string) {
    return this.#sql.findTerm.get(kind, slug) ?? null;
  }
  async insertTerm(kind: TermKind, name: string, slug: string) {
    return this.#sql.insertTerm.get(kind, name, slug)!.id;
  }
  async addWords() {}
  async findPage(slug: string) {
    return this.#sql.findPage.get(slug) ?? null;
  }
  async upsertPage(page: { slug: string; title: string; content: string }) {
    this.#sql.upsertPage.run(page);
  }
  async indexPost() {}
  async unindexPost() {}
}

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

function post(overrides: Partial<PostRecord> & Pick<PostRecord, "idNum" | "slug">): PostRecord {
  return {
    language: "english",
    status: "publish",
    postTime: 1_700_000_000 + overrides.idNum * 1000,
    title: `Title ${overrides.slug}`,
    featureImageUrl: "",
    content: `<p>Content of ${overrides.slug}</p><script>alert(1)</script>`,
    excerpt: "",
    tags: [],
    categories: [],
    ...overrides,
  };
}

const a = post({ idNum: 1, slug: "a", tags: ["Love", "love", "Truth"], categories: ["Wisdom"] });
const b = post({ idNum: 2, slug: "b", tags: ["Peace"] });
const c = post({ language: "hindi", idNum: 1, slug: "प्रेम-का-सार", title: "प्रेम का सार", tags: ["प्रेम"] });
const d = post({ language: "marathi", idNum: 1, slug: "भक्ती", status: "draft", tags: ["भक्ती"] });
const e = post({ idNum: 3, slug: "e", status: "private" });
const page = { slug: "privacy-policy", title: "Privacy", content: "<p>We keep nothing.</p>" };

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
];

/** write.server.ts's ContentWriter in a dry run (writeContent has none). */
function dryRunSync(db: Db, content: ContentFile) {
  const writer = new ContentWriter(db, { incoming: incomingKeys(content), dryRun: true });
  for (const record of content.posts) writer.writePost(record);
  for (const record of content.pages) writer.writePage(record);
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
      ["love", "courage", "prem", "भक्ती", "ज्ञान", "title"].map((q) => store.searchPosts(q, 1, 10)),
    ),
  };
}

const withPostgres = postgresAvailable();
let server: TestPostgres | undefined;
let pool: pg.Pool | undefined;

beforeAll(async () => {
  if (!withPostgres) return;
  server = await startPostgres();
  pool = createPool(await server.createDatabase("writer"));
  await migratePostgres(pool);
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

test("the shared writer keeps write.server.ts's rules, outcomes and messages", async () => {
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
  ]);
  expect(outcomes[1]).toEqual({
    summary: { created: 0, updated: 0, unchanged: 5, pages: { created: 0, updated: 0, unchanged: 1 } },
  });
  original.close();
  shared.close();
}, 60_000);
