import type { Db } from "#app/data/db.server.ts";
import type { PostListPage, PostSummary } from "#app/data/store.ts";

const SUMMARY_COLUMNS = `p.language, p.id_num AS idNum, p.slug, p.title,
  p.feature_image_url AS featureImageUrl, p.post_time AS postTime, p.excerpt`;

/** Published posts matching `text`, best first. A plain substring match for now. */
export function searchPublishedPosts(db: Db, text: string, page: number, perPage: number): PostListPage {
  const pattern = `%${text.normalize("NFC").replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = db
    .prepare(
      `SELECT ${SUMMARY_COLUMNS} FROM posts p
       WHERE p.status = 'publish'
         AND (p.title LIKE @pattern ESCAPE '\\' OR p.content LIKE @pattern ESCAPE '\\' OR p.excerpt LIKE @pattern ESCAPE '\\')
       ORDER BY (p.title LIKE @pattern ESCAPE '\\') DESC, p.post_time DESC, p.id DESC
       LIMIT @limit OFFSET @offset`,
    )
    .all({ pattern, limit: perPage + 1, offset: (page - 1) * perPage }) as PostSummary[];
  return { posts: rows.slice(0, perPage), page, hasNext: rows.length > perPage };
}
