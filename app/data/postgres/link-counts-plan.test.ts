// The trigger that counts a statement's links (sukti_count_links, decision
// 082) looks each link's post up by its key, whatever the planner believes
// about posts. Inside an import's one transaction the statistics are those of
// the database before it: into an empty database the planner once hashed every
// published post for each batch (70 ms a batch at 100,000 posts), and with
// hash joins turned off looped over the posts for every link (20 s a batch).
// Here a never-analyzed database takes batches of posts and links in one
// transaction, as an import writes them, and auto_explain reports the plans
// the trigger's statements ran with.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createClient, createPool } from "#app/data/postgres/pool.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";

const available = postgresAvailable();
const BATCHES = 12;
const BATCH = 1000;

/** The plan auto_explain gave for the first statement whose text holds `marker`. */
function planOf(notices: string[], marker: string): string {
  const plan = notices.find((notice) => notice.includes(marker));
  if (plan === undefined) throw new Error(`no plan was reported for ${marker}`);
  return plan;
}

/** The counting plan reads the transition table first and each post by an index, never posts whole. */
function expectKeyLookups(plan: string): void {
  expect(plan).toContain("Nested Loop");
  expect(plan).not.toMatch(/Hash Join|Merge Join|Seq Scan on posts/);
  const outer = plan.indexOf("Named Tuplestore Scan");
  // An index of posts, read with the link's post id (a bitmap of one row would do as well).
  const inner = plan.search(/Index (Only )?Scan using posts_\w+ on posts|Bitmap Index Scan on posts_\w+/);
  expect(outer).toBeGreaterThan(-1);
  expect(inner).toBeGreaterThan(outer);
}

describe.skipIf(!available)("the trigger counting links, in a database the planner knows nothing of", () => {
  let server: TestPostgres;
  let client: pg.Client;
  const notices: string[] = [];

  beforeAll(async () => {
    server = await sharedPostgres();
    const url = await server.createDatabase("link_counts_plan");
    const pool = createPool(url, { max: 1 });
    await migratePostgres(pool);
    await pool.end();
    client = createClient(url);
    await client.connect();
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.query("BEGIN");
    await client.query(
      "INSERT INTO terms (kind, name, slug) SELECT 'tag', 'tag ' || g, 'tag-' || g FROM generate_series(1, 60) g",
    );
    // Batches of published posts and three links each, as an import writes them.
    for (let batch = 0; batch < BATCHES; batch++) await writeBatch(batch);
    await client.query("LOAD 'auto_explain'");
    await client.query(`SET auto_explain.log_min_duration = 0;
      SET auto_explain.log_nested_statements = on;
      SET auto_explain.log_level = 'notice';
      SET client_min_messages = notice`);
  });

  afterAll(async () => {
    await client?.query("ROLLBACK").catch(() => undefined);
    await client?.end();
    await server?.stop();
  });

  async function writeBatch(batch: number): Promise<void> {
    const first = batch * BATCH + 1;
    await client.query(
      `INSERT INTO posts (id, language, id_num, status, post_time, title, slug)
       SELECT g, 'english', g, 'publish', g, 'title ' || g, 'post-' || g FROM generate_series($1::bigint, $2::bigint) g`,
      [first, first + BATCH - 1],
    );
    await client.query(
      `INSERT INTO post_terms (post_id, term_id)
       SELECT g, (SELECT min(id) FROM terms) + (g * 7 + k * 13) % 60
       FROM generate_series($1::bigint, $2::bigint) g, generate_series(1, 3) k ON CONFLICT DO NOTHING`,
      [first, first + BATCH - 1],
    );
  }

  test("a batch's new links are counted by looking each post up", async () => {
    notices.length = 0;
    await writeBatch(BATCHES);
    expectKeyLookups(planOf(notices, "FROM linked l"));
  });

  test("links removed are counted the same way", async () => {
    notices.length = 0;
    await client.query("DELETE FROM post_terms WHERE post_id > $1", [(BATCHES - 1) * BATCH]);
    expectKeyLookups(planOf(notices, "FROM unlinked u"));
  });

  test("the counts are what counting the posts gives", async () => {
    const { rows } = await client.query<{ differing: string }>(
      `SELECT count(*) AS differing FROM (
         SELECT pt.term_id, count(*) AS posts FROM post_terms pt
         JOIN posts p ON p.id = pt.post_id AND p.status = 'publish' GROUP BY pt.term_id
       ) recount FULL JOIN (SELECT id, posts FROM published_counts WHERE kind = 'term' AND posts <> 0) kept
       ON kept.id = recount.term_id WHERE kept.posts IS DISTINCT FROM recount.posts`,
    );
    expect(Number(rows[0]?.differing)).toBe(0);
  });
});
