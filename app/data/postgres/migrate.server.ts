// Plain-SQL migrations of their own (db/postgres/migrations/*.sql), applied in
// name order, each in a transaction, recorded in schema_migrations. Nodes
// starting together take turns on an advisory lock: the first applies, the
// others find nothing left to do. An empty database is seeded under the same lock.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import type { ContentFile } from "#app/content/schemas.ts";
import type { WriteSummary } from "#app/data/content-writer.ts";
import { writeContentOn } from "#app/data/postgres/transaction.server.ts";
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

/** The migrations of `dir` not yet recorded in schema_migrations (all of them on an empty database). */
export async function pendingMigrations(
  client: pg.PoolClient | pg.Pool,
  dir = postgresMigrationsDir(),
): Promise<string[]> {
  const { rows: table } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  const applied = new Set<string>();
  if (table[0]?.present) {
    const { rows } = await client.query<{ name: string }>("SELECT name FROM schema_migrations");
    for (const row of rows) applied.add(row.name);
  }
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sql") && !applied.has(name))
    .sort();
}

async function applyPending(client: pg.PoolClient, dir: string): Promise<string[]> {
  await client.query(SCHEMA_MIGRATIONS);
  const pending = await pendingMigrations(client, dir);
  for (const name of pending) {
    await client.query("BEGIN");
    try {
      await applyOne(client, dir, name);
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  }
  return pending;
}

const SCHEMA_MIGRATIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY,
    applied_at bigint NOT NULL DEFAULT (extract(epoch FROM now())::bigint)
  )`;

async function applyOne(client: pg.PoolClient, dir: string, name: string): Promise<void> {
  const sql = readFileSync(path.join(dir, name), "utf8");
  try {
    await client.query(sql);
    await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
  } catch (error) {
    throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Applies the pending migrations inside the transaction `client` has open,
 * holding the migration lock until it ends: a dry run reads the schema it
 * would write to, then rolls it all back (DDL is transactional here), so the
 * database is left exactly as it was.
 */
export async function migrateWithinTransaction(
  client: pg.PoolClient,
  dir = postgresMigrationsDir(),
): Promise<string[]> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
  await client.query(SCHEMA_MIGRATIONS);
  const pending = await pendingMigrations(client, dir);
  for (const name of pending) await applyOne(client, dir, name);
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
