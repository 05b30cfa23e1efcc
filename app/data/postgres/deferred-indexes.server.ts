// A first large import into PostgreSQL builds some indexes and the foreign
// keys after its rows, as pg_restore does (decision 092).
import type pg from "pg";

/**
 * Indexes only the site's reads use: none of the writer's statements, nor
 * the triggers they fire, reads through them. Each is dropped for a first
 * load and built again from its own definition (read from the catalog, so
 * the migrations stay its only source) before the load commits. The unique
 * indexes stay (they check the rows and answer ON CONFLICT), and so do
 * post_terms_term and posts_person_published_time, which termPublished and
 * personPosts read during an import.
 */
export const DEFERRED_INDEXES = [
  "posts_slug",
  "posts_published_id",
  "posts_published_time",
  "posts_language_published_time",
  "posts_language_published_id_num",
  "search_documents_document",
] as const;

/** Tables whose foreign keys are checked once, at the end, instead of row by row. */
export const DEFERRED_KEY_TABLES = ["posts", "post_terms", "search_documents"] as const;

/** What was dropped, to be made again: each statement as the catalog wrote it. */
export interface DeferredIndexes {
  statements: string[];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Whether another client is connected to this database: a site serving it
 * (its content-version listener stays connected), another command. A first
 * load then writes through its indexes, as the drop would make that
 * client's reads of the loaded tables wait for the load's commit.
 */
export async function othersConnected(client: pg.PoolClient | pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ others: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend') AS others`,
  );
  return rows[0]?.others === true;
}

/**
 * Drops the deferred indexes and the foreign keys of the loaded tables, in
 * the caller's transaction (it takes their tables' ACCESS EXCLUSIVE lock
 * until the commit: readers wait for the load). Returns the statements
 * that make them again; null, with nothing dropped, when this role may not
 * (it writes the tables but does not own them): the load then writes
 * through them.
 */
export async function dropDeferredIndexes(
  client: pg.PoolClient | pg.Client,
): Promise<DeferredIndexes | null> {
  await client.query("SAVEPOINT sukti_deferred_indexes");
  try {
    const deferred = await drop(client);
    await client.query("RELEASE SAVEPOINT sukti_deferred_indexes");
    return deferred;
  } catch (error) {
    await client.query("ROLLBACK TO SAVEPOINT sukti_deferred_indexes");
    // 42501: insufficient privilege (must be owner). Anything else is the load's failure.
    if ((error as { code?: string }).code === "42501") return null;
    throw error;
  }
}

async function drop(client: pg.PoolClient | pg.Client): Promise<DeferredIndexes> {
  const indexes = await client.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'i' AND n.nspname = current_schema() AND c.relname = ANY($1::text[])
      ORDER BY c.relname`,
    [DEFERRED_INDEXES],
  );
  const keys = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT t.relname AS "table", k.conname AS name, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND t.relname = ANY($1::text[])
      ORDER BY t.relname, k.conname`,
    [DEFERRED_KEY_TABLES],
  );
  for (const key of keys.rows)
    await client.query(`ALTER TABLE ${quoted(key.table)} DROP CONSTRAINT ${quoted(key.name)}`);
  for (const index of indexes.rows) await client.query(`DROP INDEX ${quoted(index.name)}`);
  return {
    statements: [
      ...indexes.rows.map((index) => index.definition),
      ...keys.rows.map(
        (key) => `ALTER TABLE ${quoted(key.table)} ADD CONSTRAINT ${quoted(key.name)} ${key.definition}`,
      ),
    ],
  };
}

/**
 * Builds again what dropDeferredIndexes dropped, in the same transaction: a
 * row breaking a foreign key fails here, and the whole load rolls back.
 */
export async function buildDeferredIndexes(
  client: pg.PoolClient | pg.Client,
  deferred: DeferredIndexes,
): Promise<void> {
  for (const statement of deferred.statements) await client.query(statement);
}
