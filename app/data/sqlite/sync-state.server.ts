// SyncTarget (../sync-state.ts) on SQLite, inside the caller's transaction. A
// database from before the sync tables (a dry run does not migrate) reads as
// holding no sync state.
import type { Language } from "#app/content/languages.ts";
import type { TermKind } from "#app/content/model.ts";
import { type ChangeSet, renamedPostChanges } from "#app/data/cache-tags.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import type { SyncPostState, SyncSourceState, SyncTarget } from "#app/data/sync-state.ts";

interface SyncPostRow {
  wpId: number;
  language: Language;
  slug: string;
  modifiedGmt: string;
  record: string;
  published: number;
}

export class SqliteSyncTarget implements SyncTarget {
  readonly #db: Db;
  readonly #ready: boolean;
  /** The write's change set (decision 057): a rename names what showed the old address. */
  readonly #changes: ChangeSet;
  contentChanged = false;

  constructor(db: Db, changes: ChangeSet) {
    this.#db = db;
    this.#changes = changes;
    this.#ready =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sync_posts'").get() !==
      undefined;
  }

  async source(url: string): Promise<SyncSourceState | null> {
    if (!this.#ready) return null;
    return (
      (this.#db
        .prepare(
          `SELECT url, last_modified_gmt AS lastModifiedGmt, last_full_read_at AS lastFullReadAt,
             full_reads AS fullReads FROM sync_sources WHERE url = ?`,
        )
        .get(url) as SyncSourceState | undefined) ?? null
    );
  }

  async posts(url: string): Promise<SyncPostState[]> {
    if (!this.#ready) return [];
    const rows = this.#db
      .prepare(
        `SELECT wp_id AS wpId, language, slug, modified_gmt AS modifiedGmt, record, published
         FROM sync_posts WHERE source = ? ORDER BY wp_id`,
      )
      .all(url) as SyncPostRow[];
    return rows.map((row) => ({ ...row, published: row.published === 1 }));
  }

  async saveSource(state: SyncSourceState): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO sync_sources (url, last_modified_gmt, last_full_read_at, full_reads) VALUES (?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET last_modified_gmt = excluded.last_modified_gmt,
           last_full_read_at = excluded.last_full_read_at, full_reads = excluded.full_reads`,
      )
      .run(state.url, state.lastModifiedGmt, state.lastFullReadAt, state.fullReads);
  }

  async savePost(url: string, post: SyncPostState): Promise<void> {
    this.#db
      .prepare(
        `INSERT INTO sync_posts (source, wp_id, language, slug, modified_gmt, record, published)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (source, wp_id) DO UPDATE SET language = excluded.language, slug = excluded.slug,
           modified_gmt = excluded.modified_gmt, record = excluded.record, published = excluded.published`,
      )
      .run(url, post.wpId, post.language, post.slug, post.modifiedGmt, post.record, post.published ? 1 : 0);
  }

  async findPost(language: Language, slug: string) {
    return (
      (this.#db
        .prepare(
          "SELECT id, id_num AS idNum, translation_key AS translationKey FROM posts WHERE language = ? AND slug = ?",
        )
        .get(language, slug) as { id: number; idNum: number; translationKey: string | null } | undefined) ??
      null
    );
  }

  async findByIdNum(language: Language, idNum: number) {
    return (
      (this.#db.prepare("SELECT slug FROM posts WHERE language = ? AND id_num = ?").get(language, idNum) as
        | { slug: string }
        | undefined) ?? null
    );
  }

  async findTranslation(translationKey: string, language: Language) {
    return (
      (this.#db
        .prepare("SELECT slug FROM posts WHERE translation_key = ? AND language = ?")
        .get(translationKey, language) as { slug: string } | undefined) ?? null
    );
  }

  async renamePost(language: Language, from: string, to: string): Promise<void> {
    const post = this.#db
      .prepare(
        `SELECT p.id, p.status, people.slug AS person FROM posts p
         LEFT JOIN people ON people.id = p.person_id WHERE p.language = ? AND p.slug = ?`,
      )
      .get(language, from) as { id: number; status: string; person: string | null } | undefined;
    this.#db
      .prepare("UPDATE posts SET slug = ?, updated_at = unixepoch() WHERE language = ? AND slug = ?")
      .run(to, language, from);
    this.contentChanged = true;
    if (post?.status !== "publish") return;
    const terms = this.#db
      .prepare(
        "SELECT t.kind, t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?",
      )
      .all(post.id) as { kind: TermKind; slug: string }[];
    renamedPostChanges(this.#changes, { language, from, to, terms, personSlug: post.person });
  }
}
