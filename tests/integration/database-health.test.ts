// Decision 045: /healthz tells a load balancer whether the site can serve its
// pages, not only whether the database answers. One bad page of the SQLite
// file, written after start (as a failing disk would), turns it to 503 with
// Retry-After: found by the health check's own read of every table when
// the page is near a table's root, by the page read that met it otherwise.
// A missing table does too. Replacing the file with a sound one brings it
// back. (Start-up refusing a file that fails quick_check: startup.test.ts.)
import { closeSync, copyFileSync, openSync, renameSync, writeSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "vitest";
import { type Language, postPath } from "#app/content/languages.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { DEMO_DB_ENV, type RunningServer, startServer } from "#tests/support/server.ts";

/** The page numbers of a table's or index's b-tree: its root, and its leaves left to right. */
function treePages(dbPath: string, name: string): { pageSize: number; root: number; leaves: number[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const root = db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = ?").pluck().get(name) as number;
    const leaves = db
      .prepare("SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path")
      .pluck()
      .all(name) as number[];
    return { pageSize, root, leaves };
  } finally {
    db.close();
  }
}

/** Overwrites one page of the file in place, as a failing disk would. */
function spoilPage(dbPath: string, page: number, pageSize: number) {
  const fd = openSync(dbPath, "r+");
  try {
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (page - 1) * pageSize);
  } finally {
    closeSync(fd);
  }
}

async function health(server: RunningServer) {
  const response = await fetch(`${server.url}/healthz`);
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

test("a bad page at the root of the posts table turns /healthz to 503, with Retry-After", async () => {
  const server = await startServer();
  try {
    expect(await health(server)).toEqual({ status: 200, retryAfter: null, body: { ok: true } });
    const { root, leaves, pageSize } = treePages(server.dbPath, "posts");
    expect(leaves.length).toBeGreaterThan(1);
    spoilPage(server.dbPath, root, pageSize);
    await expect.poll(async () => (await health(server)).status, { timeout: READY_MS }).toBe(503);
    expect(await health(server)).toEqual({ status: 503, retryAfter: "10", body: { ok: false } });
    await expect.poll(() => server.output()).toMatch(/"unhealthy".*posts: database disk image is malformed/);
  } finally {
    await server.stop();
  }
});

test("bad pages only a post's own read reaches: that read marks the file, until a sound file replaces it", async () => {
  const server = await startServer();
  try {
    const db = new Database(server.dbPath, { readonly: true });
    // Every leaf but the first is spoilt: the newest rows are far from the first ones the health check reads.
    const newest = db
      .prepare("SELECT language, slug FROM posts WHERE status = 'publish' ORDER BY id DESC LIMIT 1")
      .get() as { language: Language; slug: string };
    db.close();
    const { leaves, pageSize } = treePages(server.dbPath, "posts");
    expect(leaves.length).toBeGreaterThan(1);
    const sound = path.join(server.dir, "sound.db");
    copyFileSync(process.env[DEMO_DB_ENV] ?? "", sound);
    for (const leaf of leaves.slice(1)) spoilPage(server.dbPath, leaf, pageSize);
    // The health check's own reads pass: only the first leaf of each tree is read.
    expect((await health(server)).status).toBe(200);
    expect((await fetch(`${server.url}${postPath(newest.language, newest.slug)}`)).status).toBe(500);
    await expect.poll(async () => (await health(server)).status, { timeout: READY_MS }).toBe(503);
    // Still marked a while later: a bad page does not mend itself.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await health(server)).status).toBe(503);

    renameSync(sound, server.dbPath);
    await expect.poll(async () => (await health(server)).status, { timeout: READY_MS }).toBe(200);
    expect((await fetch(`${server.url}${postPath(newest.language, newest.slug)}`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});

test("a table the pages read gone missing turns /healthz to 503", async () => {
  const server = await startServer();
  try {
    expect((await health(server)).status).toBe(200);
    const { db } = openDatabase(`file:${server.dbPath}`);
    db.exec("ALTER TABLE people RENAME TO people_gone");
    db.close();
    await expect.poll(async () => (await health(server)).status, { timeout: READY_MS }).toBe(503);
    await expect.poll(() => server.output()).toContain("no such table: people");
  } finally {
    await server.stop();
  }
});
