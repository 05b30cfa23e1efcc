import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, type TestContext, test } from "vitest";
import {
  type Db,
  migrate,
  migrationsDir,
  openDatabase,
  openMigratedDatabase,
} from "#app/data/sqlite/database.server.ts";

// The open fallback chain (openDatabase): writable when it can be, else a
// read-only connection to the file, else a copy in memory when SQLite cannot
// even create the -shm file a WAL database needs. The opens that depend on
// permissions run in a child process, as nobody (uid 65534) when the tests run
// as root, since permissions mean nothing to root.

const NOBODY = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;
const MODULE = path.join(import.meta.dirname, "database.server.ts");

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-db-open-"));
  chmodSync(dir, 0o755);
  file = path.join(dir, "sukti.db");
});

afterEach(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** A migrated database holding `count` rows in a table of its own, closed. */
function createDatabase(count = 3, migrations = migrationsDir()): void {
  const { db } = openDatabase(`file:${file}`);
  migrate(db, migrations);
  fill(db, count);
  db.close();
}

function fill(db: Db, count: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS probe (n INTEGER)");
  const insert = db.prepare("INSERT INTO probe (n) VALUES (?)");
  for (let n = 0; n < count; n++) insert.run(n);
}

/** Readable, not writable, by the user the opens below run as. */
function denyWrite(target: string, directory = false): void {
  chmodSync(target, directory ? 0o555 : 0o444);
}

/** Writable by that user. */
function allowWrite(target: string, directory = false): void {
  if (NOBODY) chownSync(target, NOBODY.uid, NOBODY.gid);
  chmodSync(target, directory ? 0o755 : 0o644);
}

interface Outcome {
  readOnly?: string | null;
  inMemory?: boolean;
  rows?: number;
  error?: string;
}

/** openMigratedDatabase, as the server opens its file, in a process of the unprivileged user. */
function openAsUser(): Outcome {
  const script = `
    const { openMigratedDatabase } = await import(${JSON.stringify(MODULE)});
    try {
      const { db, readOnly } = openMigratedDatabase(${JSON.stringify(`file:${file}`)});
      const rows = db.prepare("SELECT count(*) FROM probe").pluck().get();
      console.log(JSON.stringify({ readOnly, inMemory: db.memory, rows }));
      db.close();
    } catch (error) {
      console.log(JSON.stringify({ error: error.message }));
    }`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    encoding: "utf8",
    ...NOBODY,
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as Outcome;
}

test("a writable database opens in WAL mode, its -wal file capped after checkpoints", () => {
  const { db, created, readOnly } = openDatabase(`file:${file}`);
  expect(created).toBe(true);
  expect(readOnly).toBeNull();
  expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(db.pragma("journal_size_limit", { simple: true })).toBe(4 * 1024 * 1024);
  db.close();
});

test("a file that is not a database still fails, whatever the fallbacks", () => {
  writeFileSync(file, "this is not a database".repeat(100));
  expect(() => openDatabase(`file:${file}`)).toThrow(/not a database/);
});

test("a file the user cannot write, in a directory it can, is read through a read-only connection", () => {
  createDatabase();
  allowWrite(dir, true);
  denyWrite(file);
  expect(openAsUser()).toEqual({
    readOnly: `${file} is not writable by this user`,
    inMemory: false,
    rows: 3,
  });
});

test("in a directory the user cannot write, a closed WAL database is served from a copy in memory", () => {
  createDatabase();
  expect(readdirSync(dir)).toEqual(["sukti.db"]);
  allowWrite(file);
  denyWrite(dir, true);
  expect(openAsUser()).toEqual({
    readOnly: `the directory ${dir} is not writable by this user (SQLite keeps its -wal and -shm files there)`,
    inMemory: true,
    rows: 3,
  });
});

test("in a directory the user cannot write, the -wal and -shm a writer left are read, with its last changes", () => {
  createDatabase();
  const writer = openDatabase(`file:${file}`).db;
  try {
    fill(writer, 2);
    denyWrite(file);
    denyWrite(dir, true);
    expect(readdirSync(dir).sort()).toEqual(["sukti.db", "sukti.db-shm", "sukti.db-wal"]);
    expect(openAsUser()).toEqual({
      readOnly: `neither ${file} nor its directory is writable by this user`,
      inMemory: false,
      rows: 5,
    });
  } finally {
    chmodSync(dir, 0o755);
    writer.close();
  }
});

test("changes left in a -wal file without its -shm are an error, not a silently older site", () => {
  createDatabase();
  const elsewhere = path.join(dir, "copy");
  mkdirSync(elsewhere);
  const writer = openDatabase(`file:${file}`).db;
  fill(writer, 2);
  copyFileSync(file, path.join(elsewhere, "sukti.db"));
  copyFileSync(`${file}-wal`, path.join(elsewhere, "sukti.db-wal"));
  writer.close();
  file = path.join(elsewhere, "sukti.db");
  denyWrite(elsewhere, true);
  expect(openAsUser().error).toBe(
    `${file}-wal holds changes that SQLite can only read by creating ${file}-shm, which it cannot do here`,
  );
  chmodSync(elsewhere, 0o755);
});

test("a read-only database that lacks a migration stops with one line naming the file, why, and the migration", () => {
  const migrations = path.join(dir, "migrations");
  mkdirSync(migrations);
  const all = readdirSync(migrationsDir()).sort();
  const rest = all.slice(-1);
  for (const name of all.slice(0, -1))
    copyFileSync(path.join(migrationsDir(), name), path.join(migrations, name));
  createDatabase(3, migrations);
  rmSync(migrations, { recursive: true });
  denyWrite(file);
  denyWrite(dir, true);
  expect(rest).toHaveLength(1);
  expect(openAsUser().error).toBe(
    `${file} is read-only (neither ${file} nor its directory is writable by this user) and 1 migration is pending: ${rest[0]}; run once with write access to apply it`,
  );
  // And nothing was written.
  expect(readdirSync(dir)).toEqual(["sukti.db"]);
});

test("with write access, the migrations of a database are applied as before", () => {
  createDatabase();
  const opened = openMigratedDatabase(`file:${file}`);
  expect(opened.readOnly).toBeNull();
  expect(opened.created).toBe(false);
  opened.db.close();
});

/** Mounts a small tmpfs (root with CAP_SYS_ADMIN only); skips the test, saying why, when that is impossible. */
function mountTmpfs(context: TestContext, target: string, size: string): () => void {
  mkdirSync(target);
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", target], {
    encoding: "utf8",
  });
  if (mount.status !== 0) {
    context.skip(`cannot mount a tmpfs here (${(mount.stderr || mount.error?.message || "").trim()})`);
  }
  return () => spawnSync("umount", [target]);
}

function fillDisk(disk: string): void {
  try {
    writeFileSync(path.join(disk, "filler"), Buffer.alloc(64 * 1024 * 1024));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
}

test("on a full disk, an existing database is served read-only from a copy in memory", (context) => {
  const disk = path.join(dir, "disk");
  const unmount = mountTmpfs(context, disk, "2m");
  try {
    file = path.join(disk, "sukti.db");
    createDatabase();
    fillDisk(disk);
    expect(statfsSync(disk).bavail).toBe(0);
    const { db, readOnly } = openDatabase(`file:${file}`);
    expect(readOnly).toMatch(/^the disk is full \(.+\)$/);
    expect(db.memory).toBe(true);
    expect(db.prepare("SELECT count(*) FROM probe").pluck().get()).toBe(3);
    db.close();
  } finally {
    unmount();
  }
});

test("on a read-only file system, an existing database is served read-only", (context) => {
  const disk = path.join(dir, "disk");
  const unmount = mountTmpfs(context, disk, "4m");
  try {
    file = path.join(disk, "sukti.db");
    createDatabase();
    expect(spawnSync("mount", ["-o", "remount,ro", disk]).status).toBe(0);
    const { db, readOnly } = openDatabase(`file:${file}`);
    expect(readOnly).toBe(`${file} is on a read-only file system`);
    expect(db.prepare("SELECT count(*) FROM probe").pluck().get()).toBe(3);
    db.close();
  } finally {
    unmount();
  }
});
