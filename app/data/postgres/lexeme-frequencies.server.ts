// How often the lexemes of search_documents.document occur, as PostgreSQL's
// own statistics hold them (ANALYZE's most common elements of a tsvector
// column: pg_stats.most_common_elems and most_common_elem_freqs): what a
// search reads to choose between walking the newest documents and asking the
// GIN index (search.server.ts, decision 100). Read once, then again at most
// every REFRESH_MS in the background: a search never waits for a refresh.
import type pg from "pg";

/** A lexeme's share of the documents (0–1); one the statistics do not list, at most the least listed share. */
export interface LexemeFrequencies {
  of(lexeme: string): number;
}

/** ANALYZE runs when a tenth of a table has changed (autovacuum): the statistics move slowly. */
const REFRESH_MS = 5 * 60_000;

// most_common_elem_freqs holds each listed lexeme's share, then the least and the greatest of them.
const READ = `SELECT most_common_elems::text::text[] AS lexemes, most_common_elem_freqs AS shares
  FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'search_documents' AND attname = 'document'`;

async function read(db: pg.Pool): Promise<LexemeFrequencies | null> {
  const { rows } = await db.query<{ lexemes: string[] | null; shares: number[] | null }>(READ);
  const { lexemes, shares } = rows[0] ?? { lexemes: null, shares: null };
  // Not analysed yet, or no lexeme common enough to be listed.
  if (lexemes === null || shares === null || shares.length < lexemes.length + 2) return null;
  const listed = new Map(lexemes.map((lexeme, i) => [lexeme, shares[i] ?? 1]));
  const least = shares[lexemes.length] ?? 1;
  return { of: (lexeme) => listed.get(lexeme) ?? least };
}

/** One per pool: the statistics as last read. */
export class LexemeStatistics {
  readonly #db: pg.Pool;
  #value: LexemeFrequencies | null = null;
  #first: Promise<LexemeFrequencies | null> | null = null;
  #readAt = 0;
  #refreshing = false;

  constructor(db: pg.Pool) {
    this.#db = db;
  }

  /** Null while PostgreSQL has none (a table never analysed) or cannot be asked. */
  async frequencies(): Promise<LexemeFrequencies | null> {
    if (this.#first === null) {
      this.#readAt = Date.now();
      this.#first = this.#read();
      return this.#first;
    }
    if (!this.#refreshing && Date.now() - this.#readAt > REFRESH_MS) {
      this.#refreshing = true;
      this.#readAt = Date.now();
      void this.#read().finally(() => {
        this.#refreshing = false;
      });
    }
    return this.#value ?? this.#first;
  }

  async #read(): Promise<LexemeFrequencies | null> {
    try {
      this.#value = await read(this.#db);
    } catch {
      // Kept as it was: the search goes on without them (search.server.ts walks then asks the index).
    }
    return this.#value;
  }
}
