// Every write transaction on PostgreSQL, in one place. Each is one
// transaction (nothing changes when it fails); writers take turns on an
// advisory lock taken right after BEGIN and held to COMMIT or ROLLBACK, as
// SQLite's BEGIN IMMEDIATE makes them (../sqlite/transaction.server.ts): a
// second import waits for the first, then reads what it committed. Not
// SERIALIZABLE: two imports touching the same rows would have one fail at its
// end and need the whole file again; with the lock the second simply waits.
// Readers are never blocked (they read the last committed snapshot). A
// transaction that changes content bumps content_version and sends NOTIFY
// sukti_content as it commits, so every node sees the new content at its
// commit (./version.server.ts).
//
// A dry run reads one snapshot (REPEATABLE READ READ ONLY): what it reports
// is the database at one moment even while another import commits, and a
// write it tried would fail rather than happen; it always rolls back.
//
// The ContentWrites adapter (./content-writes.server.ts) and the demo
// content of an empty database (./migrate.server.ts) both write through here.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile } from "#app/content/schemas.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import {
  AsyncContentWriter,
  incomingKeys,
  POSTS_EXPECTED_AT_ONCE,
  recordRemoval,
  type WriteSummary,
} from "#app/data/content-writer.ts";
import { PostgresSyncTarget } from "#app/data/postgres/sync-state.server.ts";
import { PostgresWriteTarget } from "#app/data/postgres/write-target.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { SyncTarget } from "#app/data/sync-state.ts";

/** Held for the length of a write transaction: one writer at a time. */
const WRITE_LOCK = 7_463_220_261_122;
export const CONTENT_CHANNEL = "sukti_content";

/** The BEGIN of a read that must see one state of the database: a dry run, the importer's key scan. */
export const BEGIN_SNAPSHOT = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

/** Bumps the content version and notifies every listening node, in the caller's transaction. */
async function bumpContentVersion(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ version: number }>(
    "UPDATE content_version SET version = version + 1 WHERE id = 1 RETURNING version",
  );
  const [row] = rows;
  if (row === undefined) throw new Error("content_version has no row (is the database migrated?)");
  const { version } = row;
  await client.query("SELECT pg_notify($1, $2)", [CONTENT_CHANNEL, String(version)]);
  return version;
}

/** Clients whose ROLLBACK failed: their connection is gone, so the pool must not reuse them. */
const broken = new WeakSet<pg.PoolClient>();

/** Ends the client's transaction; a client whose connection is gone is marked so release() drops it. */
export async function rollback(client: pg.PoolClient): Promise<void> {
  await client.query("ROLLBACK").catch(() => {
    broken.add(client);
  });
}

/** Gives the client back to its pool, or closes it when its connection is gone. */
export function release(client: pg.PoolClient): void {
  client.release(broken.has(client));
}

/** Runs `work` in one write transaction on `client`: committed when it returns, rolled back when it throws. */
async function inWriteTransactionOn<T>(
  client: pg.PoolClient,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await rollback(client);
    throw error;
  }
}

/** inWriteTransactionOn, on a client of the pool. */
async function inWriteTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await inWriteTransactionOn(client, work);
  } finally {
    release(client);
  }
}

export interface ContentTransactionOptions {
  /** The keys (postKey) of every post the whole import writes. */
  incoming: { has(key: string): boolean };
  /** Roll back at the end: the writer reports what it would change and nothing is written. */
  dryRun?: boolean;
  /**
   * A dry run on a database not migrated yet: makes the schema first, inside
   * the transaction the dry run rolls back, so nothing is left of it.
   */
  migrate?: (client: pg.PoolClient) => Promise<unknown>;
  /** Called as COMMIT is sent (after it, a lost connection leaves the outcome unknown). */
  committing?: () => void;
}

/**
 * Runs `write` in one content transaction on `client`: the writer's rules
 * over PostgresWriteTarget, then its finish(), the content version bumped
 * when anything a visitor sees changed, and COMMIT; rolled back when it
 * throws or with `dryRun`. Returns `write`'s result and the changes
 * committed, as cache tags (none for a dry run).
 */
export async function contentTransaction<T>(
  client: pg.PoolClient,
  options: ContentTransactionOptions,
  write: (writer: AsyncContentWriter, sync: SyncTarget) => Promise<T>,
): Promise<{ result: T; changes: ContentChange[] }> {
  const start = (dryRun: boolean) => {
    const target = new PostgresWriteTarget(client, { deferIndexes: !dryRun });
    const writer = new AsyncContentWriter(target, { incoming: options.incoming, dryRun });
    return { target, writer, sync: new PostgresSyncTarget(client, writer.changes, target) };
  };
  if (options.dryRun) {
    await client.query(options.migrate ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : BEGIN_SNAPSHOT);
    let result: T;
    try {
      await options.migrate?.(client);
      const { writer, sync } = start(true);
      result = await write(writer, sync);
    } catch (error) {
      await rollback(client);
      throw error;
    }
    await client.query("ROLLBACK").catch((error: unknown) => {
      broken.add(client);
      throw error;
    });
    return { result, changes: [] };
  }
  return inWriteTransactionOn(client, async () => {
    const { target, writer, sync } = start(false);
    const result = await write(writer, sync);
    await writer.finish();
    await target.finishLoad();
    const { summary } = writer;
    const changed = summary.created + summary.updated + summary.pages.created + summary.pages.updated > 0;
    // A person renamed, or a post renamed by sync, otherwise unchanged changes pages too (its change log row).
    if (changed || sync.contentChanged || !writer.changes.empty) await bumpContentVersion(client);
    options.committing?.();
    return { result, changes: writer.changes.records() };
  });
}

/**
 * Upserts posts (by language and slug) and pages (by slug) in one content
 * transaction on a client the caller holds (the demo content, on the client
 * holding the migration lock; tests): readers see the old content or the
 * new, never half; any error leaves the database as it was.
 */
export async function writeContentOn(
  client: pg.PoolClient,
  content: ContentFile,
  options: { dryRun?: boolean; incoming?: { has(key: string): boolean } } = {},
): Promise<WriteSummary> {
  const { result } = await contentTransaction(
    client,
    { incoming: options.incoming ?? incomingKeys(content), dryRun: options.dryRun },
    async (writer) => {
      for (let at = 0; at < content.posts.length; at += POSTS_EXPECTED_AT_ONCE) {
        const run = content.posts.slice(at, at + POSTS_EXPECTED_AT_ONCE);
        await writer.expectPosts(run);
        for (const post of run) await writer.writePost(post, sanitizePostHtml(post.content));
      }
      for (const page of content.pages) await writer.writePage(page, sanitizePostHtml(page.content));
      return writer.summary;
    },
  );
  return result;
}

/**
 * Takes one post off the site in one write transaction (`remove` runs the
 * statement); what showed it, if it was published, is recorded in the change
 * log (decision 057). Null when there is no such post; else the changes recorded.
 */
async function removePost(
  pool: pg.Pool,
  language: Language,
  slug: string,
  onlyPublished: boolean,
  remove: (client: pg.PoolClient, id: number) => Promise<void>,
): Promise<ContentChange[] | null> {
  return inWriteTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: number; status: string; personId: number | null }>(
      `SELECT id, status, person_id AS "personId" FROM posts WHERE language = $1 AND slug = $2 FOR UPDATE`,
      [language, slug.normalize("NFC")],
    );
    const [row] = rows;
    if (row === undefined || (onlyPublished && row.status !== "publish")) return null;
    const target = new PostgresWriteTarget(client);
    const changes =
      row.status === "publish"
        ? await recordRemoval(target, { ...row, language, slug: slug.normalize("NFC") })
        : [];
    await remove(client, row.id);
    await target.unindexPost(row.id);
    await bumpContentVersion(client);
    return changes;
  });
}

/** Takes a published post off the site (status draft). Null when there is no such published post; else the changes recorded. */
export function unpublishPost(
  pool: pg.Pool,
  language: Language,
  slug: string,
): Promise<ContentChange[] | null> {
  return removePost(pool, language, slug, true, async (client, id) => {
    await client.query(
      `UPDATE posts SET status = 'draft', updated_at = extract(epoch FROM clock_timestamp())::bigint WHERE id = $1`,
      [id],
    );
  });
}

/** Deletes a post, its term links and its search document. Null when there is no such post; else the changes recorded. */
export function deletePost(pool: pg.Pool, language: Language, slug: string): Promise<ContentChange[] | null> {
  return removePost(pool, language, slug, false, async (client, id) => {
    await client.query("DELETE FROM posts WHERE id = $1", [id]);
  });
}
