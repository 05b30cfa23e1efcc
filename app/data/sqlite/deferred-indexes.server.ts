// A first large import into SQLite builds the indexes only the site reads
// after its rows (decision 092, as on PostgreSQL).
import type { Db } from "#app/data/sqlite/database.server.ts";

/**
 * Indexes only the site's reads use: none of the writer's statements, nor
 * the triggers they fire, reads through them. Each is dropped for a first
 * load and made again from its own statement (read from sqlite_schema, so
 * the migrations stay its only source) before the load commits. The unique
 * indexes stay (they check the rows), and so do post_terms_term and
 * posts_person_published_time, which the writer reads during an import.
 */
export const DEFERRED_INDEXES = [
  "posts_slug",
  "posts_id_language",
  "posts_published_id",
  "posts_published_time",
  "posts_language_published_time",
  "posts_language_published_id_num",
] as const;

/** Posts a write inserts into a database that held none before it drops them (a small write never does). */
export const DEFER_AFTER_POSTS = 200;

/**
 * Drops the deferred indexes, in the caller's transaction (readers keep
 * reading the database as it was, indexes included, until the commit);
 * returns the statements that make them again.
 */
export function dropDeferredIndexes(db: Db): string[] {
  const indexes = db
    .prepare<string[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL
        AND name IN (${DEFERRED_INDEXES.map(() => "?").join(", ")}) ORDER BY name`,
    )
    .all(...DEFERRED_INDEXES);
  for (const { name } of indexes) db.exec(`DROP INDEX "${name.replaceAll('"', '""')}"`);
  return indexes.map((index) => index.sql);
}

/** Makes again what dropDeferredIndexes dropped, in the same transaction. */
export function buildDeferredIndexes(db: Db, statements: readonly string[]): void {
  for (const statement of statements) db.exec(statement);
}
