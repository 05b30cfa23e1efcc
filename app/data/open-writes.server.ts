// Which database the `sukti` command writes: DATABASE_URL picks it, as for
// the server (./open-store.server.ts). Each adapter is loaded only when
// chosen, so writing a SQLite file never loads pg.
import { isPostgresUrl } from "#app/data/open-store.server.ts";
import type { AfterCommit, ContentWrites } from "#app/data/writes.ts";

export interface OpenWritesOptions {
  /** Only read: a transaction reports what it would change and writes nothing. */
  dryRun?: boolean;
  /** Called after each committed write with the cache tags it changed (the purge hook). */
  afterCommit?: AfterCommit;
}

/**
 * The content writes for DATABASE_URL. A SQLite file that is missing is
 * created and migrated by the first write; one this user cannot write is
 * refused with WritesRefusedError (one line).
 */
export async function openContentWrites(
  databaseUrl: string,
  options: OpenWritesOptions = {},
): Promise<ContentWrites> {
  if (isPostgresUrl(databaseUrl)) {
    const { openPostgresWrites } = await import("#app/data/postgres/content-writes.server.ts");
    return openPostgresWrites(databaseUrl, options);
  }
  const { openSqliteWrites } = await import("#app/data/sqlite/content-writes.server.ts");
  return openSqliteWrites(databaseUrl, options);
}
