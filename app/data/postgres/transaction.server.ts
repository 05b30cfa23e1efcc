// Writes to PostgreSQL: each call is one transaction (nothing changes when it
// fails), writers take turns (an advisory lock, as SQLite's BEGIN IMMEDIATE),
// and a transaction that changes content bumps content_version and sends
// NOTIFY sukti_content as it commits (./version.server.ts).
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile } from "#app/content/schemas.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import {
  AsyncContentWriter,
  incomingKeys,
  recordRemoval,
  type WriteSummary,
} from "#app/data/content-writer.ts";
import { PostgresWriteTarget } from "#app/data/postgres/write-target.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";

/** Held for the length of a write transaction: one writer at a time. */
const WRITE_LOCK = 7_463_220_261_122;
export const CONTENT_CHANNEL = "sukti_content";

/** Bumps the content version and notifies every listening node, in the caller's transaction. */
export async function bumpContentVersion(client: pg.PoolClient | pg.Client): Promise<number> {
  const { rows } = await client.query<{ version: number }>(
    "UPDATE content_version SET version = version + 1 WHERE id = 1 RETURNING version",
  );
  const [row] = rows;
  if (row === undefined) throw new Error("content_version has no row (is the database migrated?)");
  const { version } = row;
  await client.query("SELECT pg_notify($1, $2)", [CONTENT_CHANNEL, String(version)]);
  return version;
}

/**
 * Waits for, then holds until the transaction ends, the one write lock: every
 * write transaction takes it first, so writers take turns. Call right after BEGIN.
 */
export async function takeWriteLock(client: pg.PoolClient | pg.Client): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
}

/** Runs `work` in one write transaction on `client`: committed when it returns, rolled back when it throws. */
export async function inWriteTransactionOn<T>(
  client: pg.PoolClient,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  await client.query("BEGIN");
  try {
    await takeWriteLock(client);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {
      broken.add(client);
    });
    throw error;
  }
}

/** Clients whose ROLLBACK failed: their connection is gone, so the pool must not reuse them. */
const broken = new WeakSet<pg.PoolClient>();

/** inWriteTransactionOn, on a client of the pool. */
export async function inWriteTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await inWriteTransactionOn(client, work);
  } finally {
    client.release(broken.has(client));
  }
}

export interface WriteOptions {
  dryRun?: boolean;
  /** The keys (postKey) of every post the import writes; by default those of `content`. */
  incoming?: { has(key: string): boolean };
}

/**
 * Upserts posts (by language and slug) and pages (by slug) in one
 * transaction: readers see the old content or the new, never half; any
 * error leaves the database as it was.
 */
export async function writeContentPostgres(
  pool: pg.Pool,
  content: ContentFile,
  options: WriteOptions = {},
): Promise<WriteSummary> {
  if (!options.dryRun) return inWriteTransaction(pool, (client) => writeWith(client, content, options));
  const client = await pool.connect();
  try {
    await client.query("BEGIN READ ONLY");
    try {
      return await writeWith(client, content, options);
    } finally {
      await client.query("ROLLBACK");
    }
  } finally {
    client.release();
  }
}

/** writeContentPostgres on a client the caller holds (e.g. the one holding the migration lock). */
export async function writeContentOn(
  client: pg.PoolClient,
  content: ContentFile,
  options: Omit<WriteOptions, "dryRun"> = {},
): Promise<WriteSummary> {
  return inWriteTransactionOn(client, (c) => writeWith(c, content, options));
}

async function writeWith(
  client: pg.PoolClient,
  content: ContentFile,
  options: WriteOptions,
): Promise<WriteSummary> {
  const writer = new AsyncContentWriter(new PostgresWriteTarget(client), {
    incoming: options.incoming ?? incomingKeys(content),
    dryRun: options.dryRun,
  });
  for (const post of content.posts) await writer.writePost(post, sanitizePostHtml(post.content));
  for (const page of content.pages) await writer.writePage(page, sanitizePostHtml(page.content));
  await writer.finish();
  const { summary } = writer;
  const changed = summary.created + summary.updated + summary.pages.created + summary.pages.updated;
  if (!options.dryRun && (changed > 0 || !writer.changes.empty)) await bumpContentVersion(client);
  return summary;
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
