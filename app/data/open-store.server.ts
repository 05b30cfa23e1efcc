// Which database serves: DATABASE_URL picks it. `postgres://` (or
// `postgresql://`) is PostgreSQL (app/data/postgres/), anything else a SQLite
// file (app/data/sqlite/): `file:path`, `file:///abs/path` or a bare path.
// Nothing outside app/data/ knows which one it got. Each adapter is loaded
// only when chosen, so a SQLite site never loads pg, and the other way round.
import type { ServedStore } from "#app/data/store.ts";

export const DEFAULT_DATABASE_URL = "file:data/sukti.db";

export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//i.test(databaseUrl);
}

/** DATABASE_URL as messages and logs may show it: never a password. */
export function describeDatabaseUrl(databaseUrl: string): string {
  if (!isPostgresUrl(databaseUrl)) return databaseUrl;
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    url.searchParams.delete("password");
    return url.toString();
  } catch {
    return "postgres://…";
  }
}

/**
 * Opens the store the server reads, prepared: a missing SQLite file or an
 * empty PostgreSQL database is created, migrated and filled with the demo
 * content; one that holds posts is only migrated, never reseeded.
 * `integrityCheck` (the server's start, once per site): a SQLite file that
 * fails SQLite's quick_check is refused (PostgreSQL checks its own pages).
 */
export async function openServedStore(
  databaseUrl = DEFAULT_DATABASE_URL,
  options: { integrityCheck?: boolean } = {},
): Promise<ServedStore> {
  if (isPostgresUrl(databaseUrl)) {
    const { openPostgresStore } = await import("#app/data/postgres/served-store.server.ts");
    return openPostgresStore(databaseUrl);
  }
  const { openSqliteStore } = await import("#app/data/sqlite/served-store.server.ts");
  return openSqliteStore(databaseUrl, options);
}
