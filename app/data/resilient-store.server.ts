import { statSync } from "node:fs";
import { databasePath, migrate, openDatabase } from "#app/data/db.server.ts";
import { SqliteContentStore } from "#app/data/sqlite.server.ts";
import type { ContentStore } from "#app/data/store.ts";

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
 * the file by itself once it is back.
 */
class ResilientSqlite {
  readonly #file: string;
  #inner: SqliteContentStore | null = null;
  #inode = -1;
  #checkedAt = 0;

  constructor(databaseUrl: string, inner: SqliteContentStore) {
    this.#file = databasePath(databaseUrl);
    this.#inner = inner;
    this.#inode = this.#statInode() ?? -1;
  }

  #statInode(): number | null {
    try {
      return statSync(this.#file).ino;
    } catch {
      return null;
    }
  }

  #drop() {
    const inner = this.#inner;
    this.#inner = null;
    void inner?.close().catch(() => {});
  }

  #current(): SqliteContentStore | null {
    const now = Date.now();
    if (now - this.#checkedAt < CHECK_INTERVAL_MS) return this.#inner;
    this.#checkedAt = now;
    const inode = this.#statInode();
    if (inode === null) {
      this.#drop();
      return null;
    }
    if (this.#inner && inode === this.#inode) return this.#inner;
    this.#drop();
    try {
      const { db } = openDatabase(`file:${this.#file}`);
      migrate(db);
      this.#inner = new SqliteContentStore(db);
      this.#inode = inode;
    } catch {
      this.#inner = null;
    }
    return this.#inner;
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

  contentVersion(): string | null {
    const store = this.#current();
    return store ? `${this.#inode}:${store.contentVersion()}` : null;
  }

  /** Calls a read of the underlying store through the health checks above. */
  call(method: keyof ContentStore, args: unknown[]): Promise<unknown> {
    return this.#use((store) => (store[method] as (...a: unknown[]) => Promise<unknown>).apply(store, args));
  }

  async close(): Promise<void> {
    await this.#inner?.close();
    this.#inner = null;
  }
}

export type ResilientSqliteStore = ContentStore & { contentVersion(): string | null };

/**
 * Wraps a SQLite store so every ContentStore read (present and future) goes
 * through the health checks, without listing them here.
 */
export function resilientSqliteStore(databaseUrl: string, inner: SqliteContentStore): ResilientSqliteStore {
  const target = new ResilientSqlite(databaseUrl, inner);
  return new Proxy(target, {
    get(self, property) {
      if (property === "ping" || property === "close" || property === "contentVersion") {
        const own = self[property];
        return own.bind(self);
      }
      return (...args: unknown[]) => self.call(property as keyof ContentStore, args);
    },
  }) as unknown as ResilientSqliteStore;
}
