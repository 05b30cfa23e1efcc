// Every content write transaction on SQLite, in one place: BEGIN IMMEDIATE
// (writers take turns: a second one waits for the busy timeout, and never
// reads a snapshot another writer is about to replace), the connection marked
// as sukti's writer for the change-log triggers (./write-target.server.ts
// markWriter), then COMMIT, or ROLLBACK when the write throws. Readers of a
// running server see the old content or the new, never part, and their
// PRAGMA data_version changes at the commit. The ContentWrites adapter
// (./content-writes.server.ts) and writeContent below both go through here;
// PostgreSQL's counterpart is ../postgres/transaction.server.ts.
import type { ContentFile } from "#app/content/schemas.ts";
import { incomingKeys, SyncContentWriter, type WriteSummary } from "#app/data/content-writer.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import { markWriter, SqliteWriteTarget } from "#app/data/sqlite/write-target.server.ts";

function begin(db: Db): void {
  db.exec("BEGIN IMMEDIATE");
  markWriter(db, true);
}

function commit(db: Db): void {
  markWriter(db, false);
  db.exec("COMMIT");
}

function rollback(db: Db): void {
  if (db.inTransaction) db.exec("ROLLBACK");
}

/** Runs `work` in one write transaction: committed when it returns, rolled back when it throws. */
export function inWriteTransaction<T>(db: Db, work: () => T): T {
  begin(db);
  try {
    const result = work();
    commit(db);
    return result;
  } catch (error) {
    rollback(db);
    throw error;
  }
}

/** inWriteTransaction for a write that awaits (the importer's, through the ContentWrites seam). */
export async function inWriteTransactionAsync<T>(db: Db, work: () => Promise<T>): Promise<T> {
  begin(db);
  try {
    const result = await work();
    commit(db);
    return result;
  } catch (error) {
    rollback(db);
    throw error;
  }
}

/**
 * Upserts posts (by language and slug) and pages (by slug) in one
 * transaction, synchronously: the demo content of a new database, tests and
 * benchmarks. The `sukti` command goes through openSqliteWrites
 * (./content-writes.server.ts) instead.
 */
export function writeContent(db: Db, content: ContentFile): WriteSummary {
  return inWriteTransaction(db, () => {
    const writer = new SyncContentWriter(new SqliteWriteTarget(db), { incoming: incomingKeys(content) });
    for (const post of content.posts) writer.writePost(post, sanitizePostHtml(post.content));
    for (const page of content.pages) writer.writePage(page, sanitizePostHtml(page.content));
    writer.finish();
    return writer.summary;
  });
}
