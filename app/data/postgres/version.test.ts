// The content version and liveness when the database goes away: a server of
// its own, stopped mid-test.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { type ContentVersion, watchContentVersion } from "#app/data/postgres/version.server.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";

const available = postgresAvailable();

async function within(ms: number, check: () => boolean): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

function draft(slug: string, idNum: number) {
  return {
    posts: [
      {
        language: "english" as const,
        idNum,
        status: "draft" as const,
        postTime: 1_700_000_000,
        title: slug,
        slug,
        featureImageUrl: "",
        content: "<p>x</p>",
        excerpt: "",
        tags: [],
        categories: [],
      },
    ],
    pages: [],
  };
}

describe.skipIf(!available)("content version", () => {
  let server: TestPostgres;
  let url: string;
  let writer: pg.Pool;
  let reader: pg.Pool;
  let version: ContentVersion;

  beforeAll(async () => {
    server = await sharedPostgres();
    url = await server.createDatabase("version");
    writer = createPool(url, { max: 2 });
    reader = createPool(url, { max: 2, connectionTimeoutMillis: 500 });
    await migratePostgres(writer);
    version = await watchContentVersion(url, reader, { pollMs: 500 });
  });

  afterAll(async () => {
    await version?.stop();
    await writer?.end().catch(() => {
      // The tests are over: a pool that fails to end leaves nothing to check.
    });
    await reader?.end().catch(() => {
      // The tests are over: a pool that fails to end leaves nothing to check.
    });
    await server?.stop();
  });

  test("every write is seen; a re-import that changes nothing keeps it", async () => {
    const first = version.current();
    expect(first).toMatch(/^\d+$/);
    await writeContentPostgres(writer, draft("one", 1));
    // Seen at all: how soon is the timed postgres-nodes test's and the benchmarks' business.
    await within(READY_MS, () => version.current() !== first);
    const second = version.current();
    await writeContentPostgres(writer, draft("one", 1));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(version.current()).toBe(second);
  });

  test("a lost LISTEN connection costs at most a poll", async () => {
    await writer.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()",
    );
    const before = version.current();
    await writeContentPostgres(writer, draft("two", 2));
    await within(READY_MS, () => version.current() !== before);
    // And LISTEN comes back (at the next poll).
    const listeners = async () =>
      (
        await writer.query(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
        )
      ).rows[0].n;
    const started = Date.now();
    while ((await listeners()) !== 1 && Date.now() - started < 3000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await listeners()).toBe(1);
  });

  test("while the database is down, current() is null and ping() false", async () => {
    const store = new PostgresContentStore(reader);
    expect(await store.ping()).toBe(true);
    await writer.end();
    await server.stop();
    await within(READY_MS, () => version.current() === null);
    expect(await store.ping()).toBe(false);
  });
});
