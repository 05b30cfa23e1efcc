// The SQLite store the server holds: the reads of ./reads.server.ts behind
// health checks (a file that disappears, is replaced or fails with I/O errors
// answers 503 and is reopened by itself), the content version the page cache
// keys on, and the read-only fallbacks of ./database.server.ts.
import { type Stats, statSync } from "node:fs";
import { readDemoContent } from "#app/data/demo.server.ts";
import { databasePath, type OpenedDb, openMigratedDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/writes.server.ts";
import { guardedReads, type ReadName, type ServedStore } from "#app/data/store.ts";

export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("the database is unavailable", { cause });
  }
}

const CHECK_INTERVAL_MS = 250;
const BROKEN_CODES = /^SQLITE_(IOERR|CORRUPT|NOTADB|CANTOPEN|READONLY_DBMOVED|FULL)/;

/**
 * A SQLite store that notices when its file disappears, is replaced or fails
 * with I/O errors, reports itself down (the server answers 503), and reopens
 * the file by itself once it is back. A database it can only read (see
 * openDatabase) is served as it is, and says so.
 */
class ResilientSqlite {
  readonly #file: string;
  #inner: SqliteContentStore | null = null;
  #readOnly: string | null = null;
  #inMemoryCopy = false;
  /** The file the open store was read from (see #identity). */
  #source: string | null = null;
  /** Counts reopens: part of the content version, so pages cached before a reopen are not served after it. */
  #generation = 0;
  #checkedAt = 0;
  /** This event-loop turn's content version (see contentVersion). */
  #version: string | null | undefined = undefined;

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
    this.#readOnly = readOnly;
    this.#inMemoryCopy = db.memory;
    this.#source = stats && this.#identity(stats);
  }

  #drop() {
    const inner = this.#inner;
    this.#inner = null;
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
      if (BROKEN_CODES.test((error as { code?: string }).code ?? "")) {
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
    close: () => target.close(),
    contentVersion: () => target.contentVersion(),
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
 * (`readOnlyReason` on the store), unless it needs a migration.
 */
export function openSqliteStore(databaseUrl: string): ResilientSqliteStore {
  const opened = openMigratedDatabase(databaseUrl);
  try {
    if (opened.created) writeContent(opened.db, readDemoContent());
  } catch (error) {
    opened.db.close();
    throw error;
  }
  return resilientSqliteStore(databaseUrl, opened);
}
