// SyncTarget (../sync-state.ts) on PostgreSQL, on the caller's transaction's client.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { TermKind } from "#app/content/model.ts";
import { type ChangeSet, renamedPostChanges } from "#app/data/cache-tags.ts";
import type { PostgresWriteTarget } from "#app/data/postgres/write-target.server.ts";
import type { SyncPostState, SyncSourceState, SyncTarget } from "#app/data/sync-state.ts";

export class PostgresSyncTarget implements SyncTarget {
  readonly #client: pg.PoolClient;
  /** The write's change set (decision 057): a rename names what showed the old address. */
  readonly #changes: ChangeSet;
  /**
   * The writer's target, which holds new posts in a batch (decision 059):
   * written before a read of posts here, and told when a rename changed them.
   */
  readonly #target: Pick<PostgresWriteTarget, "flush" | "postsChangedOutside">;
  contentChanged = false;

  constructor(
    client: pg.PoolClient,
    changes: ChangeSet,
    target: Pick<PostgresWriteTarget, "flush" | "postsChangedOutside">,
  ) {
    this.#client = client;
    this.#changes = changes;
    this.#target = target;
  }

  async source(url: string): Promise<SyncSourceState | null> {
    const { rows } = await this.#client.query<SyncSourceState>(
      `SELECT url, last_modified_gmt AS "lastModifiedGmt", last_full_read_at::float8 AS "lastFullReadAt",
         full_reads AS "fullReads" FROM sync_sources WHERE url = $1`,
      [url],
    );
    return rows[0] ?? null;
  }

  async posts(url: string): Promise<SyncPostState[]> {
    const { rows } = await this.#client.query<Omit<SyncPostState, "published"> & { published: number }>(
      `SELECT wp_id::float8 AS "wpId", language, slug, modified_gmt AS "modifiedGmt", record, published
       FROM sync_posts WHERE source = $1 ORDER BY wp_id`,
      [url],
    );
    return rows.map((row) => ({ ...row, published: row.published === 1 }));
  }

  async saveSource(state: SyncSourceState): Promise<void> {
    await this.#client.query(
      `INSERT INTO sync_sources (url, last_modified_gmt, last_full_read_at, full_reads) VALUES ($1, $2, $3, $4)
       ON CONFLICT (url) DO UPDATE SET last_modified_gmt = excluded.last_modified_gmt,
         last_full_read_at = excluded.last_full_read_at, full_reads = excluded.full_reads`,
      [state.url, state.lastModifiedGmt, state.lastFullReadAt, state.fullReads],
    );
  }

  async savePost(url: string, post: SyncPostState): Promise<void> {
    await this.#client.query(
      `INSERT INTO sync_posts (source, wp_id, language, slug, modified_gmt, record, published)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (source, wp_id) DO UPDATE SET language = excluded.language, slug = excluded.slug,
         modified_gmt = excluded.modified_gmt, record = excluded.record, published = excluded.published`,
      [url, post.wpId, post.language, post.slug, post.modifiedGmt, post.record, post.published ? 1 : 0],
    );
  }

  async findPost(language: Language, slug: string) {
    await this.#target.flush();
    const { rows } = await this.#client.query<{ id: number; idNum: number; translationKey: string | null }>(
      `SELECT id::float8 AS id, id_num::float8 AS "idNum", translation_key AS "translationKey"
       FROM posts WHERE language = $1 AND slug = $2`,
      [language, slug],
    );
    return rows[0] ?? null;
  }

  async findByIdNum(language: Language, idNum: number) {
    await this.#target.flush();
    const { rows } = await this.#client.query<{ slug: string }>(
      "SELECT slug FROM posts WHERE language = $1 AND id_num = $2",
      [language, idNum],
    );
    return rows[0] ?? null;
  }

  async findTranslation(translationKey: string, language: Language) {
    await this.#target.flush();
    const { rows } = await this.#client.query<{ slug: string }>(
      "SELECT slug FROM posts WHERE translation_key = $1 AND language = $2",
      [translationKey, language],
    );
    return rows[0] ?? null;
  }

  async renamePost(language: Language, from: string, to: string): Promise<void> {
    await this.#target.flush();
    const {
      rows: [post],
    } = await this.#client.query<{ id: number; status: string; person: string | null }>(
      `SELECT p.id, p.status, people.slug AS person FROM posts p
       LEFT JOIN people ON people.id = p.person_id WHERE p.language = $1 AND p.slug = $2`,
      [language, from],
    );
    await this.#client.query(
      `UPDATE posts SET slug = $1, updated_at = extract(epoch FROM clock_timestamp())::bigint
       WHERE language = $2 AND slug = $3`,
      [to, language, from],
    );
    this.contentChanged = true;
    this.#target.postsChangedOutside();
    if (post?.status !== "publish") return;
    const { rows: terms } = await this.#client.query<{ kind: TermKind; slug: string }>(
      "SELECT t.kind, t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = $1",
      [post.id],
    );
    renamedPostChanges(this.#changes, { language, from, to, terms, personSlug: post.person });
  }
}
