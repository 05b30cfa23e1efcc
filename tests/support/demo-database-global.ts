// Vitest globalSetup: the demo database made once for the run, by the server's
// own code (created, migrated, seeded), for startServer() to copy: a copy is
// ~0.25 s of CPU cheaper than seeding at each of the run's ~45 server starts
// (the Epic Stack's base-database pattern). Workers find it through
// SUKTI_TEST_DEMO_DB, as they find the shared PostgreSQL server.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteStore } from "#app/data/sqlite/served-store.server.ts";
import { DEMO_DB_ENV } from "#tests/support/server.ts";

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-demo-db-"));
  const file = path.join(dir, "demo.db");
  const store = openSqliteStore(`file:${file}`);
  await store.close();
  // The last connection's close folds the write-ahead log into the file: the file alone is the database.
  if (existsSync(`${file}-wal`))
    throw new Error(`${file}-wal was left behind: the copy would miss its pages`);
  process.env[DEMO_DB_ENV] = file;
  return () => {
    delete process.env[DEMO_DB_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
