// The content version every node's page cache keys on. Every write
// transaction bumps content_version and sends NOTIFY sukti_content
// (./transaction.server.ts); each node LISTENs on a client of its own and also
// reads the row every ~500 ms, so a lost notification or a lost LISTEN
// connection costs at most one poll. current() is synchronous and cheap: the
// cached value, or null while the database cannot be reached.
import type pg from "pg";
import { createClient } from "#app/data/postgres/pool.server.ts";
import { CONTENT_CHANNEL } from "#app/data/postgres/transaction.server.ts";

export interface ContentVersion {
  /** The latest version seen; null while the database is unreachable. */
  current(): string | null;
  stop(): Promise<void>;
}

export interface VersionOptions {
  /** How often the row is read (ms). */
  pollMs?: number;
  /** After this long without a successful read, the database counts as unreachable (ms). */
  staleMs?: number;
}

class PostgresContentVersion implements ContentVersion {
  readonly #url: string;
  readonly #pool: pg.Pool;
  readonly #pollMs: number;
  readonly #staleMs: number;
  #value: string | null = null;
  #okAt = 0;
  #listener: pg.Client | null = null;
  #connecting = false;
  #polling = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(url: string, pool: pg.Pool, options: VersionOptions) {
    this.#url = url;
    this.#pool = pool;
    this.#pollMs = options.pollMs ?? 500;
    this.#staleMs = options.staleMs ?? Math.max(2000, 4 * this.#pollMs);
  }

  current(): string | null {
    if (this.#value === null || Date.now() - this.#okAt > this.#staleMs) return null;
    return this.#value;
  }

  async start(): Promise<void> {
    await Promise.all([this.#poll(), this.#listen()]);
    this.#timer = setInterval(() => {
      void this.#poll();
      if (!this.#listener) void this.#listen();
    }, this.#pollMs);
    this.#timer.unref();
  }

  #seen(version: string, fromPoll: boolean): void {
    // A notification only moves forward; a read of the row is the truth.
    if (fromPoll || this.#value === null || Number(version) > Number(this.#value)) this.#value = version;
    this.#okAt = Date.now();
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#stopped) return;
    this.#polling = true;
    try {
      const { rows } = await this.#pool.query<{ version: number }>({
        name: "sukti_content_version",
        text: "SELECT version FROM content_version WHERE id = 1",
      });
      if (rows[0]) this.#seen(String(rows[0].version), true);
    } catch {
      this.#value = null;
    } finally {
      this.#polling = false;
    }
  }

  async #listen(): Promise<void> {
    if (this.#connecting || this.#stopped) return;
    this.#connecting = true;
    const client = createClient(this.#url);
    const drop = () => {
      if (this.#listener === client) this.#listener = null;
      client.end().catch(() => {
        // The connection is being dropped: an error ending it changes nothing.
      });
    };
    client.on("error", drop);
    client.on("end", drop);
    client.on("notification", (message) => {
      if (message.channel === CONTENT_CHANNEL && message.payload) this.#seen(message.payload, false);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CONTENT_CHANNEL}`);
      if (this.#stopped) drop();
      else this.#listener = client;
    } catch {
      drop();
    } finally {
      this.#connecting = false;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    const listener = this.#listener;
    this.#listener = null;
    await listener?.end().catch(() => {
      // Stopping goes on even if the listener's connection is already broken.
    });
  }
}

/** Starts watching the content version of the database at `url` (reads go through `pool`). */
export async function watchContentVersion(
  url: string,
  pool: pg.Pool,
  options: VersionOptions = {},
): Promise<ContentVersion> {
  const version = new PostgresContentVersion(url, pool, options);
  await version.start();
  return version;
}
