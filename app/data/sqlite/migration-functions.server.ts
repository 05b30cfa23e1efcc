import { htmlToPlainText } from "#app/content/html-text.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import { distinctWords, foldText } from "#app/search/fold.ts";
import { devanagariSkeletons } from "#app/search/roman.ts";

/** A one-function cache of the last few results. */
function remembered(fn: (text: string) => string, size = 8): (text: string) => string {
  const cache = new Map<string, string>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const result = fn(text);
    if (cache.size >= size) cache.delete(cache.keys().next().value as string);
    cache.set(text, result);
    return result;
  };
}

const text = (value: unknown): string =>
  typeof value === "string" ? value : value == null ? "" : String(value);

/**
 * SQL functions for migrations only: db/migrations/20261122010000_search.sql
 * indexes an existing database with them (its backfill), and
 * 20261122030000_search_documents.sql folds the published posts into
 * search_documents with them; both are applied to every new database.
 * Registered by migrate() on the migrating connection;
 * the schema holds nothing that calls them once 20261122020000 has run
 * (search is folded by our code at write time: decision 035), so any other
 * connection, a plain sqlite3 shell included, can write posts.
 */
export function registerMigrationFunctions(db: Db): void {
  const fold = remembered(foldText);
  const plain = remembered(htmlToPlainText);
  const options = { deterministic: true };
  /** The search folding of a text: folded words separated by spaces. */
  db.function("sukti_fold", options, (value: unknown) => fold(text(value)));
  /** The visible text of stored post HTML. */
  db.function("sukti_plain", options, (value: unknown) => plain(text(value)));
  /** JSON array of the distinct words of a folded text. */
  db.function("sukti_words", options, (value: unknown) => JSON.stringify(distinctWords(text(value))));
  /** JSON array of the romanisation skeletons of a folded Devanagari word. */
  db.function("sukti_skeletons", options, (value: unknown) =>
    JSON.stringify(devanagariSkeletons(text(value))),
  );
}
