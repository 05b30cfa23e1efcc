import type { Statement } from "better-sqlite3";
import type { Language } from "#app/content/languages.ts";
import type { ContentFile, PageRecord, PostRecord } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import type { Db } from "#app/data/db.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { TermKind } from "#app/data/store.ts";

export type WriteOutcome = "created" | "updated" | "unchanged";

export interface WriteCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** Post counts at the top level; page counts under `pages`. */
export interface WriteSummary extends WriteCounts {
  pages: WriteCounts;
}

/** An idNum the record asks for is held by a post the import does not touch. */
export class IdNumConflictError extends Error {}

interface StoredPost {
  id: number;
  idNum: number;
  status: string;
  postTime: number;
  title: string;
  featureImageUrl: string;
  content: string;
  excerpt: string;
}

/** `language` + newline + `slug`: identifies a post, as the unique index does. */
export function postKey(language: Language, slug: string): string {
  return `${language}\n${slug}`;
}

// A post whose idNum is wanted by another record is parked above every real
// idNum (schemas.ts caps them at MAX_ID_NUM) until its own record comes.
const PARKED_ID_NUM_BASE = 1_000_000_000_000_000;

/**
 * Upserts posts by (language, slug) and pages by slug. The caller owns the
 * transaction; `writeContent` below is the one-transaction form.
 *
 * `incoming` holds the key of every post the whole import will write: an
 * existing post whose idNum a record takes may only give it up if the import
 * also writes that post (with a new idNum). With `dryRun`, nothing is written
 * and the outcomes are what a real run would report.
 */
export class ContentWriter {
  readonly summary: WriteSummary = { created: 0, updated: 0, unchanged: 0, pages: emptyCounts() };
  readonly #dryRun: boolean;
  readonly #incoming: { has(key: string): boolean };
  readonly #termIds = new Map<string, number>();
  readonly #sql: ReturnType<typeof prepare>;

  constructor(db: Db, options: { incoming: { has(key: string): boolean }; dryRun?: boolean }) {
    this.#dryRun = options.dryRun ?? false;
    this.#incoming = options.incoming;
    this.#sql = prepare(db);
  }

  /** `html` is the post's content already sanitized, when the caller did that elsewhere. */
  writePost(post: PostRecord, html = sanitizePostHtml(post.content)): WriteOutcome {
    const sql = this.#sql;
    const existing = sql.findPost.get(post.language, post.slug);
    let outcome: WriteOutcome;
    if (!existing) outcome = "created";
    else if (this.#isUnchanged(existing, post, html)) outcome = "unchanged";
    else outcome = "updated";
    this.summary[outcome]++;
    if (this.#dryRun || outcome === "unchanged") return outcome;

    if (!existing || existing.idNum !== post.idNum) this.#freeIdNum(post, existing?.id);
    const row = { ...post, content: html };
    // Terms are linked while the row is not published, and only then is it
    // published: triggers that follow published posts (the search index) see
    // each post once, not once more per tag. Same transaction, same end state.
    const staged = { ...row, status: "draft" };
    let postId: number;
    if (!existing) {
      postId = Number(sql.insertPost.run(post.status === "publish" ? staged : row).lastInsertRowid);
    } else {
      postId = existing.id;
      if (existing.status === "publish") sql.setStatus.run("draft", postId);
      sql.clearTerms.run(postId);
    }
    for (const name of post.tags) sql.linkTerm.run(postId, this.#termId("tag", name));
    for (const name of post.categories) sql.linkTerm.run(postId, this.#termId("category", name));
    if (existing) sql.updatePost.run({ ...row, id: postId });
    else if (post.status === "publish") sql.setStatus.run("publish", postId);
    return outcome;
  }

  writePage(page: PageRecord, html = sanitizePostHtml(page.content)): WriteOutcome {
    const existing = this.#sql.findPage.get(page.slug);
    const outcome: WriteOutcome = !existing
      ? "created"
      : existing.title === page.title && existing.content === html
        ? "unchanged"
        : "updated";
    this.summary.pages[outcome]++;
    if (!this.#dryRun && outcome !== "unchanged") {
      this.#sql.upsertPage.run({ slug: page.slug, title: page.title, content: html });
    }
    return outcome;
  }

  /** Fails if a post parked by #freeIdNum never got its own record: the caller then rolls back. */
  finish(): void {
    if (this.#dryRun) return;
    const parked = this.#sql.parked.get(PARKED_ID_NUM_BASE);
    if (parked) {
      throw new IdNumConflictError(
        `post ${parked.language} "${parked.slug}" gave up its idNum but was not written`,
      );
    }
  }

  /** Moves the post holding `post.idNum` out of the way, if the import rewrites it too. */
  #freeIdNum(post: PostRecord, ownId: number | undefined): void {
    const holder = this.#sql.findByIdNum.get(post.language, post.idNum);
    if (!holder || holder.id === ownId) return;
    if (!this.#incoming.has(postKey(post.language, holder.slug))) {
      throw new IdNumConflictError(
        `idNum ${post.idNum} (${post.language}) of post "${post.slug}" is already held by post "${holder.slug}"`,
      );
    }
    this.#sql.park.run(PARKED_ID_NUM_BASE + holder.id, holder.id);
  }

  /** Terms are one per kind and slug ("Love" and "love" are one tag); ids are cached by name. */
  #termId(kind: TermKind, name: string): number {
    const key = `${kind}\n${name}`;
    let id = this.#termIds.get(key);
    if (id === undefined) {
      const slug = slugify(name);
      const row = this.#sql.findTerm.get(kind, slug) ?? this.#sql.insertTerm.get(kind, name, slug);
      if (!row) throw new Error(`could not store ${kind} ${name}`);
      id = row.id;
      this.#termIds.set(key, id);
    }
    return id;
  }

  #isUnchanged(stored: StoredPost, post: PostRecord, html: string): boolean {
    return (
      stored.idNum === post.idNum &&
      stored.status === post.status &&
      stored.postTime === post.postTime &&
      stored.title === post.title &&
      stored.featureImageUrl === post.featureImageUrl &&
      stored.content === html &&
      stored.excerpt === post.excerpt &&
      termKeys(this.#sql.postTerms.all(stored.id)) === termKeys(recordTerms(post))
    );
  }
}

function prepare(db: Db) {
  return {
    findPost: db.prepare<[string, string], StoredPost>(
      `SELECT id, id_num AS idNum, status, post_time AS postTime, title,
         feature_image_url AS featureImageUrl, content, excerpt
       FROM posts WHERE language = ? AND slug = ?`,
    ),
    findByIdNum: db.prepare<[string, number], { id: number; slug: string }>(
      "SELECT id, slug FROM posts WHERE language = ? AND id_num = ?",
    ),
    setStatus: db.prepare<[string, number]>("UPDATE posts SET status = ? WHERE id = ?"),
    park: db.prepare<[number, number]>("UPDATE posts SET id_num = ? WHERE id = ?"),
    parked: db.prepare<[number], { language: string; slug: string }>(
      `SELECT language, slug FROM posts
       WHERE language IN ('english', 'hindi', 'marathi') AND id_num >= ? LIMIT 1`,
    ),
    postTerms: db.prepare<[number], { kind: TermKind; name: string }>(
      "SELECT t.kind, t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?",
    ),
    insertPost: db.prepare(
      `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
       VALUES (@language, @idNum, @status, @postTime, @title, @slug, @featureImageUrl, @content, @excerpt)`,
    ),
    updatePost: db.prepare(
      `UPDATE posts SET id_num = @idNum, status = @status, post_time = @postTime, title = @title,
         feature_image_url = @featureImageUrl, content = @content, excerpt = @excerpt, updated_at = unixepoch()
       WHERE id = @id`,
    ),
    findTerm: db.prepare<[TermKind, string], { id: number }>(
      "SELECT id FROM terms WHERE kind = ? AND slug = ?",
    ),
    insertTerm: db.prepare<[TermKind, string, string], { id: number }>(
      "INSERT INTO terms (kind, name, slug) VALUES (?, ?, ?) RETURNING id",
    ),
    clearTerms: db.prepare<[number]>("DELETE FROM post_terms WHERE post_id = ?"),
    linkTerm: db.prepare<[number, number]>(
      "INSERT OR IGNORE INTO post_terms (post_id, term_id) VALUES (?, ?)",
    ),
    findPage: db.prepare<[string], { title: string; content: string }>(
      "SELECT title, content FROM pages WHERE slug = ?",
    ),
    upsertPage: db.prepare(
      `INSERT INTO pages (slug, title, content) VALUES (@slug, @title, @content)
       ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
    ),
  } satisfies Record<string, Statement<never[], unknown> | Statement<unknown[], unknown>>;
}

function emptyCounts(): WriteCounts {
  return { created: 0, updated: 0, unchanged: 0 };
}

// Terms are compared by slug, as they are stored: "Love" and "love" are one tag.
function termKeys(terms: { kind: TermKind; name: string }[]): string {
  return [...new Set(terms.map((t) => `${t.kind}:${slugify(t.name)}`))].sort().join("\n");
}

function recordTerms(post: PostRecord) {
  return [
    ...post.tags.map((name) => ({ kind: "tag" as const, name })),
    ...post.categories.map((name) => ({ kind: "category" as const, name })),
  ];
}

/**
 * Upserts posts (by language and slug) and pages (by slug) in one
 * transaction: readers see the old content or the new, never half.
 */
export function writeContent(db: Db, content: ContentFile): WriteSummary {
  const incoming = new Set(content.posts.map((post) => postKey(post.language, post.slug)));
  return db.transaction(() => {
    const writer = new ContentWriter(db, { incoming });
    for (const post of content.posts) writer.writePost(post);
    for (const page of content.pages) writer.writePage(page);
    writer.finish();
    return writer.summary;
  })();
}
