// Where the daily quote's push subscriptions, VAPID keys and send log are
// kept (decision 060). On SQLite, a file of its own beside the
// site's (data/sukti.db → data/sukti-push.db): a commit to the site's file
// changes its PRAGMA data_version, the content version every page cache keys
// on. On PostgreSQL, tables of the site's database (its content version is a
// counter only content writes bump). Both run the same SQL through a small
// query seam (`?` placeholders, numbered for PostgreSQL).
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Language } from "#app/content/languages.ts";
import { isPostgresUrl } from "#app/data/open-store.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { databasePath, migrate, pendingMigrations } from "#app/data/sqlite/database.server.ts";

export interface VapidKeys {
  /** base64url, the uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url, the private scalar (32 bytes). */
  privateKey: string;
}

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  language: Language;
  hour: number;
  timeZone: string;
}

export interface StoredSubscription extends NewSubscription {
  id: number;
}

/** A send still to be retried, with its subscription. */
export interface RetryItem extends StoredSubscription {
  slot: string;
  runId: number;
  attempts: number;
}

export type SendState = "sending" | "sent" | "retry" | "failed";

export interface PushRun {
  id: number;
  kind: "scheduled" | "manual";
  language: Language | "";
  lastSubscription: number;
  state: "running" | "done" | "interrupted";
  startedAt: number;
  heartbeatAt: number;
  finishedAt: number | null;
  sent: number;
  removed: number;
  retried: number;
  failed: number;
}

export type RunCounts = Partial<Pick<PushRun, "sent" | "removed" | "retried" | "failed">>;

export interface PushStore {
  /** Where it is, for messages (no password). */
  readonly description: string;
  /** The key pair: the stored one, else `make()`'s, stored (two starting together end with one). */
  keys(make: () => VapidKeys): Promise<VapidKeys>;
  /**
   * Stores a subscription, or updates the one with its endpoint; "full" when
   * `max` are stored, "capped" when it is new and `mayCreate` is false.
   */
  subscribe(
    subscription: NewSubscription,
    day: string,
    max: number,
    mayCreate?: boolean,
  ): Promise<"created" | "updated" | "full" | "capped">;
  /** Removes the subscription with this endpoint; whether there was one. */
  unsubscribe(endpoint: string): Promise<boolean>;
  remove(id: number): Promise<void>;
  count(): Promise<number>;
  /** Subscribers per language and hour. */
  summary(): Promise<{ language: Language; hour: number; count: number }[]>;
  /** The time zones subscribers are in. */
  zones(): Promise<string[]>;
  /** Subscribers in `zone` at `hour` with no send in `slot`, by id after `afterId`. */
  due(
    zone: string,
    hour: number,
    slot: string,
    afterId: number,
    limit: number,
  ): Promise<StoredSubscription[]>;
  /** A manual run's subscribers (language, or all; ids up to lastId) with no send in `slot`. */
  runMembers(
    language: Language | "",
    lastId: number,
    slot: string,
    afterId: number,
    limit: number,
  ): Promise<StoredSubscription[]>;
  /** Inserts the send row (state 'sending') before sending; false when one exists (never sent twice). */
  claim(subscriptionId: number, slot: string, runId: number, now: number): Promise<boolean>;
  /** Takes a 'retry' row back to 'sending'; false when another sender took it. */
  claimRetry(subscriptionId: number, slot: string, now: number): Promise<boolean>;
  /** Records how a send ended. */
  settle(
    subscriptionId: number,
    slot: string,
    state: SendState,
    nextAt: number | null,
    now: number,
  ): Promise<void>;
  /** Sends waiting to be retried whose time has come (of one run, or any). */
  dueRetries(now: number, limit: number, runId?: number): Promise<RetryItem[]>;
  /** How many sends of a run are still to be retried, and the soonest's time. */
  pendingRetries(runId: number): Promise<{ count: number; nextAt: number | null }>;
  startRun(kind: PushRun["kind"], language: Language | "", now: number): Promise<PushRun>;
  /** The newest manual run of `language` still marked running (interrupted, or still going elsewhere). */
  unfinishedRun(language: Language | ""): Promise<PushRun | null>;
  /** Manual runs marked running whose heartbeat is older than `before` (their sender died). */
  staleRuns(before: number): Promise<PushRun[]>;
  addToRun(runId: number, counts: RunCounts, now: number): Promise<void>;
  endRun(runId: number, state: "done" | "interrupted", now: number): Promise<void>;
  lastRun(): Promise<PushRun | null>;
  run(id: number): Promise<PushRun | null>;
  /** Takes or renews the sender's lease for `ms`; whether `holder` holds it. */
  lease(holder: string, now: number, ms: number): Promise<boolean>;
  releaseLease(holder: string): Promise<void>;
  /** Drops send rows and finished runs older than `before` (a day's slot is never reused). */
  prune(before: number): Promise<void>;
  close(): Promise<void>;
}

export function pushMigrationsDir(): string {
  return path.join(projectRoot(), "db", "push-migrations");
}

/**
 * The push database for a site's DATABASE_URL: on PostgreSQL, the site's
 * database; on SQLite, a file beside the site's ("-push" before its
 * extension); in memory for an in-memory site.
 */
export function pushDatabaseUrl(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) return databaseUrl;
  const file = databasePath(databaseUrl);
  if (file === ":memory:") return file;
  const ext = path.extname(file);
  return `file:${file.slice(0, file.length - ext.length)}-push${ext || ".db"}`;
}

/** The rows' query seam: `?` placeholders; rows as objects. */
interface Sql {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  close(): Promise<void>;
}

export async function openPushStore(
  url: string,
  options: { create?: boolean } = {},
): Promise<PushStore | null> {
  if (isPostgresUrl(url)) return storeOn(await postgresSql(url), url.replace(/\/\/[^@/]*@/, "//"));
  const sql = sqliteSql(url, options.create ?? true);
  return sql ? storeOn(sql, databasePath(url)) : null;
}

function sqliteSql(url: string, create: boolean): Sql | null {
  const file = databasePath(url);
  if (file !== ":memory:" && !existsSync(file)) {
    if (!create) return null;
    mkdirSync(path.dirname(file), { recursive: true });
  }
  // Writes are a row or two: a short busy wait beside another worker's.
  const db = new Database(file, { timeout: 2000 });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    try {
      migrate(db, pushMigrationsDir());
    } catch (error) {
      // Two processes starting together: the other applied it first.
      if (pendingMigrations(db, pushMigrationsDir()).length > 0) throw error;
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    all: async <T>(sql: string, params: unknown[] = []) => prepared(sql).all(...params) as T[],
    run: async (sql, params = []) => prepared(sql).run(...params).changes,
    close: async () => {
      db.close();
    },
  };
}

async function postgresSql(url: string): Promise<Sql> {
  const { createPool, endPool } = await import("#app/data/postgres/pool.server.ts");
  const { migratePostgres } = await import("#app/data/postgres/migrate.server.ts");
  const pool = createPool(url, { max: 4, statementTimeoutMillis: 10_000 });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await endPool(pool);
    throw error;
  }
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await pool.query(numbered(sql), params)).rows as T[],
    run: async (sql, params = []) => (await pool.query(numbered(sql), params)).rowCount ?? 0,
    close: () => endPool(pool),
  };
}

const SUBSCRIPTION_COLUMNS =
  's.id, s.endpoint, s.p256dh, s.auth, s.language, s.hour, s.time_zone AS "timeZone"';
const RUN_COLUMNS = `id, kind, language, last_subscription AS "lastSubscription", state,
  started_at AS "startedAt", heartbeat_at AS "heartbeatAt", finished_at AS "finishedAt",
  sent, removed, retried, failed`;

function storeOn(sql: Sql, description: string): PushStore {
  const oneRun = async (query: string, params: unknown[]) =>
    (await sql.all<PushRun>(query, params))[0] ?? null;
  return {
    description,
    keys: async (make) => {
      const read = () =>
        sql.all<VapidKeys>(
          'SELECT public_key AS "publicKey", private_key AS "privateKey" FROM push_keys WHERE id = 1',
        );
      const [stored] = await read();
      if (stored) return stored;
      const made = make();
      await sql.run(
        "INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
        [made.publicKey, made.privateKey, Date.now()],
      );
      const [kept] = await read();
      if (!kept) throw new Error("the VAPID key pair could not be stored");
      return kept;
    },
    subscribe: async (s, day, max, mayCreate = true) => {
      const updated = await sql.run(
        "UPDATE push_subscriptions SET p256dh = ?, auth = ?, language = ?, hour = ?, time_zone = ? WHERE endpoint = ?",
        [s.p256dh, s.auth, s.language, s.hour, s.timeZone, s.endpoint],
      );
      if (updated > 0) return "updated";
      if (!mayCreate) return "capped";
      const [row] = await sql.all<{ n: number }>("SELECT count(*) AS n FROM push_subscriptions");
      if (Number(row?.n ?? 0) >= max) return "full";
      const inserted = await sql.run(
        `INSERT INTO push_subscriptions (endpoint, p256dh, auth, language, hour, time_zone, created_day)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh,
           auth = excluded.auth, language = excluded.language, hour = excluded.hour, time_zone = excluded.time_zone`,
        [s.endpoint, s.p256dh, s.auth, s.language, s.hour, s.timeZone, day],
      );
      return inserted > 0 ? "created" : "updated";
    },
    unsubscribe: async (endpoint) =>
      (await sql.run("DELETE FROM push_subscriptions WHERE endpoint = ?", [endpoint])) > 0,
    remove: async (id) => {
      await sql.run("DELETE FROM push_subscriptions WHERE id = ?", [id]);
    },
    count: async () => {
      const [row] = await sql.all<{ n: number }>("SELECT count(*) AS n FROM push_subscriptions");
      return Number(row?.n ?? 0);
    },
    summary: async () =>
      (
        await sql.all<{ language: Language; hour: number; count: number }>(
          `SELECT language, hour, count(*) AS count FROM push_subscriptions
           GROUP BY language, hour ORDER BY language, hour`,
        )
      ).map((row) => ({ ...row, hour: Number(row.hour), count: Number(row.count) })),
    zones: async () =>
      (await sql.all<{ z: string }>("SELECT DISTINCT time_zone AS z FROM push_subscriptions")).map(
        (row) => row.z,
      ),
    due: (zone, hour, slot, afterId, limit) =>
      sql.all<StoredSubscription>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM push_subscriptions s
         WHERE s.time_zone = ? AND s.hour = ? AND s.id > ?
           AND NOT EXISTS (SELECT 1 FROM push_sends p WHERE p.subscription_id = s.id AND p.slot = ?)
         ORDER BY s.id LIMIT ?`,
        [zone, hour, afterId, slot, limit],
      ),
    runMembers: (language, lastId, slot, afterId, limit) =>
      sql.all<StoredSubscription>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM push_subscriptions s
         WHERE (? = '' OR s.language = ?) AND s.id > ? AND s.id <= ?
           AND NOT EXISTS (SELECT 1 FROM push_sends p WHERE p.subscription_id = s.id AND p.slot = ?)
         ORDER BY s.id LIMIT ?`,
        [language, language, afterId, lastId, slot, limit],
      ),
    claim: async (id, slot, runId, now) =>
      (await sql.run(
        `INSERT INTO push_sends (subscription_id, slot, run_id, state, attempts, updated_at)
         SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT), 'sending', 1, CAST(? AS BIGINT) FROM push_subscriptions WHERE id = ?
         ON CONFLICT (subscription_id, slot) DO NOTHING`,
        [slot, runId, now, id],
      )) > 0,
    claimRetry: async (id, slot, now) =>
      (await sql.run(
        `UPDATE push_sends SET state = 'sending', attempts = attempts + 1, next_at = NULL, updated_at = ?
         WHERE subscription_id = ? AND slot = ? AND state = 'retry'`,
        [now, id, slot],
      )) > 0,
    settle: async (id, slot, state, nextAt, now) => {
      await sql.run(
        "UPDATE push_sends SET state = ?, next_at = ?, updated_at = ? WHERE subscription_id = ? AND slot = ?",
        [state, nextAt, now, id, slot],
      );
    },
    dueRetries: (now, limit, runId) =>
      sql.all<RetryItem>(
        `SELECT ${SUBSCRIPTION_COLUMNS}, p.slot, p.run_id AS "runId", p.attempts
         FROM push_sends p JOIN push_subscriptions s ON s.id = p.subscription_id
         WHERE p.state = 'retry' AND p.next_at <= ? AND (? < 0 OR p.run_id = ?)
         ORDER BY p.next_at LIMIT ?`,
        [now, runId ?? -1, runId ?? -1, limit],
      ),
    pendingRetries: async (runId) => {
      const [row] = await sql.all<{ n: number; next: number | null }>(
        "SELECT count(*) AS n, min(next_at) AS next FROM push_sends WHERE run_id = ? AND state = 'retry'",
        [runId],
      );
      return { count: Number(row?.n ?? 0), nextAt: row?.next == null ? null : Number(row.next) };
    },
    startRun: async (kind, language, now) => {
      const [last] = await sql.all<{ id: number | null }>("SELECT max(id) AS id FROM push_subscriptions");
      const run = await oneRun(
        `INSERT INTO push_runs (kind, language, last_subscription, state, started_at, heartbeat_at)
         VALUES (?, ?, ?, 'running', ?, ?) RETURNING ${RUN_COLUMNS}`,
        [kind, language, Number(last?.id ?? 0), now, now],
      );
      if (!run) throw new Error("could not start a push run");
      return run;
    },
    unfinishedRun: (language) =>
      oneRun(
        `SELECT ${RUN_COLUMNS} FROM push_runs WHERE kind = 'manual' AND state = 'running' AND language = ?
         ORDER BY id DESC LIMIT 1`,
        [language],
      ),
    staleRuns: (before) =>
      sql.all<PushRun>(
        `SELECT ${RUN_COLUMNS} FROM push_runs WHERE state = 'running' AND heartbeat_at < ? ORDER BY id`,
        [before],
      ),
    addToRun: async (runId, counts, now) => {
      await sql.run(
        `UPDATE push_runs SET sent = sent + ?, removed = removed + ?, retried = retried + ?,
           failed = failed + ?, heartbeat_at = ? WHERE id = ?`,
        [counts.sent ?? 0, counts.removed ?? 0, counts.retried ?? 0, counts.failed ?? 0, now, runId],
      );
    },
    endRun: async (runId, state, now) => {
      await sql.run("UPDATE push_runs SET state = ?, finished_at = ?, heartbeat_at = ? WHERE id = ?", [
        state,
        now,
        now,
        runId,
      ]);
    },
    lastRun: () =>
      oneRun(
        `SELECT ${RUN_COLUMNS} FROM push_runs WHERE sent + removed + failed > 0 OR state = 'running'
         ORDER BY id DESC LIMIT 1`,
        [],
      ),
    run: (id) => oneRun(`SELECT ${RUN_COLUMNS} FROM push_runs WHERE id = ?`, [id]),
    lease: async (holder, now, ms) =>
      (await sql.run(
        `INSERT INTO push_lease (name, holder, expires_at) VALUES ('sender', ?, ?)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE push_lease.holder = excluded.holder OR push_lease.expires_at < ?`,
        [holder, now + ms, now],
      )) > 0,
    releaseLease: async (holder) => {
      await sql.run("DELETE FROM push_lease WHERE name = 'sender' AND holder = ?", [holder]);
    },
    prune: async (before) => {
      await sql.run("DELETE FROM push_sends WHERE updated_at < ? AND state <> 'retry'", [before]);
      await sql.run(
        `DELETE FROM push_runs WHERE state <> 'running' AND heartbeat_at < ?
           AND id < (SELECT max(id) FROM push_runs)`,
        [before],
      );
    },
    close: () => sql.close(),
  };
}
