import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "vitest";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { generatePosts, writeCorpus } from "#cli/generate.ts";
import { importFile } from "#cli/import.ts";
import type { Progress } from "#cli/progress.ts";

// A running server keeps a connection open, so the importer's connection is
// never the last one to close and SQLite does not clean the -wal file up on
// its own. Whether the import commits or fails, it must leave the -wal file
// as small as it found it.

/**
 * Enough posts that the transaction outgrows the page cache (16 MB) and spills into the WAL:
 * it starts to near 7,000 of these posts, and 9,000 spill ~6 MB.
 */
const POSTS = 9_000;

let dir: string;
let dbPath: string;
let reader: Db;
/** The posts file both tests import, written once. */
let corpusDir: string;
let corpus: string;

beforeAll(async () => {
  corpusDir = mkdtempSync(path.join(tmpdir(), "sukti-import-wal-corpus-"));
  corpus = path.join(corpusDir, "posts.ndjson");
  await writeCorpus({ count: POSTS, seed: 7, format: "ndjson", out: corpus });
});
afterAll(() => rmSync(corpusDir, { recursive: true, force: true }));

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-import-wal-"));
  dbPath = path.join(dir, "sukti.db");
  const { db } = openDatabase(`file:${dbPath}`);
  migrate(db);
  db.close();
  reader = openDatabase(`file:${dbPath}`).db;
});

afterEach(() => {
  reader.close();
  rmSync(dir, { recursive: true, force: true });
});

function walBytes(): number {
  try {
    return statSync(`${dbPath}-wal`).size;
  } catch {
    return 0;
  }
}

/** Notes the largest -wal file seen while the import writes. */
function walWatch(): Progress & { peak: number } {
  return {
    peak: 0,
    start() {
      // Only the size during the writes is watched.
    },
    update() {
      this.peak = Math.max(this.peak, walBytes());
    },
    done() {
      // Only the size during the writes is watched.
    },
  };
}

/** The server's view: a read between imports, as a request would make. */
function postsSeen(): number {
  return reader.prepare("SELECT count(*) FROM posts").pluck().get() as number;
}

test("an import that fails after writing every post leaves the -wal file as it found it", async () => {
  // The last post of the file fails to insert, as a full disk would fail it: by then
  // every other post has been written into the transaction.
  const last = [...generatePosts({ count: POSTS, seed: 7 })].at(-1)!;
  const { db } = openDatabase(`file:${dbPath}`);
  db.exec(`CREATE TRIGGER provoked_failure BEFORE INSERT ON posts WHEN NEW.slug = '${last.slug}'
    BEGIN SELECT RAISE(ABORT, 'provoked failure'); END`);
  db.close();
  expect(postsSeen()).toBe(0);
  const before = walBytes();

  const watch = walWatch();
  await expect(
    importFile({ file: corpus, databaseUrl: `file:${dbPath}`, worker: false, progress: watch }),
  ).rejects.toThrow("provoked failure");

  expect(postsSeen()).toBe(0);
  expect(watch.peak, "the transaction spilled into the WAL").toBeGreaterThan(2 * 1024 * 1024);
  expect(walBytes()).toBeLessThanOrEqual(before);
});

test("an import that commits leaves no large -wal file behind either", async () => {
  postsSeen();

  const watch = walWatch();
  const report = await importFile({
    file: corpus,
    databaseUrl: `file:${dbPath}`,
    worker: false,
    progress: watch,
  });

  expect(report.created).toBe(POSTS);
  expect(watch.peak).toBeGreaterThan(2 * 1024 * 1024);
  expect(postsSeen()).toBe(POSTS);
  expect(walBytes()).toBeLessThan(1024 * 1024);
});
