// published_counts (decision 081) is kept by each database's triggers: after
// every kind of write — an import that adds, edits, retags, moves a post to
// another person, publishes or unpublishes; the command's unpublish and
// delete; an operator's SQL; a batch import — it holds exactly what counting
// the published posts gives, and each list's time is at least its newest
// post's. The same writes on SQLite and on PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile, PostRecord } from "#app/content/schemas.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { deletePost, unpublishPost } from "#app/data/postgres/transaction.server.ts";
import { openSqliteWrites } from "#app/data/sqlite/content-writes.server.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";
import { postRecord } from "#tests/support/records.ts";

const RECOUNT = `SELECT kind, id, language, posts, at FROM (
    SELECT 'language' AS kind, 0 AS id, language, count(*) AS posts, max(updated_at) AS at
      FROM posts WHERE status = 'publish' GROUP BY language
    UNION ALL
    SELECT 'person', person_id, language, count(*), max(updated_at)
      FROM posts WHERE status = 'publish' AND person_id IS NOT NULL GROUP BY person_id, language
    UNION ALL
    SELECT 'term', pt.term_id, p.language, count(*), max(p.updated_at)
      FROM post_terms pt JOIN posts p ON p.id = pt.post_id AND p.status = 'publish' GROUP BY pt.term_id, p.language
  ) recount ORDER BY kind, id, language`;
const KEPT = `SELECT kind, id, language, posts, updated_at AS at FROM published_counts
  WHERE posts <> 0 ORDER BY kind, id, language`;

interface Count {
  kind: string;
  id: number;
  language: string;
  posts: number;
  at: number;
}

/** A store under test: its writes and its two readings of the counts. */
interface Side {
  write(content: ContentFile): Promise<unknown>;
  unpublish(language: Language, slug: string): Promise<unknown>;
  remove(language: Language, slug: string): Promise<unknown>;
  sql(statement: string): Promise<void>;
  rows(query: string): Promise<Count[]>;
}

const post = (idNum: number, slug: string, overrides: Partial<PostRecord> = {}): PostRecord =>
  postRecord({ idNum, slug, ...overrides });
const by = (name: string) => ({ person: { name, names: {} }, work: "", reference: "" });

const FIRST: PostRecord[] = [
  post(1, "a", { tags: ["Love", "Peace"], source: by("Kabir") }),
  post(2, "b", { tags: ["Love"] }),
  post(3, "c", { language: "hindi", slug: "सी", tags: ["Love", "प्रेम"], source: by("Kabir") }),
  post(4, "d", { language: "marathi", slug: "डी", status: "draft", tags: ["Love"], source: by("Kabir") }),
  post(5, "e", { categories: ["Sayings"], source: by("Mira") }),
];

/** A few hundred posts in one import: PostgreSQL's batched path (past BULK_AFTER lookups). */
const MANY: PostRecord[] = Array.from({ length: 320 }, (_, i) =>
  post(100 + i, `many-${i}`, {
    language: (["english", "hindi", "marathi"] as const)[i % 3],
    status: i % 7 === 0 ? "draft" : "publish",
    tags: [`t${i % 5}`, `t${i % 11}`],
    categories: i % 4 === 0 ? ["Sayings"] : [],
    ...(i % 3 === 0 ? { source: by(i % 2 ? "Kabir" : "Tukaram") } : {}),
  }),
);

async function expectCounted(side: Side, step: string): Promise<void> {
  const recount = await side.rows(RECOUNT);
  const kept = await side.rows(KEPT);
  const key = ({ kind, id, language, posts }: Count) => `${kind} ${id} ${language} ${posts}`;
  expect(kept.map(key), step).toEqual(recount.map(key));
  for (const [i, row] of kept.entries())
    expect(row.at, `${step}: ${key(row)}`).toBeGreaterThanOrEqual(recount[i]!.at);
  expect(
    await side.rows(
      "SELECT kind, id, language, posts, updated_at AS at FROM published_counts WHERE posts < 0",
    ),
    step,
  ).toEqual([]);
}

/** Every kind of write, each followed by the check. */
async function writeEveryWay(side: Side): Promise<void> {
  await side.write({ posts: FIRST, pages: [] });
  await expectCounted(side, "first import");
  // Retagged, another person; a draft published, a post unpublished by the import.
  await side.write({
    posts: [
      post(1, "a", { tags: ["Peace", "Truth"], source: by("Mira") }),
      post(2, "b", { tags: ["Love"], status: "draft" }),
      post(4, "d", { language: "marathi", slug: "डी", tags: ["Love", "प्रेम"], source: by("Kabir") }),
    ],
    pages: [],
  });
  await expectCounted(side, "edits");
  // The same content again: nothing moves.
  await side.write({ posts: FIRST.slice(4), pages: [] });
  await expectCounted(side, "unchanged import");
  await side.unpublish("hindi", "सी");
  await expectCounted(side, "unpublish");
  await side.remove("english", "e");
  await expectCounted(side, "delete");
  await side.remove("english", "b");
  await expectCounted(side, "delete a draft");
  // An operator's SQL: a term deleted (its links go with it), a post moved to
  // another language, a link moved to another term, a post published.
  await side.sql("DELETE FROM terms WHERE slug = 'truth'");
  await expectCounted(side, "term deleted");
  await side.sql("UPDATE posts SET language = 'hindi' WHERE slug = 'a'");
  await expectCounted(side, "language changed");
  await side.sql(`UPDATE post_terms SET term_id = (SELECT id FROM terms WHERE slug = 'love')
    WHERE term_id = (SELECT id FROM terms WHERE slug = 'peace')`);
  await expectCounted(side, "link moved");
  await side.sql("UPDATE posts SET status = 'publish' WHERE slug = 'सी'");
  await expectCounted(side, "published by SQL");
  await side.write({ posts: MANY, pages: [] });
  await expectCounted(side, "batch import");
  await side.write({ posts: MANY.map((p, i) => ({ ...p, tags: [`t${(i + 1) % 5}`] })), pages: [] });
  await expectCounted(side, "batch retag");
}

describe("published counts on SQLite", () => {
  let dir: string;
  let db: Db;
  let url: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-counts-"));
    url = `file:${path.join(dir, "site.db")}`;
    db = openDatabase(url).db;
    migrate(db);
  });

  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("match a recount after every kind of write", async () => {
    const writes = await openSqliteWrites(url);
    try {
      await writeEveryWay({
        write: async (content) => writeContent(db, content),
        unpublish: (language, slug) => writes.unpublishPost(language, slug),
        remove: (language, slug) => writes.deletePost(language, slug),
        sql: async (statement) => void db.exec(statement),
        rows: async (query) => db.prepare(query).all() as Count[],
      });
    } finally {
      await writes.close();
    }
  });
});

describe.skipIf(!postgresAvailable())("published counts on PostgreSQL", () => {
  let server: TestPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    server = await sharedPostgres();
    pool = createPool(await server.createDatabase("published_counts"));
    await migratePostgres(pool);
  });

  afterAll(async () => {
    await pool?.end();
  });

  test("match a recount after every kind of write", async () => {
    const side: Side = {
      write: (content) => writeContentPostgres(pool, content),
      unpublish: (language, slug) => unpublishPost(pool, language, slug),
      remove: (language, slug) => deletePost(pool, language, slug),
      sql: async (statement) => void (await pool.query(statement)),
      rows: async (query) => (await pool.query<Count>(query)).rows,
    };
    await writeEveryWay(side);
    // TRUNCATE fires no row trigger: the counts are made again.
    await side.sql("TRUNCATE post_terms");
    await expectCounted(side, "links truncated");
    await side.sql("TRUNCATE posts CASCADE");
    await expectCounted(side, "posts truncated");
    expect(
      await side.rows("SELECT kind, id, language, posts, updated_at AS at FROM published_counts"),
    ).toEqual([]);
  });
});
