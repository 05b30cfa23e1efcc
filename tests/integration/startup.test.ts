import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { writeContent } from "#app/data/sqlite/writes.server.ts";
import { openReadonly } from "#tests/support/db.ts";
import { startServer } from "#tests/support/server.ts";

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

test("a bad PORT stops start-up with one clear line", async () => {
  await expect(startServer({ env: { PORT: "not-a-port" } })).rejects.toThrow(
    /sukti: invalid configuration: PORT/,
  );
});
