// The two schemas hold the same tables with the same columns: the
// migrations of db/migrations (SQLite) and db/postgres/migrations are written
// twice, so a column added to one store only fails here. What each store keeps
// its own way is listed below with the reason; anything else must match.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";

/** Web Push's tables (decision 060). */
const PUSH_TABLES = ["push_keys", "push_subscriptions", "push_runs", "push_sends", "push_lease"];

/** Tables only one store has, and why. */
const ONLY_SQLITE: Record<string, string> = {
  // How a write reaches every reader: SQLite counts writes in one row (data_version does the rest) …
  content_epoch: "the content version (PostgreSQL: content_version with LISTEN/NOTIFY)",
  // … its search index is FTS5 over the documents, with the shadow tables FTS5 makes.
  search_index: "FTS5 over search_documents (PostgreSQL: a tsvector column)",
  search_words_trigram: "FTS5 trigram index of the words (PostgreSQL: search_word_trigrams)",
  sqlite_sequence: "SQLite's own AUTOINCREMENT bookkeeping",
};
const ONLY_POSTGRES: Record<string, string> = {
  content_version: "the content version, announced by NOTIFY (SQLite: content_epoch)",
  search_word_trigrams: "trigrams of the words for one-letter-off reading (SQLite: FTS5 trigram)",
  // SQLite has a view of the same name and columns (compared below).
  website: "a table kept by triggers (SQLite: a view over posts)",
  // SQLite keeps the counts in a database of their own (compared below).
  stats_counts: "in the site's database (SQLite: a -stats.db file beside it)",
  // … and the push subscriptions and sends in another (decision 060; compared below).
  ...Object.fromEntries(
    PUSH_TABLES.map((name) => [name, "in the site's database (SQLite: a -push.db file beside it)"]),
  ),
};
/** Tables both have, with columns of their own shape. */
const SHAPED: Record<string, string> = {
  search_documents: "SQLite: title, tags, body for FTS5; PostgreSQL: one weighted tsvector",
};

const FTS5_SHADOW = /_(config|data|docsize|idx|content)$/;

function sqliteColumns(db: Database.Database, kinds: string[]): Map<string, string[]> {
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type IN (${kinds.map(() => "?").join(", ")})`)
    .pluck()
    .all(...kinds) as string[];
  const columns = new Map<string, string[]>();
  for (const name of tables) {
    const base = name.replace(FTS5_SHADOW, "");
    if (base !== name && tables.includes(base)) continue;
    const info = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[];
    columns.set(
      name,
      info.map((column) => column.name),
    );
  }
  return columns;
}

describe.skipIf(!postgresAvailable())("the SQLite and PostgreSQL schemas", () => {
  let server: TestPostgres;
  let dir: string;
  let sqlite: Map<string, string[]>;
  let sqliteViews: Map<string, string[]>;
  let sqliteStats: Map<string, string[]>;
  let sqlitePush: Map<string, string[]>;
  let postgres: Map<string, string[]>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-schemas-"));
    const { db } = openDatabase(`file:${path.join(dir, "site.db")}`);
    migrate(db);
    sqlite = sqliteColumns(db, ["table"]);
    sqliteViews = sqliteColumns(db, ["view"]);
    db.close();
    const stats = new Database(path.join(dir, "site-stats.db"));
    // The stats file's migrations (server/stats-store.ts).
    migrate(stats, path.join(projectRoot(), "db", "stats-migrations"));
    sqliteStats = sqliteColumns(stats, ["table"]);
    stats.close();
    const push = new Database(path.join(dir, "site-push.db"));
    // The push file's migrations (app/data/push-store.server.ts).
    migrate(push, path.join(projectRoot(), "db", "push-migrations"));
    sqlitePush = sqliteColumns(push, ["table"]);
    push.close();

    server = await sharedPostgres();
    const pool = new pg.Pool({ connectionString: await server.createDatabase("schema_parity") });
    try {
      await migratePostgres(pool);
      const { rows } = await pool.query<{ name: string; columns: string[] }>(
        `SELECT table_name AS name, array_agg(column_name::text ORDER BY ordinal_position) AS columns
           FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name`,
      );
      postgres = new Map(rows.map((row) => [row.name, row.columns]));
    } finally {
      await pool.end();
    }
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("every table is in both, or listed with the reason it is not", () => {
    const sqliteOnly = [...sqlite.keys()].filter((name) => !postgres.has(name)).sort();
    const postgresOnly = [...postgres.keys()].filter((name) => !sqlite.has(name)).sort();
    expect(sqliteOnly).toEqual(Object.keys(ONLY_SQLITE).sort());
    expect(postgresOnly).toEqual(Object.keys(ONLY_POSTGRES).sort());
  });

  test("a table both have holds the same columns in the same order", () => {
    const shared = [...sqlite.keys()].filter((name) => postgres.has(name) && !(name in SHAPED));
    expect(shared.length).toBeGreaterThan(10);
    for (const name of shared) expect(postgres.get(name), name).toEqual(sqlite.get(name));
  });

  test("what SQLite keeps elsewhere has the same columns there", () => {
    expect(postgres.get("website")).toEqual(sqliteViews.get("website"));
    expect(postgres.get("stats_counts")).toEqual(sqliteStats.get("stats_counts"));
    expect(
      [...sqlitePush.keys()]
        .filter((name) => name !== "schema_migrations" && name !== "sqlite_sequence")
        .sort(),
    ).toEqual([...PUSH_TABLES].sort());
    for (const name of PUSH_TABLES) expect(postgres.get(name), name).toEqual(sqlitePush.get(name));
  });
});
