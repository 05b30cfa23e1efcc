// Large imports into PostgreSQL write in batches (docs/decisions/059-postgresql-on-par.md):
// fewer statements than posts, and exactly what SQLite's statement-at-a-time
// writer makes of the same files, updates, idNum moves and translation groups included.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PostRecord } from "#app/content/schemas.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { PostgresWriteTarget } from "#app/data/postgres/write-target.server.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { generateCorpus } from "#cli/generate.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";

const available = postgresAvailable();

/** Counts the statements every pg client sends while `run` runs. */
async function countStatements(run: () => Promise<unknown>): Promise<number> {
  const original = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return statements;
}

const QUERIES = ["love", "प्रेम", "prem", "truth peace", "kabir", "मन", "a"];

describe.skipIf(!available)("PostgreSQL imports in batches", () => {
  let server: TestPostgres;

  beforeAll(async () => {
    server = await sharedPostgres();
  });

  afterAll(async () => {
    await server?.stop();
  });

  test("3,000 new posts take fewer statements than posts", async () => {
    const pool = createPool(await server.createDatabase("batches_count"), { max: 2 });
    try {
      await migratePostgres(pool);
      const posts = generateCorpus({ count: 3000, seed: 11 });
      // Statement by statement this was about eight a post (24,000).
      const statements = await countStatements(() => writeContentPostgres(pool, { posts, pages: [] }));
      expect(statements).toBeLessThan(posts.length);
      const { rows } = await pool.query("SELECT count(*) AS n FROM posts");
      expect(rows[0].n).toBeGreaterThanOrEqual(posts.length);
      // Ids come from reservations of a batch's worth, the next asked for ahead: a later post, a higher id.
      const stored = await pool.query<{ language: string; slug: string; id: string }>(
        "SELECT language, slug, id FROM posts",
      );
      const idOf = new Map(stored.rows.map((row) => [`${row.language}\n${row.slug}`, Number(row.id)]));
      const ids = posts.map((post) => idOf.get(`${post.language}\n${post.slug}`) ?? Number.NaN);
      expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as number))).toBe(true);
    } finally {
      await pool.end();
    }
  });

  test("the same 3,000 posts again are read a run at a time, not one or two statements a post", async () => {
    const pool = createPool(await server.createDatabase("batches_again"), { max: 2 });
    try {
      await migratePostgres(pool);
      const posts = generateCorpus({ count: 3000, seed: 14 });
      await writeContentPostgres(pool, { posts, pages: [] });
      let summary: Awaited<ReturnType<typeof writeContentPostgres>> | undefined;
      // One at a time this was two a post (the post, then its terms): 6,000.
      const statements = await countStatements(async () => {
        summary = await writeContentPostgres(pool, { posts, pages: [] });
      });
      expect(summary).toMatchObject({ created: 0, updated: 0, unchanged: posts.length });
      expect(statements).toBeLessThan(100);
    } finally {
      await pool.end();
    }
  });

  test("what expectPosts read is never answered after a write changed it", async () => {
    const pool = createPool(await server.createDatabase("batches_ahead"), { max: 2 });
    const client = await pool.connect();
    try {
      await migratePostgres(pool);
      const posts = generateCorpus({ count: 12, seed: 15 }).filter((post) => post.tags.length > 0);
      // The fourth post is in a translation group, so that taking it out changes it.
      posts[3] = { ...(posts[3] as PostRecord), translationKey: "ahead-group" };
      await writeContentPostgres(pool, { posts, pages: [] });
      const stored = async (post: PostRecord) => {
        const fresh = new PostgresWriteTarget(client);
        const row = await fresh.findPost(post.language, post.slug);
        return { row, terms: row === null ? [] : sortTerms(await fresh.postTerms(row.id)) };
      };
      const sortTerms = (terms: { kind: string; slug: string }[]) =>
        terms.map((t) => `${t.kind}:${t.slug}`).sort();
      const [p0, p1, p2, p3, p4, p5] = posts as [PostRecord, ...PostRecord[]];
      const ids = new Map<PostRecord, number>();
      for (const post of posts) ids.set(post, (await stored(post)).row!.id);
      const { rows: people } = await client.query(
        "INSERT INTO people (slug, name_english, name_hindi, name_marathi) VALUES ('ahead', 'Ahead', '', '') RETURNING id",
      );
      const { rows: terms } = await client.query(
        "SELECT id FROM terms WHERE id NOT IN (SELECT term_id FROM post_terms WHERE post_id = $1) LIMIT 1",
        [ids.get(p4!)],
      );
      await client.query("BEGIN");
      const target = new PostgresWriteTarget(client);
      await target.expectPosts(posts);
      // Each kind of write, on a post read ahead, then that post read through the target.
      const writes: [PostRecord, () => Promise<unknown>][] = [
        [p0, () => target.setStatus(ids.get(p0)!, p0.status === "publish" ? "draft" : "publish")],
        [p1!, () => target.park(ids.get(p1!)!)],
        [p2!, () => target.setPostPerson(ids.get(p2!)!, people[0].id)],
        [p3!, () => target.clearTranslation(ids.get(p3!)!)],
        [
          p4!,
          async () => {
            await target.clearTerms(ids.get(p4!)!);
            await target.linkTerm(ids.get(p4!)!, terms[0].id);
          },
        ],
        [
          p5!,
          async () => {
            const row = (await stored(p5!)).row!;
            await target.updatePost(ids.get(p5!)!, {
              ...row,
              language: p5!.language,
              slug: p5!.slug,
              status: "publish",
              title: "Changed",
              content: row.content,
            } as never);
          },
        ],
      ];
      for (const [post, write] of writes) {
        const before = await stored(post);
        await write();
        const row = await target.findPost(post.language, post.slug);
        await target.flush();
        const after = await stored(post);
        // The write changed the post (else this would check nothing), and the target says so.
        expect(after, post.slug).not.toEqual(before);
        expect({ row, terms: sortTerms(await target.postTerms(row!.id)) }, post.slug).toEqual(after);
      }
      await client.query("ROLLBACK");
    } finally {
      client.release();
      await pool.end();
    }
  });

  test("a second import over the first (edits, new posts, idNum moves, translations) gives what SQLite gives", async () => {
    const first = generateCorpus({ count: 600, seed: 12 });
    const extra = generateCorpus({ count: 900, seed: 13 })
      .slice(600)
      .map((post, i): PostRecord => ({ ...post, slug: `second-${i}`, idNum: 900_000 + i }));
    const second: PostRecord[] = first.map((post, i) =>
      i % 3 === 0
        ? { ...post, title: `${post.title} (edited)` }
        : i % 7 === 0
          ? { ...post, status: "draft" }
          : post,
    );
    // Two posts of one language swap idNums (the importer parks one on the way).
    const [a, b] = [0, 1].map((n) =>
      second.findIndex((p, i) => i > 300 && p.language === "english" && i % 3 !== 0 && i % 2 === n),
    );
    const [postA, postB] = [second[a!]!, second[b!]!];
    second[a!] = { ...postA, idNum: postB.idNum };
    second[b!] = { ...postB, idNum: postA.idNum };
    // A translation group across two languages, on posts written late in the import.
    const hindi = second.findIndex((p, i) => i > 400 && p.language === "hindi");
    const marathi = second.findIndex((p, i) => i > 400 && p.language === "marathi");
    second[hindi] = { ...second[hindi]!, translationKey: "batch-group" };
    second[marathi] = { ...second[marathi]!, translationKey: "batch-group" };
    const files = [first, [...second, ...extra]];

    const { db } = openDatabase(":memory:");
    migrate(db);
    const sqlite = new SqliteContentStore(db);
    const pool = createPool(await server.createDatabase("batches_second"), { max: 4 });
    await migratePostgres(pool);
    const postgres = new PostgresContentStore(pool);
    try {
      for (const posts of files) {
        const expected = writeContent(db, { posts, pages: [] });
        expect(await writeContentPostgres(pool, { posts, pages: [] })).toEqual(expected);
      }
      const all = files[1]!;
      for (const post of all) {
        expect(await postgres.getPost(post.language, post.slug), `${post.language} ${post.slug}`).toEqual(
          await sqlite.getPost(post.language, post.slug),
        );
      }
      for (const text of QUERIES) {
        expect(await postgres.searchPosts(text, 1, 24), text).toEqual(await sqlite.searchPosts(text, 1, 24));
      }
    } finally {
      await postgres.close();
      db.close();
    }
  });
});
