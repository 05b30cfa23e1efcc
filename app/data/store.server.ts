import { migrate, openDatabase } from "#app/data/db.server.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import { type ResilientSqliteStore, resilientSqliteStore } from "#app/data/resilient-store.server.ts";
import { SqliteContentStore } from "#app/data/sqlite.server.ts";
import { writeContent } from "#app/data/write.server.ts";

export const DEFAULT_DATABASE_URL = "file:data/sukti.db";

/**
 * Picks the adapter for DATABASE_URL and prepares it: a missing SQLite file is
 * created, migrated and filled with the demo content; an existing one is only
 * migrated, never reseeded.
 */
export function openContentStore(databaseUrl = DEFAULT_DATABASE_URL): ResilientSqliteStore {
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    throw new Error("DATABASE_URL: PostgreSQL is not supported yet; use file:path/to/sukti.db");
  }
  const { db, created } = openDatabase(databaseUrl);
  try {
    migrate(db);
    if (created) writeContent(db, readDemoContent());
  } catch (error) {
    db.close();
    throw error;
  }
  return resilientSqliteStore(databaseUrl, new SqliteContentStore(db));
}
