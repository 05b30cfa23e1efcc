// ContentStore over SQLite (better-sqlite3): every read the site makes,
// published posts only. The reads are written once for both databases
// (../sql/read-store.ts, ../sql/read-queries.ts); this file runs them with
// better-sqlite3 and adds what only SQLite has (its change log and
// data_version). The served store (./served-store.server.ts) wraps it.
import type { Statement } from "better-sqlite3";
import type { Language } from "#app/content/languages.ts";
import { type ContentChange, changesAfter, MAX_CHANGES_READ } from "#app/data/cache-tags.ts";
import { type ReadQueries, type ReadQuery, readQueries } from "#app/data/sql/read-queries.ts";
import { SqlContentStore } from "#app/data/sql/read-store.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import { SQLITE } from "#app/data/sqlite/dialect.ts";
import { SqliteSearchBackend } from "#app/data/sqlite/search.server.ts";
import { search } from "#app/search/search.ts";

/**
 * Every read of ../sql/read-queries.ts as written: SQLite's planner seeks the
 * index made for each (./query-plans.server.test.ts), no override needed.
 */
const SQL: ReadQueries = readQueries(SQLITE);

/** Numbered parameters (?1, ?2 …) as better-sqlite3 binds them: by name. */
function numbered(args: unknown[]): Record<number, unknown> {
  const bound: Record<number, unknown> = {};
  for (let i = 0; i < args.length; i++) bound[i + 1] = args[i];
  return bound;
}

/** ContentStore over better-sqlite3; each statement prepared once. */
export class SqliteContentStore extends SqlContentStore {
  readonly #db: Db;
  readonly #statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(db: Db) {
    super(SQLITE);
    this.#db = db;
  }

  #stmt(sql: string) {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare<unknown[], unknown>(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  protected async rows<R>(query: ReadQuery, args: unknown[] = []): Promise<R[]> {
    const statement = this.#stmt(SQL[query]);
    return (args.length === 0 ? statement.all() : statement.all(numbered(args))) as R[];
  }

  protected async row<R>(query: ReadQuery, args: unknown[] = []): Promise<R | null> {
    const statement = this.#stmt(SQL[query]);
    return ((args.length === 0 ? statement.get() : statement.get(numbered(args))) as R | undefined) ?? null;
  }

  async searchPosts(text: string, page: number, perPage: number, language?: Language) {
    return search(new SqliteSearchBackend(this.#db, language), text, page, perPage);
  }

  /**
   * The change log (decision 057) past `since` (a seq; null: only where it
   * ends), and how many writes came from outside sukti's writers.
   */
  changeLog(since: number | null): { external: number; last: number; changes: ContentChange[] | null } {
    const external = this.#stmt("SELECT external FROM content_epoch WHERE id = 1").pluck().get() as number;
    const end = () => this.#stmt("SELECT coalesce(max(seq), 0) FROM content_changes").pluck().get() as number;
    if (since === null) return { external, last: end(), changes: [] };
    const rows = this.#stmt(
      `SELECT seq, tags, removal FROM content_changes WHERE seq > ? ORDER BY seq LIMIT ${MAX_CHANGES_READ + 1}`,
    ).all(since) as { seq: number; tags: string; removal: number }[];
    const changes = changesAfter(since, rows);
    return { external, last: changes === null ? end() : (rows.at(-1)?.seq ?? since), changes };
  }

  /** Changes whenever another connection (an import, say) commits a write. */
  contentVersion(): number {
    return this.#stmt("PRAGMA data_version").pluck().get() as number;
  }

  async ping(): Promise<boolean> {
    try {
      // Reads a page of the file, so a broken file fails here.
      this.#stmt("SELECT count(*) FROM schema_migrations").get();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.#statements.clear();
    this.#db.close();
  }
}
