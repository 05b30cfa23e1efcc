// ContentWrites (../writes.ts) over PostgreSQL, for the `sukti` command:
// import, seed, unpublish, delete. Each write is one transaction of
// ./transaction.server.ts (the write lock, the content version, the dry run's
// snapshot are said there); this file opens the database, reads the keys the
// importer checks first, and turns a lost connection into one line.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import type { AsyncContentWriter } from "#app/data/content-writer.ts";
import {
  describeConnectionError,
  describePostgresUrl,
  isUnavailable,
} from "#app/data/postgres/errors.server.ts";
import {
  migratePostgres,
  migrateWithinTransaction,
  pendingMigrations,
} from "#app/data/postgres/migrate.server.ts";
import { createPool, endPool } from "#app/data/postgres/pool.server.ts";
import {
  BEGIN_SNAPSHOT,
  contentTransaction,
  deletePost,
  release,
  rollback,
  unpublishPost,
} from "#app/data/postgres/transaction.server.ts";
import type { SyncTarget } from "#app/data/sync-state.ts";
import {
  type AfterCommit,
  type ContentWrites,
  type PostKey,
  type PostKeysWanted,
  WritesRefusedError,
} from "#app/data/writes.ts";

/** Rows fetched at a time by postKeys(): memory stays flat whatever the number of posts. */
const KEY_BATCH = 5000;

class PostgresWrites implements ContentWrites {
  readonly description: string;
  readonly #pool: pg.Pool;
  readonly #url: string;
  readonly #afterCommit: AfterCommit | undefined;

  constructor(pool: pg.Pool, description: string, url: string, afterCommit?: AfterCommit) {
    this.#pool = pool;
    this.description = description;
    this.#url = url;
    this.#afterCommit = afterCommit;
  }

  /**
   * The database gone mid-way (server stopped, connection lost): one line
   * saying so. Before COMMIT was sent nothing was written (PostgreSQL rolls
   * back a transaction whose connection ends); while it was on its way, the
   * outcome is unknown, and the line says that instead.
   */
  #lost(error: unknown, committing = false): unknown {
    if (!isUnavailable(error)) return error;
    const why = describeConnectionError(error, this.#url);
    return new WritesRefusedError(
      committing
        ? `lost the database ${this.description} while committing (${why}): the import may or may not have been written; run it again once the database is back (what it already wrote is left unchanged)`
        : `lost the database ${this.description} (${why}); nothing was imported, the database was not changed`,
    );
  }

  /** Every post, read through a cursor in one snapshot, KEY_BATCH rows at a time. */
  async *postKeys(only?: PostKeysWanted): AsyncGenerator<PostKey> {
    if (only !== undefined) {
      yield* await this.#postKeysOf(only);
      return;
    }
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw this.#lost(error);
    });
    try {
      await client.query(BEGIN_SNAPSHOT);
      // A dry run on a database never migrated: no posts yet.
      const { rows: table } = await client.query<{ present: boolean }>(
        "SELECT to_regclass('posts') IS NOT NULL AS present",
      );
      if (!table[0]?.present) return;
      await client.query(
        `DECLARE sukti_post_keys NO SCROLL CURSOR FOR SELECT language, id_num AS "idNum", slug, translation_key AS "translationKey" FROM posts`,
      );
      for (;;) {
        const { rows } = await client.query<PostKey>(`FETCH ${KEY_BATCH} FROM sukti_post_keys`);
        yield* rows;
        if (rows.length < KEY_BATCH) break;
      }
    } catch (error) {
      throw this.#lost(error);
    } finally {
      // Also when the caller stops early (break out of for await).
      await rollback(client);
      release(client);
    }
  }

  /** The posts holding these idNums or group places: one statement, each key an index seek. */
  async #postKeysOf(only: PostKeysWanted): Promise<PostKey[]> {
    const columns = `p.language, p.id_num AS "idNum", p.slug, p.translation_key AS "translationKey"`;
    try {
      const { rows } = await this.#pool.query<PostKey>(
        `SELECT ${columns} FROM unnest($1::text[], $2::bigint[]) k(language, id_num)
            JOIN posts p ON p.language = k.language AND p.id_num = k.id_num
          UNION
          SELECT ${columns} FROM unnest($3::text[], $4::text[]) k(translation_key, language)
            JOIN posts p ON p.translation_key = k.translation_key AND p.language = k.language`,
        [
          only.idNums.map((key) => key.language),
          only.idNums.map((key) => key.idNum),
          only.groups.map((key) => key.translationKey),
          only.groups.map((key) => key.language),
        ],
      );
      return rows;
    } catch (error) {
      // A dry run on a database never migrated: no posts yet.
      if ((error as { code?: string }).code === "42P01") return [];
      throw this.#lost(error);
    }
  }
  async pageSlugs(): Promise<string[]> {
    const { rows } = await this.#pool.query<{ slug: string }>("SELECT slug FROM pages ORDER BY slug");
    return rows.map((row) => row.slug);
  }

  async transaction<T>(
    options: { incoming: { has(key: string): boolean }; dryRun?: boolean },
    write: (writer: AsyncContentWriter, sync: SyncTarget) => Promise<T>,
  ): Promise<T> {
    const client = await this.#pool.connect().catch((error: unknown) => {
      throw this.#lost(error);
    });
    let committing = false;
    let written: { result: T; changes: ContentChange[] };
    try {
      // A dry run on a database not yet migrated (or empty) makes the schema
      // inside the transaction it rolls back.
      const migrate =
        options.dryRun && (await pendingMigrations(client)).length > 0 ? migrateWithinTransaction : undefined;
      written = await contentTransaction(
        client,
        {
          ...options,
          migrate,
          committing: () => {
            committing = true;
          },
        },
        write,
      );
    } catch (error) {
      // Also ends (or, its connection gone, marks broken) a client that failed before BEGIN.
      await rollback(client);
      throw this.#lost(error, committing);
    } finally {
      release(client);
    }
    if (written.changes.length) await this.#afterCommit?.(written.changes);
    return written.result;
  }

  async unpublishPost(language: Language, slug: string): Promise<boolean> {
    return this.#purged(await unpublishPost(this.#pool, language, slug));
  }

  async deletePost(language: Language, slug: string): Promise<boolean> {
    return this.#purged(await deletePost(this.#pool, language, slug));
  }

  /** After a removal committed: the purge hook, then whether there was such a post. */
  async #purged(changes: ContentChange[] | null): Promise<boolean> {
    if (changes === null) return false;
    if (changes.length) await this.#afterCommit?.(changes);
    return true;
  }

  close(): Promise<void> {
    return endPool(this.#pool);
  }
}

/**
 * Opens the PostgreSQL database at `databaseUrl` for writing, migrated first
 * (the command may run before any server has; a dry run only connects). A database that cannot be reached or
 * migrated is refused with WritesRefusedError: one line, naming the database
 * without its password.
 */
export async function openPostgresWrites(
  databaseUrl: string,
  options: { dryRun?: boolean; afterCommit?: AfterCommit } = {},
): Promise<ContentWrites> {
  const description = describePostgresUrl(databaseUrl);
  const pool = createPool(databaseUrl, { max: 4 });
  try {
    // A dry run writes nothing, not even the schema: it migrates inside the
    // transaction it rolls back (PostgresWrites.transaction).
    if (options.dryRun) await pool.query("SELECT 1");
    else await migratePostgres(pool);
  } catch (error) {
    await endPool(pool);
    throw new WritesRefusedError(
      `cannot open the database ${description}: ${describeConnectionError(error, databaseUrl)}`,
    );
  }
  return new PostgresWrites(pool, description, databaseUrl, options.afterCommit);
}
