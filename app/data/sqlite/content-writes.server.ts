// ContentWrites (../writes.ts) over a SQLite file, for the `sukti` command:
// the rules of ../content-writer.ts over ./write-target.server.ts, each write
// one transaction of ./transaction.server.ts (BEGIN IMMEDIATE … COMMIT).
// Nothing is created or migrated before the first write: a rejected import
// leaves the file as it was, or absent.
import { existsSync, rmSync } from "node:fs";
import type { Language } from "#app/content/languages.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import { AsyncContentWriter, recordRemovalSync } from "#app/data/content-writer.ts";
import { type Db, databasePath, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteSyncTarget } from "#app/data/sqlite/sync-state.server.ts";
import { inWriteTransaction, inWriteTransactionAsync } from "#app/data/sqlite/transaction.server.ts";
import { SqliteWriteTarget } from "#app/data/sqlite/write-target.server.ts";
import type { SyncTarget } from "#app/data/sync-state.ts";
import {
  type AfterCommit,
  type ContentWrites,
  type PostKey,
  type PostKeysWanted,
  WritesRefusedError,
} from "#app/data/writes.ts";

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * A running server keeps its connection open, so ours is not the last to
 * close and SQLite would leave the -wal file as large as this write made it,
 * rolled-back frames included, until the server restarts. Checkpointing and
 * truncating it leaves the disk as the write found it. A reader that holds
 * the WAL past the busy timeout only means it shrinks later.
 */
function shrinkWal(db: Db): void {
  try {
    db.pragma("wal_checkpoint(TRUNCATE)");
  } catch {
    // A reader holds the WAL: a later checkpoint shrinks it instead.
  }
}

function emptyDatabase(): Db {
  const { db } = openDatabase(":memory:");
  migrate(db);
  return db;
}

class SqliteWrites implements ContentWrites {
  readonly description: string;
  readonly #url: string;
  readonly #file: string;
  readonly #dryRun: boolean;
  readonly #afterCommit: AfterCommit | undefined;
  /** The connection; null until the first write when the file does not exist yet. */
  #db: Db | null;

  constructor(databaseUrl: string, dryRun: boolean, afterCommit?: AfterCommit) {
    this.#url = databaseUrl;
    this.#file = databasePath(databaseUrl);
    this.description = this.#file;
    this.#dryRun = dryRun;
    this.#afterCommit = afterCommit;
    const exists = this.#file === ":memory:" || existsSync(this.#file);
    this.#db = exists ? this.#open() : null;
  }

  /** An existing file: read-only for a dry run; otherwise writable, or refused in one line. */
  #open(): Db {
    let opened: ReturnType<typeof openDatabase>;
    try {
      opened = openDatabase(this.#url, this.#dryRun ? { readonly: true } : {});
    } catch (error) {
      throw new WritesRefusedError(`cannot open the database ${this.#file}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (this.#dryRun || opened.readOnly === null) return opened.db;
    opened.db.close();
    throw new WritesRefusedError(`cannot write the database ${this.#file}: ${opened.readOnly}`);
  }

  async *postKeys(only?: PostKeysWanted): AsyncIterable<PostKey> {
    const db = this.#db;
    if (!db || !hasTable(db, "posts")) return;
    const columns = "p.language, p.id_num AS idNum, p.slug, p.translation_key AS translationKey";
    if (only === undefined) {
      yield* db.prepare(`SELECT ${columns} FROM posts p`).iterate() as Iterable<PostKey>;
      return;
    }
    // One seek a key (posts_language_id_num, posts_translation); UNION: a post holding both once.
    yield* db
      .prepare(
        `SELECT ${columns} FROM json_each(?) k
          JOIN posts p ON p.language = k.value ->> 'language' AND p.id_num = k.value ->> 'idNum'
        UNION
        SELECT ${columns} FROM json_each(?) k
          JOIN posts p ON p.translation_key = k.value ->> 'translationKey' AND p.language = k.value ->> 'language'`,
      )
      .iterate(JSON.stringify(only.idNums), JSON.stringify(only.groups)) as Iterable<PostKey>;
  }

  async pageSlugs(): Promise<string[]> {
    const db = this.#db;
    if (!db || !hasTable(db, "pages")) return [];
    return db.prepare("SELECT slug FROM pages").pluck().all() as string[];
  }

  async transaction<T>(
    options: { incoming: { has(key: string): boolean }; dryRun?: boolean },
    write: (writer: AsyncContentWriter, sync: SyncTarget) => Promise<T>,
  ): Promise<T> {
    if (options.dryRun ?? this.#dryRun) return this.#dryRunWith(options.incoming, write);
    const created = this.#db === null;
    const db = this.#db ?? openDatabase(this.#url).db;
    this.#db = db;
    let committed = false;
    try {
      migrate(db);
      const target = new SqliteWriteTarget(db, { deferIndexes: true });
      const writer = new AsyncContentWriter(target, { incoming: options.incoming });
      const result = await inWriteTransactionAsync(db, async () => {
        const written = await write(writer, new SqliteSyncTarget(db, writer.changes));
        await writer.finish();
        target.finishLoad();
        return written;
      });
      committed = true;
      const changes = writer.changes.records();
      if (changes.length) await this.#afterCommit?.(changes);
      return result;
    } finally {
      shrinkWal(db);
      // A database file this failed write created holds nothing: leave no trace of it.
      if (created && !committed && this.#file !== ":memory:") {
        db.close();
        this.#db = null;
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${this.#file}${suffix}`, { force: true });
      }
    }
  }

  /** The writer's outcomes against the database as it is (or an empty one), writing nothing. */
  async #dryRunWith<T>(
    incoming: { has(key: string): boolean },
    write: (writer: AsyncContentWriter, sync: SyncTarget) => Promise<T>,
  ): Promise<T> {
    const existing = this.#db && hasTable(this.#db, "posts") ? this.#db : null;
    const db = existing ?? emptyDatabase();
    try {
      const writer = new AsyncContentWriter(new SqliteWriteTarget(db), { incoming, dryRun: true });
      const result = await write(writer, new SqliteSyncTarget(db, writer.changes));
      await writer.finish();
      return result;
    } finally {
      if (!existing) db.close();
    }
  }

  /**
   * Takes one post off the site in one write transaction on an existing
   * database (`remove` runs the statement): what showed it, if it was
   * published, is recorded in the change log and purged after the commit.
   * False when there is no such post.
   */
  async #remove(
    language: Language,
    slug: string,
    onlyPublished: boolean,
    remove: (db: Db, id: number) => void,
  ) {
    const db = this.#db;
    if (!db || !hasTable(db, "posts")) return false;
    if (this.#dryRun) throw new Error("this ContentWrites was opened for a dry run");
    migrate(db);
    let changes: ContentChange[] = [];
    try {
      const found = inWriteTransaction(db, () => {
        const row = db
          .prepare<[string, string], { id: number; status: string; personId: number | null }>(
            "SELECT id, status, person_id AS personId FROM posts WHERE language = ? AND slug = ?",
          )
          .get(language, slug.normalize("NFC"));
        if (!row || (onlyPublished && row.status !== "publish")) return false;
        const target = new SqliteWriteTarget(db);
        if (row.status === "publish") {
          changes = recordRemovalSync(target, { ...row, language, slug: slug.normalize("NFC") });
        }
        remove(db, row.id);
        target.unindexPost(row.id);
        return true;
      });
      if (changes.length) await this.#afterCommit?.(changes);
      return found;
    } finally {
      shrinkWal(db);
    }
  }

  unpublishPost(language: Language, slug: string): Promise<boolean> {
    return this.#remove(language, slug, true, (db, id) => {
      db.prepare("UPDATE posts SET status = 'draft', updated_at = unixepoch() WHERE id = ?").run(id);
    });
  }

  deletePost(language: Language, slug: string): Promise<boolean> {
    return this.#remove(language, slug, false, (db, id) => {
      db.prepare("DELETE FROM posts WHERE id = ?").run(id);
    });
  }

  async close(): Promise<void> {
    this.#db?.close();
    this.#db = null;
  }
}

/**
 * The `sukti` command's writes to a SQLite file. An existing file that this
 * user cannot write is refused here, in one line (WritesRefusedError); a
 * missing one is created and migrated by the first transaction, and removed
 * again if that transaction fails. With `dryRun`, the file is only read (a
 * missing one reads as an empty database) and nothing is written.
 */
export async function openSqliteWrites(
  databaseUrl: string,
  options: { dryRun?: boolean; afterCommit?: AfterCommit } = {},
): Promise<ContentWrites> {
  return new SqliteWrites(databaseUrl, options.dryRun ?? false, options.afterCommit);
}
