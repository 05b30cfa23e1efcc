import { openMigratedDatabase } from "#app/data/db.server.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import { type ResilientSqliteStore, resilientSqliteStore } from "#app/data/resilient-store.server.ts";
import { writeContent } from "#app/data/write.server.ts";

export const DEFAULT_DATABASE_URL = "file:data/sukti.db";

/**
 * Picks the adapter for DATABASE_URL and prepares it: a missing SQLite file is
 * created, migrated and filled with the demo content; an existing one is only
 * migrated, never reseeded. One that can only be read is served as it is
 * (`readOnly` on the store), unless it needs a migration.
 */
export function openContentStore(databaseUrl = DEFAULT_DATABASE_URL): ResilientSqliteStore {
  if (/^postgres(ql)?:/.test(databaseUrl)) {
    throw new Error("DATABASE_URL: PostgreSQL is not supported yet; use file:path/to/sukti.db");
  }
  const opened = openMigratedDatabase(databaseUrl);
  try {
    if (opened.created) writeContent(opened.db, readDemoContent());
  } catch (error) {
    opened.db.close();
    throw error;
  }
  return resilientSqliteStore(databaseUrl, opened);
}
