// Opening a SQLite database for the site and the importer: the file named by
// DATABASE_URL, in WAL mode; a database this process cannot write is opened
// read-only (else copied into memory) with the reason; migrations are plain
// SQL in db/migrations/, applied in name order, each in a transaction.
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statfsSync,
  statSync,
} from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { projectRoot } from "#app/data/project-root.server.ts";
import { registerMigrationFunctions } from "#app/data/sqlite/migration-functions.server.ts";

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
  /** Why the database could only be opened for reading (e.g. "the disk is full"); null when it is writable. */
  readOnly: string | null;
}

/** After a checkpoint, SQLite cuts the -wal file back to this size instead of keeping its largest. */
const JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024;

/** Failures that mean "cannot write here" (permissions, read-only media, full disk), not a broken file. */
const CANNOT_WRITE = /^SQLITE_(READONLY|CANTOPEN|FULL|IOERR)/;

/**
 * Opens the database for writing when it can. An existing database that
 * cannot be written (read-only file, directory or file system, a full disk)
 * is opened read-only instead, and `readOnly` says why: a site can be served
 * from it as long as it needs no migration.
 */
export function openDatabase(databaseUrl: string, options: { readonly?: boolean } = {}): OpenedDb {
  const file = databasePath(databaseUrl);
  if (options.readonly) return { db: openReadOnly(file), created: false, readOnly: "opened read-only" };
  if (file === ":memory:") return { db: openWritable(file), created: true, readOnly: null };
  const created = !existsSync(file);
  if (created) mkdirSync(path.dirname(file), { recursive: true });
  else refuseEmptyFile(file);
  const unwritable = created ? null : whyNotWritable(file);
  if (unwritable) return { db: openReadOnly(file), created, readOnly: unwritable };
  try {
    return { db: openWritable(file), created, readOnly: null };
  } catch (error) {
    if (created || !CANNOT_WRITE.test(sqliteCode(error))) throw error;
    const why = whyWriteFailed(file, error as Error);
    return { db: openReadOnly(file), created, readOnly: why };
  }
}

/**
 * SQLite takes a zero-length file for a new database and would fill it: an
 * empty file where the database should be is a failed copy or restore, not a
 * new site, and is refused. (A WAL database whose pages are all still in its
 * -wal file has an empty main file: that one is a database.)
 */
function refuseEmptyFile(file: string): void {
  if (statSync(file).size > 0) return;
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return;
  throw new Error(
    `${file} is an empty file (0 bytes), not a database: put the database back, or remove the file to start a new one`,
  );
}

function sqliteCode(error: unknown): string {
  return (error as { code?: unknown }).code?.toString() ?? "";
}

/**
 * What stops this process from writing the database, as a phrase for "serving
 * read-only: …", or null when nothing does: SQLite needs to write the file and
 * to create the -wal and -shm files beside it.
 */
function whyNotWritable(file: string): string | null {
  const dir = path.dirname(file);
  const denied = [file, dir].map(writeDenied);
  if (denied.includes("EROFS")) return `${file} is on a read-only file system`;
  if (denied[0] && denied[1]) return `neither ${file} nor its directory is writable by this user`;
  if (denied[0]) return `${file} is not writable by this user`;
  if (denied[1])
    return `the directory ${dir} is not writable by this user (SQLite keeps its -wal and -shm files there)`;
  return null;
}

/** The likely cause of a write that failed though permissions allow it. */
function whyWriteFailed(file: string, error: Error): string {
  const full = statfsSync(path.dirname(file)).bavail === 0;
  return full ? `the disk is full (${error.message})` : `SQLite cannot write it (${error.message})`;
}

/** The reason this process may not write `target` (EACCES, EROFS…), or null. */
function writeDenied(target: string): string | null {
  try {
    accessSync(target, constants.W_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "EACCES";
  }
}

/** A connection the server and the importer write through, in WAL mode. */
function openWritable(file: string): Db {
  return connect(new Database(file), (db) => {
    db.pragma("journal_mode = WAL");
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  });
}

/**
 * A read-only connection. A WAL database needs its -shm file even to be read;
 * when SQLite cannot create it (read-only directory or file system, full
 * disk), the database is served from a copy in memory instead.
 */
function openReadOnly(file: string): Db {
  try {
    return connect(new Database(file, { readonly: true, fileMustExist: true }));
  } catch (error) {
    if (!CANNOT_WRITE.test(sqliteCode(error)) || !existsSync(file)) throw error;
    return openInMemoryCopy(file);
  }
}

/**
 * SQLite's own answer for a WAL database on read-only media, the
 * `immutable=1` URI parameter, is out of reach: better-sqlite3 builds SQLite
 * without URI filenames (SQLITE_USE_URI=0), so `file:…?immutable=1` is taken
 * as a file name. This reads the file into memory instead (its size in RAM),
 * marked as a rollback-journal database (header bytes 18 and 19), since an
 * in-memory database has no WAL. Changes still in the -wal file cannot be
 * read without the -shm file, so their presence is an error, not a silently
 * older site.
 */
function openInMemoryCopy(file: string): Db {
  const wal = `${file}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new Error(
      `${wal} holds changes that SQLite can only read by creating ${file}-shm, which it cannot do here`,
    );
  }
  const bytes = readFileSync(file);
  if (bytes[18] === 2 && bytes[19] === 2) bytes.fill(1, 18, 20);
  return connect(new Database(bytes, { readonly: true }));
}

/** The settings every connection gets; fails here, with a clear error, on a file that is not a SQLite database. */
function connect(db: Db, setup?: (db: Db) => void): Db {
  try {
    setup?.(db);
    db.pragma("foreign_keys = ON");
    db.pragma("busy_timeout = 5000");
    db.prepare("SELECT count(*) FROM sqlite_schema").get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function migrationsDir(): string {
  return path.join(projectRoot(), "db", "migrations");
}

/** The db/migrations/*.sql not yet applied, in name order; reads only. */
export function pendingMigrations(db: Db, dir = migrationsDir()): string[] {
  const tracked =
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get() !==
    undefined;
  const applied = new Set(
    tracked ? (db.prepare("SELECT name FROM schema_migrations").pluck().all() as string[]) : [],
  );
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
}

/**
 * Applies each db/migrations/*.sql not yet applied, in name order, each in a
 * transaction. Writes nothing when none is pending, so a read-only database
 * that is up to date passes.
 */
export function migrate(db: Db, dir = migrationsDir()): string[] {
  const pending = pendingMigrations(db, dir);
  if (pending.length === 0) return pending;
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at INTEGER NOT NULL DEFAULT (unixepoch())
  )`);
  registerMigrationFunctions(db);
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

/**
 * Opens and migrates the database, as the server does at start and on every
 * reopen. A read-only one is served as it is when no migration is pending;
 * otherwise this fails with one line naming the file, why it is read-only and
 * the migrations it lacks. With `integrityCheck`, a file that fails
 * quick_check is refused first, with one line.
 */
export function openMigratedDatabase(
  databaseUrl: string,
  { integrityCheck = false }: { integrityCheck?: boolean } = {},
): OpenedDb {
  const opened = openDatabase(databaseUrl);
  try {
    const problem = integrityCheck && !opened.created ? quickCheck(opened.db) : null;
    // quick_check read every page into this connection's cache: let it go,
    // as a connection that had not read them would have none.
    if (integrityCheck) opened.db.pragma("shrink_memory");
    if (problem !== null) {
      throw new Error(
        `${databasePath(databaseUrl)} fails SQLite's integrity check (quick_check: ${problem.replace(/\s+/g, " ")}); restore it from a backup`,
      );
    }
    if (opened.readOnly === null) migrate(opened.db);
    else refuseMigrations(databasePath(databaseUrl), opened.readOnly, pendingMigrations(opened.db));
    return opened;
  } catch (error) {
    opened.db.close();
    throw error;
  }
}

function refuseMigrations(file: string, why: string, pending: string[]): void {
  if (pending.length === 0) return;
  const [count, them] =
    pending.length === 1 ? ["1 migration is", "it"] : [`${pending.length} migrations are`, "them"];
  throw new Error(
    `${file} is read-only (${why}) and ${count} pending: ${pending.join(", ")}; run once with write access to apply ${them}`,
  );
}

/**
 * SQLite's `PRAGMA quick_check`: null when the file is sound, else its first
 * complaint (e.g. "Tree 4 page 4 cell 0: …"). Reads every page: ~6 ms for the
 * demo database, ~1 s a GB (docs/decisions/045-faults-an-operator-will-meet.md).
 */
export function quickCheck(db: Db): string | null {
  let lines: { quick_check: string }[];
  try {
    lines = db.pragma("quick_check", { simple: false }) as { quick_check: string }[];
  } catch (error) {
    // A page too broken to walk fails the pragma itself.
    return (error as Error).message;
  }
  const first = lines[0]?.quick_check ?? "no answer";
  return first === "ok" ? null : `${first}${lines.length > 1 ? ` (and ${lines.length - 1} more)` : ""}`;
}

/**
 * A cheap read of every table and index of the file: the first row of each
 * b-tree, so a root or branch page that cannot be read fails here (a bad page
 * lower down is found by the reads that reach it, or by quickCheck); and each
 * of `tables` (the ones the pages read) must be there. Throws SQLite's error,
 * naming the table or index. ~1.5 ms on a fresh connection to the demo
 * database.
 */
export function readEveryTree(db: Db, tables: readonly string[] = []): void {
  const trees = db
    .prepare("SELECT type, name, tbl_name AS tableName, rootpage, sql FROM sqlite_schema")
    .all() as {
    type: string;
    name: string;
    tableName: string;
    rootpage: number | null;
    sql: string | null;
  }[];
  const present = new Set(trees.filter((tree) => tree.type === "table").map((tree) => tree.name));
  const missing = tables.filter((table) => !present.has(table));
  if (missing.length > 0) throw new Error(`no such table: ${missing.join(", ")}`);
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  for (const tree of trees) {
    if (!tree.rootpage) continue;
    let sql: string;
    if (tree.type === "table") sql = `SELECT 1 FROM ${quote(tree.name)} NOT INDEXED LIMIT 1`;
    else {
      // A partial index is only usable for rows of its WHERE clause.
      const where = tree.sql ? /\)\s*WHERE\s+([\s\S]+)$/i.exec(tree.sql)?.[1] : undefined;
      sql = `SELECT 1 FROM ${quote(tree.tableName)} INDEXED BY ${quote(tree.name)}${where ? ` WHERE ${where}` : ""} LIMIT 1`;
    }
    try {
      db.prepare(sql).get();
    } catch (error) {
      // An index SQLite will not scan whole (an expression index): its pages are checked by quickCheck.
      if (/no query solution/.test((error as Error).message)) continue;
      (error as Error).message = `${tree.name}: ${(error as Error).message}`;
      throw error;
    }
  }
}
