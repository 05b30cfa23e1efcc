// `sukti sync` on PostgreSQL (decision 053): the same runs as cli/sync.test.ts
// against the stub site (tests/support/wp-rest-stub.ts), on a real server.
// A run that changes content bumps content_version (every node sees it); one
// that finds nothing changed writes nothing; a failed one leaves all as it was.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { type SyncOptions, syncSite } from "#cli/sync.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { startWpStub, type WpStub } from "#tests/support/wp-rest-stub.ts";

// Runs over loopback HTTP and a real database: generous on a busy machine (nothing here asserts on time).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

describe.skipIf(!postgresAvailable())("sukti sync on PostgreSQL", () => {
  let server: TestPostgres;
  let site: WpStub;
  let dir: string;
  let url: string;
  let runs = 0;

  beforeAll(async () => {
    server = await sharedPostgres();
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-sync-pg-"));
    site = await startWpStub();
    url = await server.createDatabase(`sync_${runs++}`);
  });
  afterEach(async () => {
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (extra: Partial<SyncOptions> = {}): SyncOptions => ({
    siteUrl: site.url,
    databaseUrl: url,
    imageDir: path.join(dir, "images"),
    language: "english",
    client: { backoffMs: 20, maxBackoffMs: 50, timeoutMs: 2_000, log: () => {} },
    ...extra,
  });

  async function snapshot() {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const result: unknown[] = [];
      for (const sql of [
        "SELECT id, language, id_num, slug, title, status, feature_image_url, translation_key, updated_at FROM posts ORDER BY id",
        "SELECT * FROM post_terms ORDER BY post_id, term_id",
        "SELECT post_id FROM search_documents ORDER BY post_id",
        "SELECT * FROM sync_sources",
        "SELECT * FROM sync_posts ORDER BY wp_id",
        "SELECT version FROM content_version",
      ]) {
        result.push((await client.query(sql)).rows);
      }
      return result;
    } finally {
      await client.end();
    }
  }

  const version = async () => ((await snapshot())[5] as { version: string }[])[0]?.version;
  const posts = async () =>
    (await snapshot())[0] as { id: string; id_num: string; slug: string; status: string; language: string }[];

  test("first sync, nothing changed, a rename, a vanished post, and a failed run", async () => {
    const first = await syncSite(options());
    expect([first.created, first.skipped.length]).toEqual([5, 0]);
    const afterFirst = await snapshot();
    const languages = (await posts()).map((p) => `${p.id_num}:${p.language}`);
    expect(languages).toEqual(["11:english", "12:hindi", "13:english", "14:english", "15:marathi"]);

    const second = await syncSite(options());
    expect(second.created + second.updated + second.unpublished).toBe(0);
    expect(second.unchanged).toBe(5);
    expect(await snapshot()).toEqual(afterFirst);

    // A slug edited in WordPress: the same post, and every node told.
    const before = await version();
    const edited = site.posts.find((p) => p.id === 14) as Record<string, unknown>;
    Object.assign(edited, { slug: "be-still-and-know", modified_gmt: "2026-11-22T00:00:00" });
    const renamed = await syncSite(options());
    expect(renamed.updated + renamed.unchanged).toBe(5);
    const row = (await posts()).find((p) => p.id_num === "14");
    expect(row?.slug).toBe("be-still-and-know");
    expect(row?.id).toBe(
      (afterFirst[0] as { id: string; id_num: string }[]).find((p) => p.id_num === "14")?.id,
    );
    expect(Number(await version())).toBeGreaterThan(Number(before));

    // Trashed: unpublished, out of search, and the version bumped.
    (site.posts.find((p) => p.id === 12) as Record<string, unknown>).status = "trash";
    const vanished = await syncSite(options());
    expect(vanished.unpublished).toBe(1);
    expect((await posts()).find((p) => p.id_num === "12")?.status).toBe("draft");

    // Retries spent: nothing written.
    const settled = await snapshot();
    edited.title = { rendered: "Changed" };
    edited.modified_gmt = "2026-11-23T00:00:00";
    for (let i = 0; i < 2; i++) site.faults.push({ match: /_embed/, status: 502 });
    await expect(
      syncSite(options({ client: { backoffMs: 10, attempts: 2, log: () => {} } })),
    ).rejects.toThrow(/HTTP 502, 2 attempts failed; the database was not changed$/);
    expect(await snapshot()).toEqual(settled);
  });
});
