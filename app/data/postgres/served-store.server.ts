// The store the server holds on DATABASE_URL=postgres://…: the reads of
// ./reads.server.ts over a pool, the content version of ./version.server.ts,
// and the health the server acts on. Opening it migrates the database and
// seeds the demo content when it holds no post, under an advisory lock, so
// several nodes starting together migrate and seed once.
//
// While the database is unreachable, ping() is false (the server answers
// 503), reads reject with PostgresUnavailableError and contentVersion() is
// null (no page is cached). Nothing has to be reopened when it is back: the
// pool connects anew, the LISTEN client reconnects at the next poll.
import type pg from "pg";
import { type ChangesSince, changesAfter, MAX_CHANGES_READ } from "#app/data/cache-tags.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import {
  describeConnectionError,
  describePostgresUrl,
  isUnavailable,
  PostgresUnavailableError,
} from "#app/data/postgres/errors.server.ts";
import { preparePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool, endPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { type ContentVersion, watchContentVersion } from "#app/data/postgres/version.server.ts";
import { guardedReads, type ReadName, type ServedStore } from "#app/data/store.ts";

export { describePostgresUrl, PostgresUnavailableError };

/** Connections per process. */
const POOL_SIZE = 10;
/** A host that does not answer fails a connection attempt (and start-up) after this long. */
const CONNECT_TIMEOUT_MS = 5000;
/** The server cancels a read running longer than this (no read of the site takes near it). */
const READ_TIMEOUT_MS = 10_000;
/** ping() asks the database at most this often; between asks it answers what it last learnt. */
const PING_INTERVAL_MS = 250;
/** A ping the database does not answer within this long counts as down. */
const PING_TIMEOUT_MS = 1000;
/** health() reads the tables at most this often; between reads it answers what it last found. */
const HEALTH_INTERVAL_MS = 1000;
/**
 * health(): the first row of every table the pages read, in one statement.
 * A table that is gone or cannot be read fails it.
 */
const HEALTH_SQL = `SELECT ${[
  "posts",
  "terms",
  "post_terms",
  "pages",
  "people",
  "person_keys",
  "search_documents",
  "search_skeletons",
  "search_words",
  "search_word_trigrams",
  "content_version",
  "schema_migrations",
]
  .map((table) => `(SELECT 1 FROM ${table} LIMIT 1)`)
  .join(", ")}`;
/** close() gives up waiting for connections after this long. */
const CLOSE_TIMEOUT_MS = 3000;

function delay<T>(ms: number, value: T): { promise: Promise<T>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), ms);
    timer.unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

class PostgresHealth {
  readonly #pool: pg.Pool;
  /**
   * ping() asks on a connection of its own: through the reads' pool it waited
   * behind them, and a burst of requests on a busy machine (every connection
   * at work) counted as the database down (a 503 in draft-invariance.test.ts).
   */
  readonly #pingPool: pg.Pool;
  readonly #pings: PostgresContentStore;
  readonly #reads: PostgresContentStore;
  readonly #version: ContentVersion;
  #up = true;
  #checkedAt = Date.now();
  #checking: Promise<boolean> | null = null;
  #closing: Promise<void> | null = null;
  #healthAt = -Infinity;
  #health: Promise<string | null> = Promise.resolve(null);

  constructor(pool: pg.Pool, pingPool: pg.Pool, version: ContentVersion) {
    this.#pool = pool;
    this.#reads = new PostgresContentStore(pool);
    this.#pingPool = pingPool;
    this.#pings = new PostgresContentStore(pingPool);
    this.#version = version;
  }

  async ping(): Promise<boolean> {
    if (this.#closing) return false;
    if (Date.now() - this.#checkedAt < PING_INTERVAL_MS) return this.#up;
    this.#checking ??= this.#check().finally(() => {
      this.#checking = null;
    });
    return this.#checking;
  }

  async #check(): Promise<boolean> {
    const timeout = delay(PING_TIMEOUT_MS, false);
    const up = await Promise.race([this.#pings.ping(), timeout.promise]);
    timeout.cancel();
    this.#up = up;
    this.#checkedAt = Date.now();
    return up;
  }

  /** Whether the site can serve its pages: ping, then a read of every table the pages use. */
  async health(): Promise<string | null> {
    if (!(await this.ping())) return "the database is unavailable";
    const now = Date.now();
    if (now - this.#healthAt >= HEALTH_INTERVAL_MS) {
      this.#healthAt = now;
      this.#health = this.#readTables();
    }
    return this.#health;
  }

  async #readTables(): Promise<string | null> {
    const timeout = delay(PING_TIMEOUT_MS, "the database did not answer within a second");
    try {
      return await Promise.race([
        this.#pool.query(HEALTH_SQL).then(
          () => null,
          (error: Error) => error.message,
        ),
        timeout.promise,
      ]);
    } finally {
      timeout.cancel();
    }
  }

  #down(): void {
    this.#up = false;
    this.#checkedAt = Date.now();
  }

  contentVersion(): string | null {
    return this.#up && !this.#closing ? this.#version.current() : null;
  }

  async read(name: ReadName, args: unknown[]): Promise<unknown> {
    // Known down: fail at once rather than wait for a connection attempt.
    if (!this.#up && !(await this.ping())) throw new PostgresUnavailableError();
    try {
      return await (this.#reads[name] as (...a: unknown[]) => Promise<unknown>).apply(this.#reads, args);
    } catch (error) {
      if (this.#closing || isUnavailable(error)) {
        this.#down();
        throw new PostgresUnavailableError(error);
      }
      throw error;
    }
  }

  /** The change log since the cursor (a seq), decision 057; null starts at its end. */
  async changesSince(cursor: string | null): Promise<ChangesSince> {
    const end = async () => {
      const { rows } = await this.#pool.query<{ last: string }>({
        name: "sukti_changes_end",
        text: "SELECT coalesce(max(seq), 0) AS last FROM content_changes",
      });
      return String(rows[0]?.last ?? 0);
    };
    try {
      if (cursor === null) return { cursor: await end(), changes: [] };
      const since = Number(cursor);
      const { rows } = await this.#pool.query<{ seq: string; tags: string; removal: boolean }>({
        name: "sukti_changes_since",
        text: `SELECT seq, tags, removal FROM content_changes WHERE seq > $1 ORDER BY seq LIMIT ${MAX_CHANGES_READ + 1}`,
        values: [since],
      });
      const changes = changesAfter(since, rows);
      const last = changes === null ? await end() : String(rows.at(-1)?.seq ?? since);
      return { cursor: last, changes };
    } catch (error) {
      if (this.#closing || isUnavailable(error)) {
        this.#down();
        throw new PostgresUnavailableError(error);
      }
      throw error;
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      const timeout = delay(CLOSE_TIMEOUT_MS, undefined);
      await Promise.all([
        Promise.race([
          this.#version.stop().catch(() => {
            // Closing goes on whether or not the watcher stopped cleanly.
          }),
          timeout.promise,
        ]),
        endPool(this.#pool, CLOSE_TIMEOUT_MS),
        endPool(this.#pingPool, CLOSE_TIMEOUT_MS),
      ]);
      timeout.cancel();
    })();
    return this.#closing;
  }
}

/**
 * Opens the PostgreSQL store at `databaseUrl`, migrated, and seeded with the
 * demo content when the database holds no post. A database that cannot be
 * reached or prepared throws an Error whose message is one line without the
 * password (e.g. "connection refused at 127.0.0.1:5433").
 */
export async function openPostgresStore(databaseUrl: string): Promise<ServedStore> {
  // Migrations and the seed run on a pool of their own, without the reads'
  // statement timeout (a migration on a large table may take longer).
  const setup = createPool(databaseUrl, { max: 1, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await preparePostgres(setup, readDemoContent);
  } catch (error) {
    throw new Error(describeConnectionError(error, databaseUrl));
  } finally {
    await endPool(setup, CLOSE_TIMEOUT_MS);
  }

  const pool = createPool(databaseUrl, {
    max: POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statementTimeoutMillis: READ_TIMEOUT_MS,
  });
  const pingPool = createPool(databaseUrl, {
    max: 1,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statementTimeoutMillis: READ_TIMEOUT_MS,
  });
  let health: PostgresHealth;
  try {
    const version = await watchContentVersion(databaseUrl, pool, { pollMs: 500 });
    health = new PostgresHealth(pool, pingPool, version);
  } catch (error) {
    await Promise.all([endPool(pool, CLOSE_TIMEOUT_MS), endPool(pingPool, CLOSE_TIMEOUT_MS)]);
    throw new Error(describeConnectionError(error, databaseUrl));
  }

  return {
    ...guardedReads((name, args) => health.read(name, args)),
    ping: () => health.ping(),
    health: () => health.health(),
    close: () => health.close(),
    contentVersion: () => health.contentVersion(),
    changesSince: (cursor) => health.changesSince(cursor),
    readOnlyReason: null,
  };
}
