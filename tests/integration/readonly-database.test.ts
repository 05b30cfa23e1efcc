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
import { postPath } from "#app/content/languages.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import { migrate, migrationsDir, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

// The built server on a database it can only read: as most deployments run
// it, as a user who does not own the files. Root ignores file permissions, so
// as root (in CI) the server runs as nobody (uid 65534), for whom a root-owned
// directory and file with modes 0555 and 0444 are readable and not writable.

const NOBODY = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const demo = readDemoContent();
const published = demo.posts.find((post) => post.status === "publish" && post.language === "english")!;

let dir: string;
let dbPath: string;
let server: RunningServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-readonly-"));
  dbPath = path.join(dir, "sukti.db");
  // Share images are the one thing the server writes: that directory is its own.
  mkdirSync(path.join(dir, "share-images"));
  if (NOBODY.uid !== undefined) chownSync(path.join(dir, "share-images"), NOBODY.uid, NOBODY.gid);
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** The demo site, migrated with `migrations` (all by default), its file closed: no -wal, no -shm. */
/** A migrated database with the demo content; with only some `migrations`, an empty one (today's writer needs them all). */
function createSite(file: string, migrations = migrationsDir()): void {
  const { db } = openDatabase(`file:${file}`);
  migrate(db, migrations);
  if (migrations === migrationsDir()) writeContent(db, demo);
  db.close();
}

/** The server as the unprivileged user. */
function start(): Promise<RunningServer> {
  return startServer({ dbPath, env: { SHARE_IMAGE_DIR: path.join(dir, "share-images") }, ...NOBODY });
}

/** Readable, not writable, by that user: root-owned when the tests run as root. */
function denyWrite(): void {
  chmodSync(dbPath, 0o444);
  chmodSync(dir, 0o555);
}

async function expectServed(running: RunningServer): Promise<void> {
  expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
  expect((await fetch(`${running.url}/`)).status).toBe(200);
  const page = await fetch(`${running.url}${postPath("english", published.slug)}`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(published.title);
}

test("a migrated database in a directory the server cannot write is served", async () => {
  createSite(dbPath);
  denyWrite();

  server = await start();
  await expectServed(server);
  expect(readdirSync(dir).sort()).toEqual(["share-images", "sukti.db"]);
});

test("an import into a database the user cannot write is refused in one line, and changes nothing", () => {
  createSite(dbPath);
  const file = path.join(dir, "new.ndjson");
  writeFileSync(file, `${JSON.stringify({ ...published, idNum: 9000, slug: "a-new-post" })}\n`);
  denyWrite();

  const root = path.resolve(import.meta.dirname, "../..");
  const result = spawnSync(process.execPath, [path.join(root, "bin/sukti.js"), "import", file], {
    env: { ...process.env, DATABASE_URL: `file:${dbPath}` },
    encoding: "utf8",
    ...NOBODY,
  });
  expect(result.status).toBe(1);
  expect(result.stderr.trim()).toBe(
    `sukti: cannot write the database ${dbPath}: neither ${dbPath} nor its directory is writable by this user`,
  );
  expect(readdirSync(dir).sort()).toEqual(["new.ndjson", "share-images", "sukti.db"]);
});

test("a database that lacks a migration and cannot be written stops start-up with one clear line", async () => {
  const migrations = path.join(dir, "migrations");
  mkdirSync(migrations);
  const [first, ...pending] = readdirSync(migrationsDir()).sort();
  copyFileSync(path.join(migrationsDir(), first!), path.join(migrations, first!));
  createSite(dbPath, migrations);
  rmSync(migrations, { recursive: true });
  denyWrite();

  const output = await start().then(
    () => "started",
    (error: Error) => error.message.split("\n").slice(1).join("\n").trim(),
  );
  const [count, them] =
    pending.length === 1 ? ["1 migration is", "it"] : [`${pending.length} migrations are`, "them"];
  expect(output).toBe(
    `sukti: cannot open database file:${dbPath}: ${dbPath} is read-only (neither ${dbPath} nor its directory is writable by this user) and ${count} pending: ${pending.join(", ")}; run once with write access to apply ${them}`,
  );
});

/** Mounts a small tmpfs at `target` (root with CAP_SYS_ADMIN only); skips the test, saying why, when that is impossible. */
function mountTmpfs(context: TestContext, target: string, size: string): () => void {
  mkdirSync(target);
  const mount = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0755`, "tmpfs", target], {
    encoding: "utf8",
  });
  if (mount.status !== 0) {
    context.skip(`cannot mount a tmpfs here (${(mount.stderr || mount.error?.message || "").trim()})`);
  }
  return () => spawnSync("umount", ["--lazy", target]);
}

test("on a full disk, the server starts and serves the database read-only", async (context) => {
  const disk = path.join(dir, "disk");
  const unmount = mountTmpfs(context, disk, "4m");
  try {
    dbPath = path.join(disk, "sukti.db");
    createSite(dbPath);
    try {
      writeFileSync(path.join(disk, "filler"), Buffer.alloc(64 * 1024 * 1024));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    }
    expect(statfsSync(disk).bavail).toBe(0);
    server = await startServer({ dbPath });
    await expectServed(server);

    // Space freed and the site changed: the next requests see it.
    rmSync(path.join(disk, "filler"));
    const { db } = openDatabase(`file:${dbPath}`);
    db.prepare(
      "UPDATE posts SET title = 'Written after the disk was freed' WHERE language = 'english' AND slug = ?",
    ).run(published.slug);
    db.close();
    const url = `${server.url}${postPath("english", published.slug)}`;
    const changed = async () =>
      (await (await fetch(url)).text()).includes("Written after the disk was freed");
    await expect.poll(changed, { timeout: READY_MS }).toBe(true);
  } finally {
    await server?.stop();
    server = undefined;
    unmount();
  }
});

test("on a read-only file system, the server starts and serves the database", async (context) => {
  const disk = path.join(dir, "disk");
  const unmount = mountTmpfs(context, disk, "4m");
  try {
    dbPath = path.join(disk, "sukti.db");
    createSite(dbPath);
    expect(spawnSync("mount", ["-o", "remount,ro", disk]).status).toBe(0);
    server = await startServer({ dbPath });
    await expectServed(server);
  } finally {
    await server?.stop();
    server = undefined;
    unmount();
  }
});
