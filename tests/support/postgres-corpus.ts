// cli/generate.ts's corpus in PostgreSQL, for the query-plan and parity
// tests and the search benchmark (100,000 posts): written by the production
// write path (app/data/postgres/transaction.server.ts contentTransaction, the
// rules of app/data/content-writer.ts over PostgresWriteTarget), so a loaded
// database holds exactly what `sukti import` would have written. The one
// thing done differently is when the indexes are built: secondary indexes
// and foreign keys are dropped before the write and made again once after it
// (decision 071 measures it).
import type pg from "pg";
import { postKey } from "#app/data/content-writer.ts";
import { contentTransaction, release } from "#app/data/postgres/transaction.server.ts";
import { PostgresWriteTarget } from "#app/data/postgres/write-target.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import { generatePosts } from "#cli/generate.ts";

/** The tables the corpus fills, whose secondary indexes and foreign keys wait until it is written. */
const LOADED_TABLES = ["posts", "post_terms", "search_documents", "search_word_trigrams", "search_skeletons"];

/**
 * Writes the corpus (`count` posts of `seed`) into an EMPTY, migrated
 * database, in one transaction, then VACUUM ANALYZE. `vocabulary` then adds
 * that many made-up words to the word table (through the write target, so
 * with their trigrams and skeletons): the corpus has a few hundred distinct
 * words where a real site of this size has tens of thousands, and the
 * lookups should be planned as on a real site.
 */
export async function loadGeneratedCorpus(
  pool: pg.Pool,
  options: { count: number; seed?: number; vocabulary?: number },
): Promise<void> {
  const generate = () => generatePosts({ count: options.count, seed: options.seed ?? 1 });
  const incoming = new Set<string>();
  for (const post of generate()) incoming.add(postKey(post.language, post.slug));
  const deferred = await dropDeferrable(pool, LOADED_TABLES);
  const client = await pool.connect();
  try {
    await contentTransaction(client, { incoming }, async (writer) => {
      for (const post of generate()) await writer.writePost(post, sanitizePostHtml(post.content));
    });
    if (options.vocabulary) {
      await client.query("BEGIN");
      const target = new PostgresWriteTarget(client);
      await target.addWords(syntheticWords(options.vocabulary));
      await target.flush();
      await client.query("COMMIT");
    }
  } finally {
    release(client);
  }
  for (const statement of deferred) await pool.query(statement);
  await pool.query("VACUUM ANALYZE");
}

/**
 * Drops the foreign keys of `tables` and their indexes that back no
 * constraint; returns the statements that make them again (indexes first).
 */
async function dropDeferrable(pool: pg.Pool, tables: readonly string[]): Promise<string[]> {
  const { rows: keys } = await pool.query<{ table: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1::text[])`,
    [tables],
  );
  const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i WHERE i.indrelid::regclass::text = ANY($1::text[])
     AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const key of keys) await pool.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  for (const index of indexes) await pool.query(`DROP INDEX ${index.name}`);
  return [
    ...indexes.map((index) => index.definition),
    ...keys.map((key) => `ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`),
  ];
}

/** Deterministic made-up words: Devanagari syllables, one in four Latin letters. */
function syntheticWords(count: number): string[] {
  const consonants = [..."कखगघचछजझटठडढतथदधनपफबभमयरलवशषसह"];
  const signs = ["", "ा", "ि", "ी", "ु", "ू", "े", "ै", "ो", "ौ", "ं", "्र"];
  const latin = [..."abcdefghijklmnopqrstuvwxyz"];
  let state = 12345;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const pick = (list: readonly string[]) => {
    const item = list[next(list.length)];
    if (item === undefined) throw new Error("syntheticWords: picked past the end of a list");
    return item;
  };
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    let word = "";
    if (i % 4 === 3) for (let j = 3 + next(6); j > 0; j--) word += pick(latin);
    else for (let j = 2 + next(3); j > 0; j--) word += pick(consonants) + pick(signs);
    made.push(word);
  }
  return made;
}
