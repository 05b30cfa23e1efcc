// Content written into PostgreSQL by tests, on a pool: the production write
// transaction (app/data/postgres/transaction.server.ts writeContentOn, the
// rules of app/data/content-writer.ts) on one of its clients. SQLite's
// counterpart needs no helper: writeContent takes the open database.
import type pg from "pg";
import type { ContentFile } from "#app/content/schemas.ts";
import type { WriteSummary } from "#app/data/content-writer.ts";
import { release, writeContentOn } from "#app/data/postgres/transaction.server.ts";

/** Upserts the content in one transaction; with `dryRun`, reports what it would change and writes nothing. */
export async function writeContentPostgres(
  pool: pg.Pool,
  content: ContentFile,
  options: { dryRun?: boolean } = {},
): Promise<WriteSummary> {
  const client = await pool.connect();
  try {
    return await writeContentOn(client, content, options);
  } finally {
    release(client);
  }
}
