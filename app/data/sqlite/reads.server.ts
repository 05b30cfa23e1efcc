// ContentStore over SQLite (better-sqlite3): every read the site makes,
// published posts only. The served store (./served-store.server.ts) wraps it.
import type { Statement } from "better-sqlite3";
import { collectionEntries } from "#app/content/collection-code.ts";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import type {
  AdjacentPosts,
  FeedFilter,
  FeedPost,
  LanguageSummary,
  PersonCount,
  Post,
  PostFilter,
  PostListPage,
  PostSummary,
  SitemapPost,
  SitemapTerm,
  SitePage,
  TagCount,
  Term,
  TermKind,
  Translation,
  Website,
} from "#app/content/model.ts";
import type { RandomSource } from "#app/content/sampling.ts";
import { type ContentChange, changesAfter, MAX_CHANGES_READ } from "#app/data/cache-tags.ts";
import { completePost, type PostRow } from "#app/data/post-row.ts";
import { pickRandomPost, type RandomPostReads } from "#app/data/random-post.ts";
import { READ_BOUNDS as BOUND, boundedContent, cutSql, prefixSql } from "#app/data/read-bounds.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import { SqliteSearchBackend } from "#app/data/sqlite/search.server.ts";
import type { ContentStore } from "#app/data/store.ts";
import { search } from "#app/search/search.ts";

// Every text column is cut in the SELECT (../read-bounds.ts): an oversized
// value written into the database never reaches JavaScript whole.
const SUMMARY_COLUMNS = `p.language, p.id_num AS idNum, ${prefixSql("p.slug", BOUND.slug)} AS slug,
  ${cutSql("p.title", BOUND.title)} AS title,
  ${prefixSql("p.feature_image_url", BOUND.url)} AS featureImageUrl, p.post_time AS postTime,
  ${cutSql("p.excerpt", BOUND.excerpt)} AS excerpt`;

/**
 * A post's row with what completes it into a Post (its terms, source and
 * translations): its text read one character past `contentBound`, so that
 * boundedContent sees whether it was cut.
 */
const postColumns = (contentBound: number) => `p.id, ${SUMMARY_COLUMNS},
  ${prefixSql("p.content", contentBound + 1)} AS content, ${prefixSql("p.audio_url", BOUND.url)} AS audioUrl,
  p.translation_key AS translationKey,
  ${cutSql("p.work", BOUND.source)} AS work, ${cutSql("p.reference", BOUND.source)} AS reference,
  ${prefixSql("pe.slug", BOUND.slug)} AS personSlug, ${cutSql("pe.name_english", BOUND.name)} AS nameEnglish,
  ${cutSql("pe.name_hindi", BOUND.name)} AS nameHindi, ${cutSql("pe.name_marathi", BOUND.name)} AS nameMarathi`;
const POST_COLUMNS = postColumns(BOUND.content);
const FEED_POST_COLUMNS = postColumns(BOUND.feedContent);

const TERM_COLUMNS = `t.kind, ${cutSql("t.name", BOUND.name)} AS name, ${prefixSql("t.slug", BOUND.slug)} AS slug`;

const TRANSLATION_COLUMNS = `language, ${prefixSql("slug", BOUND.slug)} AS slug, ${cutSql("title", BOUND.title)} AS title`;

const PERSON_COUNT_COLUMNS = `${prefixSql("pe.slug", BOUND.slug)} AS slug,
  json_object('english', ${cutSql("pe.name_english", BOUND.name)}, 'hindi', ${cutSql("pe.name_hindi", BOUND.name)},
  'marathi', ${cutSql("pe.name_marathi", BOUND.name)}) AS names, count(*) AS count, max(p.updated_at) AS updatedAt,
  json_object('english', sum(p.language = 'english'), 'hindi', sum(p.language = 'hindi'),
  'marathi', sum(p.language = 'marathi')) AS counts,
  json_object('english', ${cutSql("pe.about_english", BOUND.about)}, 'hindi', ${cutSql("pe.about_hindi", BOUND.about)},
  'marathi', ${cutSql("pe.about_marathi", BOUND.about)}) AS about`;

function personCount(row: {
  slug: string;
  names: string;
  count: number;
  updatedAt: number;
  counts: string;
  about: string;
}): PersonCount {
  return {
    ...row,
    names: JSON.parse(row.names),
    counts: JSON.parse(row.counts),
    about: JSON.parse(row.about),
  };
}

/** ContentStore over better-sqlite3. Every statement names status = 'publish'. */
export class SqliteContentStore implements ContentStore {
  readonly #db: Db;
  readonly #statements = new Map<string, Statement<unknown[], unknown>>();

  constructor(db: Db) {
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

  async getWebsite(): Promise<Website> {
    const row = this.#stmt(
      "SELECT max_id_eng AS maxIdEng, max_id_hin AS maxIdHin, max_id_mr AS maxIdMr FROM website",
    ).get() as Website;
    return row;
  }

  async latestPost(): Promise<PostSummary | null> {
    const row = this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.status = 'publish'
       ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    ).get() as PostSummary | undefined;
    return row ?? null;
  }

  async samplePosts(language: Language, idNums: readonly number[], limit: number): Promise<PostSummary[]> {
    if (idNums.length === 0 || limit <= 0) return [];
    const unique = [...new Set(idNums)];
    // CROSS JOIN keeps the drawn ids as the outer loop: each is one seek on
    // (language, id_num), whatever the size of the language.
    return this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM json_each(?) AS drawn
       CROSS JOIN posts p ON p.language = ? AND p.id_num = drawn.value
       WHERE p.status = 'publish'
       ORDER BY p.post_time DESC, p.id DESC LIMIT ?`,
    ).all(JSON.stringify(unique), language, limit) as PostSummary[];
  }

  async collectionPosts(entries: readonly { language: Language; idNum: number }[]): Promise<PostSummary[]> {
    const wanted = collectionEntries(entries);
    if (wanted.length === 0) return [];
    // The entries are the outer loop, in their order: each is one seek on (language, id_num).
    return this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM json_each(?) AS wanted
       CROSS JOIN posts p ON p.language = wanted.value ->> 0 AND p.id_num = wanted.value ->> 1
       WHERE p.status = 'publish'
       ORDER BY wanted.key`,
    ).all(JSON.stringify(wanted.map(({ language, idNum }) => [language, idNum]))) as PostSummary[];
  }

  async getPost(language: Language, slug: string): Promise<Post | null> {
    const row = this.#stmt(
      `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
       WHERE p.language = ? AND p.slug = ? AND p.status = 'publish'`,
    ).get(language, slug.normalize("NFC")) as PostRow | undefined;
    return row ? this.#complete(row, BOUND.content) : null;
  }

  async getPostAnyLanguage(slug: string): Promise<Post | null> {
    const row = this.#stmt(
      `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
       WHERE p.slug = ? AND p.status = 'publish'
       ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    ).get(slug.normalize("NFC")) as PostRow | undefined;
    return row ? this.#complete(row, BOUND.content) : null;
  }

  /** The row with its terms, source and published translations; its text cut at `contentBound`. */
  #complete(row: PostRow, contentBound: number): Post {
    row.content = boundedContent(row.content, contentBound, row.language);
    const terms = this.#stmt(
      `SELECT ${TERM_COLUMNS} FROM post_terms pt JOIN terms t ON t.id = pt.term_id
       WHERE pt.post_id = ? ORDER BY t.name`,
    ).all(row.id) as Term[];
    const translations =
      row.translationKey === null
        ? []
        : (this.#stmt(
            `SELECT ${TRANSLATION_COLUMNS} FROM posts
             WHERE translation_key = ? AND status = 'publish' AND id <> ?`,
          ).all(row.translationKey, row.id) as Translation[]);
    return completePost(row, terms, translations);
  }

  async getPage(slug: string): Promise<SitePage | null> {
    const row = this.#stmt(
      `SELECT slug, ${cutSql("title", BOUND.title)} AS title,
         ${prefixSql("content", BOUND.content + 1)} AS content FROM pages WHERE slug = ?`,
    ).get(slug.normalize("NFC")) as SitePage | undefined;
    return row ? { ...row, content: boundedContent(row.content, BOUND.content, "english") } : null;
  }

  async adjacentPosts(language: Language, slug: string): Promise<AdjacentPosts> {
    const current = this.#stmt(
      "SELECT id, post_time AS postTime FROM posts WHERE language = ? AND slug = ? AND status = 'publish'",
    ).get(language, slug.normalize("NFC")) as { id: number; postTime: number } | undefined;
    if (!current) return { previous: null, next: null };
    const args = { language, t: current.postTime, id: current.id };
    const previous = this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM posts p
       WHERE p.language = @language AND p.status = 'publish'
         AND (p.post_time < @t OR (p.post_time = @t AND p.id < @id))
       ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    ).get(args) as PostSummary | undefined;
    const next = this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM posts p
       WHERE p.language = @language AND p.status = 'publish'
         AND (p.post_time > @t OR (p.post_time = @t AND p.id > @id))
       ORDER BY p.post_time ASC, p.id ASC LIMIT 1`,
    ).get(args) as PostSummary | undefined;
    return { previous: previous ?? null, next: next ?? null };
  }

  async relatedPosts(language: Language, slug: string, limit: number): Promise<PostSummary[]> {
    const current = this.#stmt("SELECT id FROM posts WHERE language = ? AND slug = ?").get(
      language,
      slug.normalize("NFC"),
    ) as { id: number } | undefined;
    if (!current) return [];
    // Candidates: for each of the post's tags, the published posts just before
    // and after it in that tag (index seeks, bounded however large a tag grows;
    // drafts take no place, so adding one changes nothing a visitor sees).
    const tagIds = this.#stmt(
      `SELECT pt.term_id FROM post_terms pt JOIN terms t ON t.id = pt.term_id AND t.kind = 'tag'
       WHERE pt.post_id = ?`,
    )
      .pluck()
      .all(current.id) as number[];
    const shared = new Map<number, number>();
    const before = this.#stmt(
      `SELECT pt.post_id FROM post_terms pt CROSS JOIN posts c ON c.id = pt.post_id AND c.status = 'publish'
       WHERE pt.term_id = ? AND pt.post_id < ? ORDER BY pt.post_id DESC LIMIT 60`,
    ).pluck();
    const after = this.#stmt(
      `SELECT pt.post_id FROM post_terms pt CROSS JOIN posts c ON c.id = pt.post_id AND c.status = 'publish'
       WHERE pt.term_id = ? AND pt.post_id > ? ORDER BY pt.post_id ASC LIMIT 60`,
    ).pluck();
    for (const tagId of tagIds) {
      for (const id of [...before.all(tagId, current.id), ...after.all(tagId, current.id)] as number[]) {
        shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    if (shared.size === 0) return [];
    const rows = this.#stmt(
      // CROSS JOIN: one rowid seek per candidate, never a walk through the language.
      `SELECT p.id, ${SUMMARY_COLUMNS} FROM json_each(?) AS candidate
       CROSS JOIN posts p ON p.id = candidate.value
       WHERE p.language = ? AND p.status = 'publish'`,
    ).all(JSON.stringify([...shared.keys()]), language) as (PostSummary & { id: number })[];
    return rows
      .sort(
        (a, b) =>
          (shared.get(b.id) ?? 0) - (shared.get(a.id) ?? 0) ||
          Math.abs(a.id - current.id) - Math.abs(b.id - current.id),
      )
      .slice(0, limit)
      .map(({ id: _id, ...post }) => post);
  }

  async countPosts(language: Language): Promise<number> {
    return this.#stmt("SELECT count(*) FROM posts WHERE language = ? AND status = 'publish'")
      .pluck()
      .get(language) as number;
  }

  async postAt(language: Language, offset: number): Promise<PostSummary | null> {
    const row = this.#stmt(
      `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
         SELECT id FROM posts WHERE language = ? AND status = 'publish'
         ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET ?)`,
    ).get(language, offset) as PostSummary | undefined;
    return row ?? null;
  }

  async randomPost(language: Language | null, random: RandomSource): Promise<PostSummary | null> {
    return pickRandomPost(this.#randomReads, language, random);
  }

  /** randomPost's reads (../random-post.ts): seeks on posts_language_published_id_num, or one walk of a partial index. */
  readonly #randomReads: RandomPostReads = {
    idRanges: async (languages) => {
      const range = this.#stmt(
        `SELECT (SELECT min(id_num) FROM posts WHERE language = ? AND status = 'publish') AS min,
           (SELECT max(id_num) FROM posts WHERE language = ? AND status = 'publish') AS max`,
      );
      return languages.flatMap((language) => {
        const row = range.get(language, language) as { min: number | null; max: number | null };
        return row.min === null || row.max === null ? [] : [{ language, min: row.min, max: row.max }];
      });
    },
    publishedWithIdNum: async (language, idNum) =>
      (this.#stmt(
        `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.language = ? AND p.id_num = ? AND p.status = 'publish'`,
      ).get(language, idNum) as PostSummary | undefined) ?? null,
    countPublished: async (language) =>
      language === null
        ? (this.#stmt("SELECT count(*) FROM posts WHERE status = 'publish'").pluck().get() as number)
        : this.countPosts(language),
    publishedAt: async (language, offset) => {
      if (language !== null) return this.postAt(language, offset);
      const row = this.#stmt(
        `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
           SELECT id FROM posts WHERE status = 'publish'
           ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET ?)`,
      ).get(offset) as PostSummary | undefined;
      return row ?? null;
    },
  };

  async listPosts(filter: PostFilter, page: number, perPage: number): Promise<PostListPage> {
    const offset = (page - 1) * perPage;
    let rows: PostSummary[];
    // The inner query walks an index only (ids in order); the outer reads the
    // page's rows. See docs/decisions/004-dates-and-pagination.md.
    if ("person" in filter) {
      // Walks posts_person_published_time: the person's published posts, newest first.
      rows = this.#stmt(
        `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
           SELECT id FROM posts WHERE status = 'publish'
             AND person_id = (SELECT id FROM people WHERE slug = ?)
           ORDER BY post_time DESC, id DESC LIMIT ? OFFSET ?)
         ORDER BY p.post_time DESC, p.id DESC`,
      ).all(filter.person.normalize("NFC"), perPage + 1, offset) as PostSummary[];
    } else if ("language" in filter) {
      rows = this.#stmt(
        `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
           SELECT id FROM posts WHERE language = ? AND status = 'publish'
           ORDER BY post_time DESC, id DESC LIMIT ? OFFSET ?)
         ORDER BY p.post_time DESC, p.id DESC`,
      ).all(filter.language, perPage + 1, offset) as PostSummary[];
    } else {
      const kind: TermKind = "tag" in filter ? "tag" : "category";
      const slug = "tag" in filter ? filter.tag : filter.category;
      rows = this.#stmt(
        `SELECT ${SUMMARY_COLUMNS} FROM posts p
         JOIN post_terms pt ON pt.post_id = p.id
         JOIN terms t ON t.id = pt.term_id
         WHERE t.kind = ? AND t.slug = ? AND p.status = 'publish'
         ORDER BY p.post_time DESC, p.id DESC LIMIT ? OFFSET ?`,
      ).all(kind, slug.normalize("NFC"), perPage + 1, offset) as PostSummary[];
    }
    return { posts: rows.slice(0, perPage), page, hasNext: rows.length > perPage };
  }

  async getTerm(kind: TermKind, slug: string): Promise<Term | null> {
    const row = this.#stmt(
      `SELECT ${TERM_COLUMNS} FROM terms t
       WHERE t.kind = ? AND t.slug = ? AND EXISTS (
         SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
         WHERE pt.term_id = t.id AND p.status = 'publish')`,
    ).get(kind, slug.normalize("NFC")) as Term | undefined;
    return row ?? null;
  }

  async listTags(): Promise<TagCount[]> {
    return this.#stmt(
      `SELECT ${TERM_COLUMNS}, p.language, count(*) AS count FROM terms t
       JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
       WHERE t.kind = 'tag'
       GROUP BY t.id, p.language ORDER BY t.name, p.language`,
    ).all() as TagCount[];
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

  async listLanguageSummaries(): Promise<LanguageSummary[]> {
    const rows = this.#stmt(
      `SELECT language, count(*) AS count, max(updated_at) AS updatedAt FROM posts
       WHERE status = 'publish' GROUP BY language`,
    ).all() as LanguageSummary[];
    return LANGUAGES.map(
      (language) => rows.find((row) => row.language === language) ?? { language, count: 0, updatedAt: null },
    );
  }

  async listSitemapPosts(language: Language, offset: number, limit: number): Promise<SitemapPost[]> {
    return this.#stmt(
      `SELECT ${prefixSql("slug", BOUND.slug)} AS slug, updated_at AS updatedAt FROM posts
       WHERE language = ? AND status = 'publish'
       ORDER BY post_time DESC, id DESC LIMIT ? OFFSET ?`,
    ).all(language, limit, offset) as SitemapPost[];
  }

  async listSitemapTerms(): Promise<SitemapTerm[]> {
    return this.#stmt(
      `SELECT ${TERM_COLUMNS}, max(p.updated_at) AS updatedAt FROM terms t
       JOIN post_terms pt ON pt.term_id = t.id
       JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
       GROUP BY t.id ORDER BY t.kind, t.slug`,
    ).all() as SitemapTerm[];
  }

  async listPages(): Promise<Pick<SitePage, "slug" | "title">[]> {
    const rows = this.#stmt(
      `SELECT slug, ${cutSql("title", BOUND.title)} AS title FROM pages ORDER BY slug`,
    ).all();
    return rows as Pick<SitePage, "slug" | "title">[];
  }

  async listFeedPosts(filter: FeedFilter, limit: number): Promise<FeedPost[]> {
    const rows = (
      "person" in filter
        ? this.#stmt(
            `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS updatedAt FROM posts p JOIN people pe ON pe.id = p.person_id
             WHERE pe.slug = ? AND p.status = 'publish'
             ORDER BY p.post_time DESC, p.id DESC LIMIT ?`,
          ).all(filter.person.normalize("NFC"), limit)
        : this.#stmt(
            `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS updatedAt FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
             WHERE p.language = ? AND p.status = 'publish'
             ORDER BY p.post_time DESC, p.id DESC LIMIT ?`,
          ).all(filter.language, limit)
    ) as (PostRow & { updatedAt: number })[];
    return rows.map(({ updatedAt, ...row }) => ({ ...this.#complete(row, BOUND.feedContent), updatedAt }));
  }

  async getPerson(slug: string): Promise<PersonCount | null> {
    const row = this.#stmt(
      `SELECT ${PERSON_COUNT_COLUMNS} FROM people pe JOIN posts p ON p.person_id = pe.id AND p.status = 'publish'
       WHERE pe.slug = ? GROUP BY pe.id`,
    ).get(slug.normalize("NFC")) as Parameters<typeof personCount>[0] | undefined;
    return row ? personCount(row) : null;
  }

  async listPeople(): Promise<PersonCount[]> {
    const rows = this.#stmt(
      `SELECT ${PERSON_COUNT_COLUMNS} FROM people pe JOIN posts p ON p.person_id = pe.id AND p.status = 'publish'
       GROUP BY pe.id ORDER BY pe.slug`,
    ).all() as Parameters<typeof personCount>[0][];
    return rows.map(personCount);
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
