// The SQLite store the server holds: the reads of ./reads.server.ts behind
// health checks (a file that disappears, is replaced or fails with I/O errors
// answers 503 and is reopened by itself), the content version the page cache
// keys on, and the read-only fallbacks of ./database.server.ts.
import { type Stats, statSync } from "node:fs";
import Database from "better-sqlite3";
import type { ChangesSince } from "#app/data/cache-tags.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import {
  type Db,
  databasePath,
  type OpenedDb,
  openMigratedDatabase,
  readEveryTree,
} from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { guardedReads, type ReadName, type ServedStore } from "#app/data/store.ts";

export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("the database is unavailable", { cause });
  }
}

const CHECK_INTERVAL_MS = 250;
const BROKEN_CODES = /^SQLITE_(IOERR|CORRUPT|NOTADB|CANTOPEN|READONLY_DBMOVED|FULL)/;
/** A file with a bad page stays bad until it is replaced: these mark it so. */
const CORRUPT_CODES = /^SQLITE_(CORRUPT|NOTADB)/;
/** The tables the pages read: health() fails when one is missing. */
const PAGE_TABLES = [
  "posts",
  "terms",
  "post_terms",
  "pages",
  "people",
  "person_keys",
  "search_documents",
  "search_skeletons",
  "search_words",
  "search_words_trigram",
  "search_index",
  "schema_migrations",
];
/** health() reads the file at most this often; between reads it answers what it last found. */
const HEALTH_INTERVAL_MS = 1000;

function sqliteCode(error: unknown): string {
  return (error as { code?: unknown }).code?.toString() ?? "";
}

/**
 * A SQLite store that notices when its file disappears, is replaced or fails
 * with I/O errors, reports itself down (the server answers 503), and reopens
 * the file by itself once it is back. A database it can only read (see
 * openDatabase) is served as it is, and says so.
 */
class ResilientSqlite {
  readonly #file: string;
  #inner: SqliteContentStore | null = null;
  #db: Db | null = null;
  #readOnly: string | null = null;
  #inMemoryCopy = false;
  /** The file the open store was read from (see #identity). */
  #source: string | null = null;
  /** Counts reopens: part of the content version, so pages cached before a reopen are not served after it. */
  #generation = 0;
  #checkedAt = 0;
  /** This event-loop turn's content version (see contentVersion). */
  #version: string | null | undefined = undefined;
  /** The identity (#identity) of a file a read found corrupt, and what it said. */
  #corrupt: { source: string | null; problem: string } | null = null;
  #healthAt = -Infinity;
  #health: string | null = null;

  constructor(databaseUrl: string, opened: OpenedDb) {
    this.#file = databasePath(databaseUrl);
    this.#adopt(opened, this.#stat());
  }

  #stat(): Stats | null {
    try {
      return statSync(this.#file);
    } catch {
      return null;
    }
  }

  /**
   * A connection to the file follows every change to it, so it is stale only
   * when the file is replaced (a new inode); a copy in memory is stale as
   * soon as the file is written.
   */
  #identity(stats: Stats): string {
    return this.#inMemoryCopy ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : String(stats.ino);
  }

  #adopt({ db, readOnly }: OpenedDb, stats: Stats | null) {
    this.#inner = new SqliteContentStore(db);
    this.#db = db;
    this.#readOnly = readOnly;
    this.#inMemoryCopy = db.memory;
    this.#source = stats && this.#identity(stats);
  }

  #drop() {
    const inner = this.#inner;
    this.#inner = null;
    this.#db = null;
    void inner?.close().catch(() => {
      // The old store is no longer used: an error closing it affects nothing.
    });
  }

  #current(): SqliteContentStore | null {
    const now = Date.now();
    if (now - this.#checkedAt < CHECK_INTERVAL_MS) return this.#inner;
    this.#checkedAt = now;
    const stats = this.#stat();
    if (stats === null) {
      this.#drop();
      return null;
    }
    if (this.#inner && this.#identity(stats) === this.#source) return this.#inner;
    this.#drop();
    try {
      this.#adopt(openMigratedDatabase(`file:${this.#file}`), stats);
      this.#generation++;
    } catch {
      this.#inner = null;
      this.#db = null;
    }
    return this.#inner;
  }

  /** Why the database is served read-only (e.g. "the disk is full"); null when it is writable. */
  get readOnlyReason(): string | null {
    return this.#readOnly;
  }

  get readOnly(): boolean {
    return this.#readOnly !== null;
  }

  async #use<T>(read: (store: SqliteContentStore) => Promise<T>): Promise<T> {
    const store = this.#current();
    if (!store) throw new StoreUnavailableError();
    try {
      return await read(store);
    } catch (error) {
      const code = sqliteCode(error);
      if (CORRUPT_CODES.test(code))
        this.#corrupt = { source: this.#source, problem: (error as Error).message };
      if (BROKEN_CODES.test(code)) {
        this.#drop();
        this.#checkedAt = 0;
        throw new StoreUnavailableError(error);
      }
      throw error;
    }
  }

  async ping(): Promise<boolean> {
    // Between file checks, a store that answered its last read is up.
    if (this.#inner && Date.now() - this.#checkedAt < CHECK_INTERVAL_MS) return true;
    try {
      return await this.#use((store) => store.ping());
    } catch {
      return false;
    }
  }

  /**
   * Whether the site can serve its pages: null, or what stops it. The file
   * answers (ping), no read has found it corrupt since it was last replaced,
   * and the first row of every table and index can be read from the file
   * itself: on a connection of its own, since the server's connection keeps
   * the pages it has read in memory and would not see a page gone bad on
   * disk. At most once a second.
   */
  async health(): Promise<string | null> {
    if (!(await this.ping())) return "the database is unavailable";
    const now = Date.now();
    if (now - this.#healthAt < HEALTH_INTERVAL_MS) return this.#health;
    this.#healthAt = now;
    this.#health = this.#checkHealth();
    return this.#health;
  }

  #checkHealth(): string | null {
    if (this.#corrupt && this.#corrupt.source === this.#source)
      return `a read found the file corrupt: ${this.#corrupt.problem}`;
    this.#corrupt = null;
    let own = false;
    let db: Db | null = null;
    try {
      if (this.#inMemoryCopy) own = true;
      else {
        try {
          db = new Database(this.#file, { readonly: true, fileMustExist: true });
        } catch (error) {
          // Read-only media without the -shm file: the server's own connection is all there is.
          if (!/^SQLITE_(READONLY|CANTOPEN)/.test(sqliteCode(error)) || !this.#db) throw error;
          own = true;
        }
      }
      const target = own ? this.#db : db;
      if (!target) return "the database is unavailable";
      readEveryTree(target, PAGE_TABLES);
      return null;
    } catch (error) {
      const problem = (error as Error).message;
      if (CORRUPT_CODES.test(sqliteCode(error))) this.#corrupt = { source: this.#source, problem };
      return problem;
    } finally {
      db?.close();
    }
  }

  /**
   * Read once per event-loop turn: the requests that arrive together share
   * one read (a cached page then costs no database work of its own), and a
   * write committed elsewhere shows from the next turn.
   */
  contentVersion(): string | null {
    if (this.#version !== undefined) return this.#version;
    const store = this.#current();
    this.#version = store ? `${this.#generation}:${store.contentVersion()}` : null;
    setImmediate(() => {
      this.#version = undefined;
    });
    return this.#version;
  }

  /**
   * The change log since the cursor (decision 057). The cursor holds the
   * file's generation and the count of writes from outside sukti: a file
   * replaced or written by hand cannot say what changed (changes: null).
   */
  changesSince(cursor: string | null): Promise<ChangesSince> {
    return this.#use(async (store) => {
      const [generation, external, seq] = (cursor ?? "").split(":").map(Number);
      const same = cursor !== null && generation === this.#generation;
      const log = store.changeLog(same && seq !== undefined ? seq : null);
      const next = `${this.#generation}:${log.external}:${log.last}`;
      if (!same || external !== log.external) return { cursor: next, changes: cursor === null ? [] : null };
      return { cursor: next, changes: log.changes };
    });
  }

  /** Calls a read of the underlying store through the health checks above. */
  call(method: ReadName, args: unknown[]): Promise<unknown> {
    return this.#use((store) => (store[method] as (...a: unknown[]) => Promise<unknown>).apply(store, args));
  }

  async close(): Promise<void> {
    await this.#inner?.close();
    this.#inner = null;
  }
}

export type ResilientSqliteStore = ServedStore & {
  /** True when the database can only be read: the server then logs readOnlyReason once. */
  readonly readOnly: boolean;
};

/**
 * Wraps a SQLite store so every ContentStore read goes through the health
 * checks. A plain object (no Proxy): `await store` resolves to the store, as
 * with any object that has no `then`.
 */
function resilientSqliteStore(databaseUrl: string, opened: OpenedDb): ResilientSqliteStore {
  const target = new ResilientSqlite(databaseUrl, opened);
  return {
    ...guardedReads((name, args) => target.call(name, args)),
    ping: () => target.ping(),
    health: () => target.health(),
    close: () => target.close(),
    contentVersion: () => target.contentVersion(),
    changesSince: (cursor) => target.changesSince(cursor),
    get readOnly() {
      return target.readOnly;
    },
    get readOnlyReason() {
      return target.readOnlyReason;
    },
  };
}

/**
 * The SQLite store the server reads, prepared: a missing file is created,
 * migrated and filled with the demo content; an existing one is only
 * migrated, never reseeded. One that can only be read is served as it is
 * (`readOnlyReason` on the store), unless it needs a migration. With
 * `integrityCheck` (the server's start), a file that fails SQLite's
 * quick_check is refused before anything is written to it.
 */
export function openSqliteStore(
  databaseUrl: string,
  options: { integrityCheck?: boolean } = {},
): ResilientSqliteStore {
  const opened = openMigratedDatabase(databaseUrl, options);
  try {
    if (opened.created) writeContent(opened.db, readDemoContent());
  } catch (error) {
    opened.db.close();
    throw error;
  }
  return resilientSqliteStore(databaseUrl, opened);
}
