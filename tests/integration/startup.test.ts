import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "vitest";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { openReadonly } from "#tests/support/db.ts";
import { DEMO_DB_ENV, startServer } from "#tests/support/server.ts";

test("a missing database file is created, migrated and seeded with the demo content", async () => {
  const server = await startServer({ freshDatabase: true });
  try {
    const db = openReadonly(server.dbPath);
    const counts = db
      .prepare("SELECT language, count(*) AS n FROM posts WHERE status = 'publish' GROUP BY language")
      .all() as { language: string; n: number }[];
    db.close();
    expect(counts).toHaveLength(3);
    for (const { n } of counts) expect(n).toBeGreaterThanOrEqual(40);
  } finally {
    await server.stop();
  }
});

test("a database that already holds posts is never reseeded", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-existing-"));
  const dbPath = path.join(dir, "mine.db");
  const { db } = openDatabase(`file:${dbPath}`);
  migrate(db);
  writeContent(db, {
    posts: [
      {
        idNum: 1,
        language: "english",
        status: "publish",
        postTime: 1_700_000_000,
        title: "Only mine",
        slug: "only-mine",
        featureImageUrl: "",
        content: "<p>Mine</p>",
        excerpt: "",
        tags: [],
        categories: [],
      },
    ],
    pages: [],
  });
  db.close();
  const server = await startServer({ dbPath });
  try {
    const check = openReadonly(dbPath);
    expect(check.prepare("SELECT count(*) FROM posts").pluck().get()).toBe(1);
    expect(check.prepare("SELECT count(*) FROM pages").pluck().get()).toBe(0);
    check.close();
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain("Only mine");
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a corrupt database stops start-up with one clear line", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-corrupt-"));
  const dbPath = path.join(dir, "bad.db");
  writeFileSync(dbPath, "this is not a database".repeat(100));
  try {
    await expect(startServer({ dbPath })).rejects.toThrow(/sukti: cannot open database .*not a database/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Start-up's error: the server's whole output, which must be one line. */
async function refusal(dbPath: string): Promise<string> {
  const message = await startServer({ dbPath }).then(
    () => "started",
    (error: Error) => error.message,
  );
  const [head, ...output] = message.split("\n");
  expect(head).toBe("server exited with 1:");
  expect(output.filter((line) => line !== "")).toHaveLength(1);
  return output[0] ?? "";
}

test("a zero-length database file stops start-up with one line, and stays as it was", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-empty-"));
  const dbPath = path.join(dir, "sukti.db");
  writeFileSync(dbPath, "");
  try {
    expect(await refusal(dbPath)).toBe(
      `sukti: cannot open database file:${dbPath}: ${dbPath} is an empty file (0 bytes), not a database: put the database back, or remove the file to start a new one`,
    );
    expect(statSync(dbPath).size).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a database that fails SQLite's quick_check stops start-up with one line", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-bad-page-"));
  const dbPath = path.join(dir, "sukti.db");
  copyFileSync(process.env[DEMO_DB_ENV] ?? "", dbPath);
  // One leaf page of the posts table overwritten: the file opens and its schema reads, the page does not.
  const db = new Database(dbPath, { readonly: true });
  const pageSize = db.pragma("page_size", { simple: true }) as number;
  const leaf = db
    .prepare(
      "SELECT pageno FROM dbstat WHERE name = 'posts' AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1",
    )
    .pluck()
    .get() as number;
  db.close();
  const fd = openSync(dbPath, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, (leaf - 1) * pageSize);
  closeSync(fd);
  try {
    expect(await refusal(dbPath)).toMatch(
      new RegExp(
        `^sukti: cannot open database file:${dbPath}: ${dbPath} fails SQLite's integrity check \\(quick_check: .+\\); restore it from a backup$`,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a bad PORT stops start-up with one clear line", async () => {
  await expect(startServer({ env: { PORT: "not-a-port" } })).rejects.toThrow(
    /sukti: invalid configuration: PORT/,
  );
});
