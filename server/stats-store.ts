// Where the counts of server/stats.ts are kept (decision 056): the table
// stats_counts, written only by additive upserts (count = count + n), so every
// worker and every node adds its own. On SQLite the table lives in a file of
// its own beside the site's (data/sukti.db → data/sukti-stats.db): a commit to
// the site's file changes its PRAGMA data_version, the content version every
// page cache keys on. On PostgreSQL it is a table of the site's database: the
// content version there is a counter only content writes bump.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type pg from "pg";
import { isPostgresUrl } from "#app/data/open-store.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { databasePath, migrate, pendingMigrations } from "#app/data/sqlite/database.server.ts";

/** One count of one day (or of one month, rolled up). */
export interface StatRow {
  /** YYYY-MM-DD in the site's time zone (a month's first day once rolled up). */
  day: string;
  bot: 0 | 1;
  kind: string;
  /** english, hindi, marathi, or '' when the count has none. */
  language: string;
  item: string;
  count: number;
  /** Searches: how many quotes the text found. */
  results: number | null;
}

export interface StoredRow extends StatRow {
  period: "day" | "month";
}

export interface StatsStore {
  /** Where the counts are, for messages (no password). */
  readonly description: string;
  /**
   * Adds each row's count to what is stored. On failure, the error's
   * `written` (when set) says how many of the rows, from the first, were.
   */
  add(rows: readonly StatRow[]): Promise<void>;
  /**
   * Rolls the daily rows before `beforeDay` into monthly totals (searches, 404
   * paths and referrers lose their text: only their totals stay). Returns how
   * many daily rows were rolled up.
   */
  rollUp(beforeDay: string): Promise<number>;
  /** The rows from `fromDay` on (daily), and the monthly ones when `months`. */
  read(fromDay: string, options?: { months?: boolean }): Promise<StoredRow[]>;
  close(): Promise<void>;
}

/** Kinds whose text is dropped when rolled up: what readers typed, or what a stranger's link said. */
const TEXT_KINDS = "('search', 'not-found', 'referrer')";

const ROLL_UP_SELECT = `SELECT 'month', substr(day, 1, 7) || '-01', bot, kind, language,
    CASE WHEN kind IN ${TEXT_KINDS} THEN '' ELSE item END, sum(count), NULL
  FROM stats_counts WHERE period = 'day' AND day < $1
  GROUP BY substr(day, 1, 7), bot, kind, language, CASE WHEN kind IN ${TEXT_KINDS} THEN '' ELSE item END`;

const UPSERT_TAIL = `ON CONFLICT (period, day, bot, kind, language, item)
  DO UPDATE SET count = stats_counts.count + excluded.count`;

/** Rows written by one SQLite transaction: ~0.5 ms per 100 on a busy machine. */
const SLICE = 250;

export function statsMigrationsDir(): string {
  return path.join(projectRoot(), "db", "stats-migrations");
}

/**
 * The stats database for a site's DATABASE_URL: STATS_DATABASE_URL when set;
 * else, on PostgreSQL, the site's database; on SQLite, a file beside the
 * site's ("-stats" before its extension); in memory for an in-memory site.
 */
export function statsDatabaseUrl(databaseUrl: string, override?: string): string {
  if (override?.trim()) return override.trim();
  if (isPostgresUrl(databaseUrl)) return databaseUrl;
  const file = databasePath(databaseUrl);
  if (file === ":memory:") return file;
  const ext = path.extname(file);
  return `file:${file.slice(0, file.length - ext.length)}-stats${ext || ".db"}`;
}

export async function openStatsStore(
  url: string,
  options: { create?: boolean } = {},
): Promise<StatsStore | null> {
  if (isPostgresUrl(url)) return openPostgresStats(url);
  return openSqliteStats(url, options.create ?? true);
}

/** SQLite: null when the file does not exist and `create` is false (nothing counted yet). */
function openSqliteStats(url: string, create: boolean): StatsStore | null {
  const file = databasePath(url);
  if (file !== ":memory:" && !existsSync(file)) {
    if (!create) return null;
    mkdirSync(path.dirname(file), { recursive: true });
  }
  // A short busy wait (the event loop waits with it): another worker's slice takes milliseconds; past this,
  // the batch stays in memory for the next flush (the event loop never waits long).
  const db = new Database(file, { timeout: 50 });
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    try {
      migrate(db, statsMigrationsDir());
    } catch (error) {
      // Two workers starting together: the other applied it first.
      if (pendingMigrations(db, statsMigrationsDir()).length > 0) throw error;
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const upsert = db.prepare(
    `INSERT INTO stats_counts (period, day, bot, kind, language, item, count, results)
     VALUES ('day', ?, ?, ?, ?, ?, ?, ?) ${UPSERT_TAIL},
       results = coalesce(excluded.results, stats_counts.results)`,
  );
  const addAll = db.transaction((rows: readonly StatRow[]) => {
    for (const r of rows) upsert.run(r.day, r.bot, r.kind, r.language, r.item, r.count, r.results);
  });
  const rollUp = db.transaction((before: string) => {
    db.prepare(
      `INSERT INTO stats_counts (period, day, bot, kind, language, item, count, results)
       ${ROLL_UP_SELECT.replace("$1", "?")} ${UPSERT_TAIL}`,
    ).run(before);
    return db.prepare("DELETE FROM stats_counts WHERE period = 'day' AND day < ?").run(before).changes;
  });
  return {
    description: file,
    add: async (rows) => {
      // better-sqlite3 is synchronous: a batch is written in slices of
      // SLICE rows (a few ms each), the event loop free between them.
      for (let start = 0; start < rows.length; start += SLICE) {
        if (start > 0) await new Promise((resolve) => setImmediate(resolve));
        try {
          addAll.immediate(rows.slice(start, start + SLICE));
        } catch (error) {
          // The slices before this one are written: the caller keeps only the rest.
          throw Object.assign(error as Error, { written: start });
        }
      }
    },
    rollUp: async (before) => rollUp.immediate(before),
    read: async (fromDay, { months = false } = {}) =>
      db
        .prepare(
          `SELECT period, day, bot, kind, language, item, count, results FROM stats_counts
           WHERE (period = 'day' AND day >= ?) ${months ? "OR period = 'month'" : ""}`,
        )
        .all(fromDay) as StoredRow[],
    close: async () => {
      db.close();
    },
  };
}

/** Taken while rolling up, so two nodes rolling up at once do not count a day twice. */
const ROLL_UP_LOCK = 7_463_220_261_202;

async function openPostgresStats(url: string): Promise<StatsStore> {
  const { createPool, endPool } = await import("#app/data/postgres/pool.server.ts");
  const { migratePostgres } = await import("#app/data/postgres/migrate.server.ts");
  const pool = createPool(url, { max: 1, statementTimeoutMillis: 10_000 });
  try {
    await migratePostgres(pool);
  } catch (error) {
    await endPool(pool);
    throw error;
  }
  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        // The connection is gone: the transaction went with it.
      });
      throw error;
    } finally {
      client.release();
    }
  };
  const { host, pathname } = new URL(url);
  return {
    description: `postgres://${host}${pathname}`,
    add: async (rows) => {
      if (rows.length === 0) return;
      // In key order: two nodes adding the same keys lock them in the same order.
      const sorted = [...rows].sort((a, b) =>
        `${a.day}\t${a.bot}\t${a.kind}\t${a.language}\t${a.item}` <
        `${b.day}\t${b.bot}\t${b.kind}\t${b.language}\t${b.item}`
          ? -1
          : 1,
      );
      await pool.query(
        `INSERT INTO stats_counts (period, day, bot, kind, language, item, count, results)
         SELECT 'day', * FROM unnest($1::text[], $2::smallint[], $3::text[], $4::text[], $5::text[],
           $6::bigint[], $7::integer[])
         ${UPSERT_TAIL}, results = coalesce(excluded.results, stats_counts.results)`,
        [
          sorted.map((r) => r.day),
          sorted.map((r) => r.bot),
          sorted.map((r) => r.kind),
          sorted.map((r) => r.language),
          sorted.map((r) => r.item),
          sorted.map((r) => r.count),
          sorted.map((r) => r.results),
        ],
      );
    },
    rollUp: (before) =>
      inTransaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock($1)", [ROLL_UP_LOCK]);
        await client.query(
          `INSERT INTO stats_counts (period, day, bot, kind, language, item, count, results)
           ${ROLL_UP_SELECT} ${UPSERT_TAIL}`,
          [before],
        );
        const deleted = await client.query("DELETE FROM stats_counts WHERE period = 'day' AND day < $1", [
          before,
        ]);
        return deleted.rowCount ?? 0;
      }),
    read: async (fromDay, { months = false } = {}) => {
      const { rows } = await pool.query<StoredRow>(
        `SELECT period, day, bot::integer AS bot, kind, language, item, count, results FROM stats_counts
         WHERE (period = 'day' AND day >= $1) ${months ? "OR period = 'month'" : ""}`,
        [fromDay],
      );
      return rows;
    },
    close: () => endPool(pool),
  };
}
