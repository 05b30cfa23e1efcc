import type { ContentFile, PostRecord } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import type { Db } from "#app/data/db.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { TermKind } from "#app/data/store.ts";

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

export interface WriteSummary {
  created: number;
  updated: number;
  unchanged: number;
  pages: number;
}

/**
 * Upserts posts (by language and slug) and pages (by slug) in one
 * transaction: readers see the old content or the new, never half.
 */
export function writeContent(db: Db, content: ContentFile): WriteSummary {
  const findPost = db.prepare<[string, string], StoredPost>(
    `SELECT id, id_num AS idNum, status, post_time AS postTime, title,
       feature_image_url AS featureImageUrl, content, excerpt
     FROM posts WHERE language = ? AND slug = ?`,
  );
  const postTerms = db.prepare<[number], { kind: TermKind; name: string }>(
    `SELECT t.kind, t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?`,
  );
  const insertPost = db.prepare(
    `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
     VALUES (@language, @idNum, @status, @postTime, @title, @slug, @featureImageUrl, @content, @excerpt)`,
  );
  const updatePost = db.prepare(
    `UPDATE posts SET id_num = @idNum, status = @status, post_time = @postTime, title = @title,
       feature_image_url = @featureImageUrl, content = @content, excerpt = @excerpt, updated_at = unixepoch()
     WHERE id = @id`,
  );
  const upsertTerm = db.prepare<[TermKind, string, string], { id: number }>(
    `INSERT INTO terms (kind, name, slug) VALUES (?, ?, ?)
     ON CONFLICT (kind, slug) DO UPDATE SET name = name RETURNING id`,
  );
  const clearTerms = db.prepare("DELETE FROM post_terms WHERE post_id = ?");
  const linkTerm = db.prepare("INSERT OR IGNORE INTO post_terms (post_id, term_id) VALUES (?, ?)");
  const upsertPage = db.prepare(
    `INSERT INTO pages (slug, title, content) VALUES (@slug, @title, @content)
     ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
  );

  const summary: WriteSummary = { created: 0, updated: 0, unchanged: 0, pages: 0 };

  const termIds = (post: PostRecord) => [
    ...post.tags.map((name) => termId("tag", name)),
    ...post.categories.map((name) => termId("category", name)),
  ];
  const termId = (kind: TermKind, name: string) => {
    const clean = name.normalize("NFC").trim();
    const row = upsertTerm.get(kind, clean, slugify(clean));
    if (!row) throw new Error(`could not store ${kind} ${clean}`);
    return row.id;
  };
  const termKeys = (terms: { kind: TermKind; name: string }[]) =>
    terms
      .map((t) => `${t.kind}:${t.name.normalize("NFC").trim()}`)
      .sort()
      .join("\n");
  const recordTerms = (post: PostRecord) => [
    ...post.tags.map((name) => ({ kind: "tag" as const, name })),
    ...post.categories.map((name) => ({ kind: "category" as const, name })),
  ];
  const isUnchanged = (stored: StoredPost, post: PostRecord, html: string) =>
    stored.idNum === post.idNum &&
    stored.status === post.status &&
    stored.postTime === post.postTime &&
    stored.title === post.title &&
    stored.featureImageUrl === post.featureImageUrl &&
    stored.content === html &&
    stored.excerpt === post.excerpt &&
    termKeys(postTerms.all(stored.id)) === termKeys(recordTerms(post));

  db.transaction(() => {
    for (const post of content.posts) {
      const html = sanitizePostHtml(post.content);
      const row = { ...post, content: html };
      const existing = findPost.get(post.language, post.slug);
      let postId: number;
      if (!existing) {
        postId = Number(insertPost.run(row).lastInsertRowid);
        summary.created++;
      } else if (isUnchanged(existing, post, html)) {
        summary.unchanged++;
        continue;
      } else {
        postId = existing.id;
        updatePost.run({ ...row, id: postId });
        summary.updated++;
      }
      clearTerms.run(postId);
      for (const id of termIds(post)) linkTerm.run(postId, id);
    }
    for (const page of content.pages) {
      upsertPage.run({ ...page, content: sanitizePostHtml(page.content) });
      summary.pages++;
    }
  })();
  return summary;
}
