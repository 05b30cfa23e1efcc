// A first large import into SQLite builds the indexes only the site reads
// after its rows (decision 092): the schema after it is the migrated schema,
// a later or small import leaves them be, a load that fails leaves them as
// they were, and a reader meanwhile reads the database as it was.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PostRecord } from "#app/content/schemas.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { openSqliteWrites } from "#app/data/sqlite/content-writes.server.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { DEFER_AFTER_POSTS, DEFERRED_INDEXES } from "#app/data/sqlite/deferred-indexes.server.ts";
import { generateCorpus } from "#cli/generate.ts";

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-deferred-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated database file, and its URL. */
/** Runs `use` on a migrated database of its own (its address, and a connection closed after). */
async function withMigrated(name: string, use: (url: string, db: Db) => Promise<void> | void): Promise<void> {
  const url = `file:${path.join(dir, `${name}.db`)}`;
  const { db } = openDatabase(url);
  try {
    migrate(db);
    await use(url, db);
  } finally {
    db.close();
  }
}

/** Every index: name → its statement, and name → its row in sqlite_schema (a dropped and made again index gets a new one). */
function indexesOf(db: Db) {
  const rows = db
    .prepare<[], { name: string; sql: string | null; rowid: number }>(
      "SELECT name, sql, rowid FROM sqlite_schema WHERE type = 'index' ORDER BY name",
    )
    .all();
  return {
    statements: Object.fromEntries(rows.map((row) => [row.name, row.sql])),
    rowids: Object.fromEntries(rows.map((row) => [row.name, row.rowid])),
  };
}

/**
 * Imports the posts as `sukti import` writes them (SqliteWrites' transaction);
 * `during` runs after the last is written, before the commit; `fail` then throws.
 */
async function load(
  url: string,
  posts: readonly PostRecord[],
  { fail = false, during }: { fail?: boolean; during?: () => void } = {},
): Promise<void> {
  const writes = await openSqliteWrites(url);
  try {
    await writes.transaction({ incoming: { has: () => true } }, async (writer) => {
      await writer.expectPosts(posts);
      for (const post of posts) await writer.writePost(post, sanitizePostHtml(post.content));
      during?.();
      if (fail) throw new Error("the load failed");
    });
  } finally {
    await writes.close();
  }
}

describe("a first large import into SQLite builds its read indexes last", () => {
  test("every deferred index exists in the migrated schema", () =>
    withMigrated("names", (_url, db) => {
      // A migration renaming one of them would leave it written row by row, silently.
      for (const name of DEFERRED_INDEXES) expect(indexesOf(db).statements[name], name).toBeTruthy();
    }));

  test("after a first import of 600 posts the indexes are the migrated ones, the deferred ones made again", () =>
    withMigrated("first", async (url, db) => {
      const before = indexesOf(db);
      let meanwhile: ReturnType<typeof indexesOf> | null = null;
      // A reader (the site) reads the database as it was, its indexes included, until the commit.
      await load(url, generateCorpus({ count: 600, seed: 31 }), {
        during: () => (meanwhile = indexesOf(db)),
      });
      expect(meanwhile).toEqual(before);
      const after = indexesOf(db);
      expect(after.statements).toEqual(before.statements);
      const remade = Object.keys(before.rowids).filter((name) => after.rowids[name] !== before.rowids[name]);
      expect(remade.sort()).toEqual([...DEFERRED_INDEXES].sort());
      expect(db.prepare("PRAGMA integrity_check").pluck().get()).toBe("ok");
    }));

  test("an import into a database holding posts, and a small first one, make nothing again", () =>
    withMigrated("later", async (url, db) => {
      const start = indexesOf(db);
      await load(url, generateCorpus({ count: DEFER_AFTER_POSTS, seed: 32 }));
      expect(indexesOf(db).rowids).toEqual(start.rowids);
      const more = generateCorpus({ count: 600, seed: 33 }).map((post) => ({
        ...post,
        slug: `more-${post.slug}`,
        idNum: post.idNum + 100_000,
      }));
      await load(url, more);
      expect(indexesOf(db).rowids).toEqual(start.rowids);
    }));

  test("a first load that fails after dropping them leaves every index and no post", () =>
    withMigrated("failed", async (url, db) => {
      const before = indexesOf(db);
      await expect(load(url, generateCorpus({ count: 600, seed: 34 }), { fail: true })).rejects.toThrow(
        "the load failed",
      );
      expect(indexesOf(db)).toEqual(before);
      expect(db.prepare("SELECT count(*) FROM posts").pluck().get()).toBe(0);
    }));
});
