// ContentStore over PostgreSQL (node-postgres, pooled). The reads are written
// once for both databases (../sql/read-store.ts, ../sql/read-queries.ts) and
// return what SqliteContentStore returns for the same content (bigints arrive
// as numbers: ./pool.server.ts); this file runs them on the pool, as named
// statements (prepared once per connection), with PostgreSQL's overrides.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { SearchResultPage } from "#app/content/model.ts";
import { POSTGRES } from "#app/data/postgres/dialect.ts";
import { LexemeStatistics } from "#app/data/postgres/lexeme-frequencies.server.ts";
import { PostgresSearchBackend } from "#app/data/postgres/search.server.ts";
import type { IdRange } from "#app/data/random-post.ts";
import { READ_BOUNDS as BOUND, prefixSql } from "#app/data/read-bounds.ts";
import { type ReadQueries, type ReadQuery, readQueries } from "#app/data/sql/read-queries.ts";
import { SqlContentStore } from "#app/data/sql/read-store.ts";
import { search } from "#app/search/search.ts";

/** PostgreSQL's planner, where it wants another shape than ../sql/read-queries.ts. */
const OVERRIDES: Partial<ReadQueries> = {
  // The page's ids from posts_language_published_time alone (an index-only
  // scan), then one seek each: sorting the language's rows would read them all.
  sitemapPosts: `SELECT ${prefixSql("p.slug", BOUND.slug)} AS slug, p.updated_at AS "updatedAt" FROM posts p WHERE p.id IN (
      SELECT id FROM posts WHERE language = $1 AND status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.post_time DESC, p.id DESC`,
};

const SQL: ReadQueries = { ...readQueries(POSTGRES), ...OVERRIDES };

/** Reads of PostgreSQL's own, in one round trip where SQLite makes one query per language. */
const OWN = {
  // Each min and max one seek on posts_language_published_id_num.
  idRanges: `SELECT l.language,
      (SELECT min(id_num) FROM posts WHERE language = l.language AND status = 'publish') AS min,
      (SELECT max(id_num) FROM posts WHERE language = l.language AND status = 'publish') AS max
    FROM unnest($1::text[]) WITH ORDINALITY AS l (language, at) ORDER BY l.at`,
  ping: "SELECT 1 FROM schema_migrations LIMIT 1",
} as const;

export class PostgresContentStore extends SqlContentStore {
  readonly #pool: pg.Pool;
  /** What a search reads to choose how to find its matches (search.server.ts). */
  readonly #statistics: LexemeStatistics;

  constructor(pool: pg.Pool) {
    super(POSTGRES);
    this.#pool = pool;
    this.#statistics = new LexemeStatistics(pool);
  }

  get pool(): pg.Pool {
    return this.#pool;
  }

  async #query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    const result = await this.#pool.query<R>({ name: `sukti_r_${name}`, text, values });
    return result.rows;
  }

  protected async rows<R>(query: ReadQuery, args: unknown[] = []): Promise<R[]> {
    return this.#query<R & pg.QueryResultRow>(query, SQL[query], args);
  }

  protected async row<R>(query: ReadQuery, args: unknown[] = []): Promise<R | null> {
    return (await this.rows<R>(query, args))[0] ?? null;
  }

  protected override async idRanges(languages: readonly Language[]): Promise<IdRange[]> {
    const rows = await this.#query<{ language: Language; min: number | null; max: number | null }>(
      "idRanges",
      OWN.idRanges,
      [languages],
    );
    return rows.flatMap(({ language, min, max }) =>
      min === null || max === null ? [] : [{ language, min, max }],
    );
  }

  async searchPosts(
    text: string,
    page: number,
    perPage: number,
    language?: Language,
  ): Promise<SearchResultPage> {
    const backend = new PostgresSearchBackend(this.#pool, language, { statistics: this.#statistics });
    return search(backend, text, page, perPage);
  }

  async ping(): Promise<boolean> {
    try {
      await this.#query("ping", OWN.ping, []);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
