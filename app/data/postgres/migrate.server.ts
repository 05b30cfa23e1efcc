// Plain-SQL migrations of their own (db/postgres/migrations/*.sql), applied in
// name order, each in a transaction, recorded in schema_migrations. Nodes
// starting together take turns on an advisory lock: the first applies, the
// others find nothing left to do. An empty database is seeded under the same lock.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import type { ContentFile } from "#app/content/schemas.ts";
import type { WriteSummary } from "#app/data/content-writer.ts";
import { writeContentOn } from "#app/data/postgres/writes.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";

/** Session lock held while migrating or seeding. */
const MIGRATION_LOCK = 7_463_220_261_121;

export function postgresMigrationsDir(): string {
  return path.join(projectRoot(), "db", "postgres", "migrations");
}

/** Runs `work` holding the migration lock on a client of its own. */
export async function withMigrationLock<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      return await work(client);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {
        broken = true;
      });
    }
  } finally {
    client.release(broken);
  }
}

async function applyPending(client: pg.PoolClient, dir: string): Promise<string[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at bigint NOT NULL DEFAULT (extract(epoch FROM now())::bigint)
  )`);
  const { rows } = await client.query<{ name: string }>("SELECT name FROM schema_migrations");
  const applied = new Set(rows.map((row) => row.name));
  const pending = readdirSync(dir)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
  for (const name of pending) {
    const sql = readFileSync(path.join(dir, name), "utf8");
    await client.query("BEGIN");
    try {
      await client.query(sql);
      await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return pending;
}

/** Applies each migration not yet applied; returns their names (none the second time). */
export async function migratePostgres(pool: pg.Pool, dir = postgresMigrationsDir()): Promise<string[]> {
  return withMigrationLock(pool, (client) => applyPending(client, dir));
}

/**
 * Loads `content` (the demo content) only when the database holds no post,
 * under the migration lock: nodes starting together seed once, and a
 * database that holds posts is never reseeded. Returns the summary, or null
 * when nothing was seeded.
 */
export async function seedIfEmpty(
  pool: pg.Pool,
  content: ContentFile | (() => ContentFile),
): Promise<WriteSummary | null> {
  return withMigrationLock(pool, async (client) => {
    const { rows } = await client.query("SELECT 1 FROM posts LIMIT 1");
    if (rows.length > 0) return null;
    return writeContentOn(client, typeof content === "function" ? content() : content);
  });
}

/** What a starting node does: migrate, then seed an empty database (`content` is read only then). */
export async function preparePostgres(
  pool: pg.Pool,
  content: () => ContentFile,
): Promise<{ migrated: string[]; seeded: WriteSummary | null }> {
  const migrated = await migratePostgres(pool);
  const seeded = await seedIfEmpty(pool, content);
  return { migrated, seeded };
}
