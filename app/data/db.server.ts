import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { projectRoot } from "#app/data/project-root.server.ts";
import { registerSqlFunctions } from "#app/data/sql-functions.server.ts";

export type Db = Database.Database;

/** `file:data/sukti.db`, `file:///abs/path.db` or a plain path, to a file path. */
export function databasePath(databaseUrl: string): string {
  if (databaseUrl === ":memory:") return databaseUrl;
  if (databaseUrl.startsWith("file://")) return new URL(databaseUrl).pathname;
  const withoutScheme = databaseUrl.replace(/^file:/, "");
  const withoutQuery = withoutScheme.split("?")[0] ?? withoutScheme;
  if (withoutQuery === "") throw new Error(`DATABASE_URL names no file: ${databaseUrl}`);
  return path.resolve(withoutQuery);
}

export interface OpenedDb {
  db: Db;
  /** True when the file did not exist before this call. */
  created: boolean;
}

export function openDatabase(databaseUrl: string, options: { readonly?: boolean } = {}): OpenedDb {
  const file = databasePath(databaseUrl);
  const created = file === ":memory:" || !existsSync(file);
  if (created && file !== ":memory:") mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file, {
    readonly: options.readonly ?? false,
    fileMustExist: options.readonly ?? false,
  });
  if (!options.readonly) db.pragma("journal_mode = WAL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  registerSqlFunctions(db);
  // Fails here, with a clear error, on a file that is not a SQLite database.
  db.prepare("SELECT count(*) FROM sqlite_schema").get();
  return { db, created };
}

export function migrationsDir(): string {
  return path.join(projectRoot(), "db", "migrations");
}

/** Applies each db/migrations/*.sql not yet applied, in name order, each in a transaction. */
export function migrate(db: Db, dir = migrationsDir()): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at INTEGER NOT NULL DEFAULT (unixepoch())
  )`);
  const applied = new Set(db.prepare("SELECT name FROM schema_migrations").pluck().all() as string[]);
  const pending = readdirSync(dir)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  const record = db.prepare("INSERT INTO schema_migrations (name) VALUES (?)");
  for (const name of pending) {
    const sql = readFileSync(path.join(dir, name), "utf8");
    db.transaction(() => {
      db.exec(sql);
      record.run(name);
    })();
  }
  return pending;
}
