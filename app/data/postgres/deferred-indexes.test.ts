// A first large import into PostgreSQL builds the site's read indexes and
// the loaded tables' foreign keys after its rows (decision 092): the schema
// after it is the migrated schema, a later or small import leaves them be,
// and a load that fails leaves them as they were.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFERRED_INDEXES, DEFERRED_KEY_TABLES } from "#app/data/postgres/deferred-indexes.server.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { contentTransaction, release } from "#app/data/postgres/transaction.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { generateCorpus } from "#cli/generate.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";

const available = postgresAvailable();

/** Every index and constraint of the schema: name → definition, and name → oid. */
async function schemaOf(pool: pg.Pool) {
  const { rows } = await pool.query<{ name: string; definition: string; oid: number }>(
    `SELECT 'index ' || c.relname AS name, pg_get_indexdef(c.oid) AS definition, c.oid::int AS oid
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'i' AND n.nspname = current_schema()
     UNION ALL
     SELECT 'constraint ' || k.conname, k.conrelid::regclass::text || ' ' || pg_get_constraintdef(k.oid), k.oid::int
       FROM pg_constraint k WHERE k.connamespace = current_schema()::regnamespace
      ORDER BY 1`,
  );
  return {
    definitions: Object.fromEntries(rows.map((row) => [row.name, row.definition])),
    oids: Object.fromEntries(rows.map((row) => [row.name, row.oid])),
  };
}

/** The names of the loaded tables' foreign keys. */
async function foreignKeys(db: pg.Pool | pg.PoolClient): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT 'constraint ' || conname AS name FROM pg_constraint
      WHERE contype = 'f' AND conrelid::regclass::text = ANY($1::text[]) ORDER BY 1`,
    [DEFERRED_KEY_TABLES],
  );
  return rows.map((row) => row.name);
}

describe.skipIf(!available)("a first large import into PostgreSQL builds its read indexes last", () => {
  let server: TestPostgres;

  beforeAll(async () => {
    server = await sharedPostgres();
  });

  afterAll(async () => {
    await server?.stop();
  });

  async function migrated(name: string) {
    const pool = createPool(await server.createDatabase(name), { max: 2 });
    await migratePostgres(pool);
    return pool;
  }

  test("every deferred index exists in the migrated schema, and the loaded tables have foreign keys", async () => {
    const pool = await migrated("deferred_names");
    try {
      const { definitions } = await schemaOf(pool);
      // A migration renaming one of them would leave it built row by row, silently.
      for (const name of DEFERRED_INDEXES) expect(definitions[`index ${name}`], name).toBeDefined();
      expect((await foreignKeys(pool)).length).toBeGreaterThanOrEqual(4);
    } finally {
      await pool.end();
    }
  });

  test("after a first import of 1,200 posts the schema is the migrated one, the deferred parts made again", async () => {
    const pool = await migrated("deferred_first");
    try {
      const before = await schemaOf(pool);
      const posts = generateCorpus({ count: 1200, seed: 21 });
      await writeContentPostgres(pool, { posts, pages: [] });
      const after = await schemaOf(pool);
      expect(after.definitions).toEqual(before.definitions);
      const rebuilt = Object.keys(before.oids).filter((name) => after.oids[name] !== before.oids[name]);
      expect(rebuilt.sort()).toEqual(
        [...DEFERRED_INDEXES.map((name) => `index ${name}`), ...(await foreignKeys(pool))].sort(),
      );
      // The rebuilt indexes answer: the GIN index of the documents finds a word every post has.
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM posts WHERE status = 'publish'",
      );
      expect(rows[0]?.n).toBeGreaterThan(1000);
    } finally {
      await pool.end();
    }
  });

  test("an import into a database holding posts, and a small first one, build nothing again", async () => {
    const pool = await migrated("deferred_later");
    try {
      const first = generateCorpus({ count: 150, seed: 22 });
      const start = await schemaOf(pool);
      await writeContentPostgres(pool, { posts: first, pages: [] });
      const small = await schemaOf(pool);
      expect(small.oids).toEqual(start.oids);
      const more = generateCorpus({ count: 800, seed: 23 }).map((post) => ({
        ...post,
        slug: `more-${post.slug}`,
        idNum: post.idNum + 100_000,
      }));
      await writeContentPostgres(pool, { posts: more, pages: [] });
      expect((await schemaOf(pool)).oids).toEqual(start.oids);
    } finally {
      await pool.end();
    }
  });

  test("a first import while another client is connected (a site serving the database) builds nothing again", async () => {
    const url = await server.createDatabase("deferred_watched");
    const pool = createPool(url, { max: 2 });
    const site = createPool(url, { max: 1 });
    try {
      await migratePostgres(pool);
      // The site's content-version listener stays connected; reads of the loaded tables must not wait on the load.
      const listener = await site.connect();
      try {
        await listener.query("LISTEN sukti_test");
        const before = await schemaOf(pool);
        await writeContentPostgres(pool, { posts: generateCorpus({ count: 600, seed: 25 }), pages: [] });
        expect((await schemaOf(pool)).oids).toEqual(before.oids);
      } finally {
        listener.release();
      }
    } finally {
      await site.end();
      await pool.end();
    }
  });

  test("a first import by a role that writes the tables but does not own them loads through the indexes", async () => {
    const url = await server.createDatabase("deferred_writer");
    const owner = createPool(url, { max: 1 });
    const writerUrl = new URL(url);
    writerUrl.username = "sukti_deferred_writer";
    const writer = createPool(writerUrl.toString(), { max: 2 });
    try {
      await migratePostgres(owner);
      await owner.query(`DO $$ BEGIN
          IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sukti_deferred_writer') THEN
            CREATE ROLE sukti_deferred_writer LOGIN;
          END IF;
        END $$`);
      await owner.query(`GRANT USAGE ON SCHEMA public TO sukti_deferred_writer;
        GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO sukti_deferred_writer;
        GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO sukti_deferred_writer`);
      const before = await schemaOf(owner);
      await owner.end();
      // Not the owner: the drop is refused (must be owner), and the load goes on without it.
      await writeContentPostgres(writer, { posts: generateCorpus({ count: 600, seed: 26 }), pages: [] });
      const { rows } = await writer.query<{ n: number }>("SELECT count(*)::int AS n FROM posts");
      expect(rows[0]?.n).toBe(600);
      expect((await schemaOf(writer)).oids).toEqual(before.oids);
    } finally {
      await writer.end();
      await owner.end().catch(() => {});
    }
  });

  test("a first load that fails after dropping them leaves the indexes, keys and tables as they were", async () => {
    const pool = await migrated("deferred_failed");
    try {
      const before = await schemaOf(pool);
      const posts = generateCorpus({ count: 600, seed: 24 });
      const client = await pool.connect();
      let dropped: string[] = [];
      try {
        await expect(
          contentTransaction(client, { incoming: { has: () => true } }, async (writer) => {
            await writer.expectPosts(posts);
            for (const post of posts) await writer.writePost(post, sanitizePostHtml(post.content));
            // Inside the load's transaction: the keys are gone (another session still sees them).
            dropped = await foreignKeys(client);
            throw new Error("the load failed");
          }),
        ).rejects.toThrow("the load failed");
      } finally {
        release(client);
      }
      expect((await schemaOf(pool)).oids).toEqual(before.oids);
      const { rows } = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM posts");
      expect(rows[0]?.n).toBe(0);
      expect(dropped).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
