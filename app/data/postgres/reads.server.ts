// ContentStore over PostgreSQL (node-postgres, pooled). Every read returns what
// SqliteContentStore returns for the same content: the same fields and types
// (bigints arrive as numbers: ./pool.server.ts), the same order and
// tie-breaks, published posts only. Statements are named (prepared once per
// connection).
import type pg from "pg";
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
  SearchResultPage,
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
import { completePost, type PostRow } from "#app/data/post-row.ts";
import { PostgresSearchBackend } from "#app/data/postgres/search.server.ts";
import { pickRandomPost, type RandomPostReads } from "#app/data/random-post.ts";
import { READ_BOUNDS as BOUND, boundedContent, cutSql, prefixSql } from "#app/data/read-bounds.ts";
import type { ContentStore } from "#app/data/store.ts";
import { search } from "#app/search/search.ts";

// Every text column is cut in the SELECT, as on SQLite (../read-bounds.ts).
export const SUMMARY_COLUMNS = `p.language, p.id_num AS "idNum", ${prefixSql("p.slug", BOUND.slug)} AS slug,
  ${cutSql("p.title", BOUND.title)} AS title,
  ${prefixSql("p.feature_image_url", BOUND.url)} AS "featureImageUrl", p.post_time AS "postTime",
  ${cutSql("p.excerpt", BOUND.excerpt)} AS excerpt`;

/** A post's row with what completes it into a Post (../post-row.ts); its text read one character past the bound. */
const postColumns = (contentBound: number) => `p.id, ${SUMMARY_COLUMNS},
  ${prefixSql("p.content", contentBound + 1)} AS content, ${prefixSql("p.audio_url", BOUND.url)} AS "audioUrl",
  p.translation_key AS "translationKey",
  ${cutSql("p.work", BOUND.source)} AS work, ${cutSql("p.reference", BOUND.source)} AS reference,
  ${prefixSql("pe.slug", BOUND.slug)} AS "personSlug", ${cutSql("pe.name_english", BOUND.name)} AS "nameEnglish",
  ${cutSql("pe.name_hindi", BOUND.name)} AS "nameHindi", ${cutSql("pe.name_marathi", BOUND.name)} AS "nameMarathi"`;
const POST_COLUMNS = postColumns(BOUND.content);
const FEED_POST_COLUMNS = postColumns(BOUND.feedContent);

const TERM_COLUMNS = `t.kind, ${cutSql("t.name", BOUND.name)} AS name, ${prefixSql("t.slug", BOUND.slug)} AS slug`;

const PERSON_COUNT_COLUMNS = `${prefixSql("pe.slug", BOUND.slug)} AS slug,
  json_build_object('english', ${cutSql("pe.name_english", BOUND.name)}, 'hindi', ${cutSql("pe.name_hindi", BOUND.name)},
  'marathi', ${cutSql("pe.name_marathi", BOUND.name)}) AS names, count(*)::int AS count, max(p.updated_at) AS "updatedAt",
  json_build_object('english', count(*) FILTER (WHERE p.language = 'english'),
  'hindi', count(*) FILTER (WHERE p.language = 'hindi'),
  'marathi', count(*) FILTER (WHERE p.language = 'marathi')) AS counts,
  json_build_object('english', ${cutSql("pe.about_english", BOUND.about)}, 'hindi', ${cutSql("pe.about_hindi", BOUND.about)},
  'marathi', ${cutSql("pe.about_marathi", BOUND.about)}) AS about`;

const SQL = {
  website: `SELECT max_id_eng AS "maxIdEng", max_id_hin AS "maxIdHin", max_id_mr AS "maxIdMr" FROM website`,
  latest: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
  // Each drawn id is one seek on (language, id_num).
  sample: `SELECT ${SUMMARY_COLUMNS} FROM unnest($1::bigint[]) AS drawn (id_num)
    JOIN posts p ON p.language = $2 AND p.id_num = drawn.id_num
    WHERE p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT $3`,
  // The entries in their order, each one seek on (language, id_num).
  collection: `SELECT ${SUMMARY_COLUMNS} FROM unnest($1::text[], $2::bigint[]) WITH ORDINALITY AS wanted (language, id_num, at)
    JOIN posts p ON p.language = wanted.language AND p.id_num = wanted.id_num
    WHERE p.status = 'publish'
    ORDER BY wanted.at`,
  post: `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
    WHERE p.language = $1 AND p.slug = $2 AND p.status = 'publish'`,
  postAnyLanguage: `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
    WHERE p.slug = $1 AND p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
  translations: `SELECT language, ${prefixSql("slug", BOUND.slug)} AS slug, ${cutSql("title", BOUND.title)} AS title FROM posts
    WHERE translation_key = $1 AND status = 'publish' AND id <> $2`,
  listPerson: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
      SELECT id FROM posts WHERE status = 'publish'
        AND person_id = (SELECT id FROM people WHERE slug = $1)
      ORDER BY post_time DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.post_time DESC, p.id DESC`,
  personFeed: `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS "updatedAt" FROM posts p JOIN people pe ON pe.id = p.person_id
    WHERE pe.slug = $1 AND p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT $2`,
  person: `SELECT ${PERSON_COUNT_COLUMNS} FROM people pe JOIN posts p ON p.person_id = pe.id AND p.status = 'publish'
    WHERE pe.slug = $1 GROUP BY pe.id`,
  people: `SELECT ${PERSON_COUNT_COLUMNS} FROM people pe JOIN posts p ON p.person_id = pe.id AND p.status = 'publish'
    GROUP BY pe.id ORDER BY pe.slug`,
  postTerms: `SELECT ${TERM_COLUMNS} FROM post_terms pt JOIN terms t ON t.id = pt.term_id
    WHERE pt.post_id = $1 ORDER BY t.name`,
  postsTerms: `SELECT pt.post_id AS "postId", ${TERM_COLUMNS} FROM post_terms pt
    JOIN terms t ON t.id = pt.term_id
    WHERE pt.post_id = ANY($1::bigint[]) ORDER BY t.name`,
  page: `SELECT slug, ${cutSql("title", BOUND.title)} AS title,
    ${prefixSql("content", BOUND.content + 1)} AS content FROM pages WHERE slug = $1`,
  current: `SELECT id, post_time AS "postTime" FROM posts WHERE language = $1 AND slug = $2 AND status = 'publish'`,
  previous: `SELECT ${SUMMARY_COLUMNS} FROM posts p
    WHERE p.language = $1 AND p.status = 'publish' AND (p.post_time, p.id) < ($2, $3)
    ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
  next: `SELECT ${SUMMARY_COLUMNS} FROM posts p
    WHERE p.language = $1 AND p.status = 'publish' AND (p.post_time, p.id) > ($2, $3)
    ORDER BY p.post_time ASC, p.id ASC LIMIT 1`,
  anyStatus: "SELECT id FROM posts WHERE language = $1 AND slug = $2",
  // For each of the post's tags (in id order), the posts just before and after it in that tag.
  relatedCandidates: `SELECT pt.term_id,
      ARRAY(SELECT o.post_id FROM post_terms o JOIN posts c ON c.id = o.post_id AND c.status = 'publish'
            WHERE o.term_id = pt.term_id AND o.post_id < $1
            ORDER BY o.post_id DESC LIMIT 60) AS before,
      ARRAY(SELECT o.post_id FROM post_terms o JOIN posts c ON c.id = o.post_id AND c.status = 'publish'
            WHERE o.term_id = pt.term_id AND o.post_id > $1
            ORDER BY o.post_id ASC LIMIT 60) AS after
    FROM post_terms pt JOIN terms t ON t.id = pt.term_id AND t.kind = 'tag'
    WHERE pt.post_id = $1 ORDER BY pt.term_id`,
  relatedPosts: `SELECT p.id, ${SUMMARY_COLUMNS} FROM unnest($1::bigint[]) AS candidate (id)
    JOIN posts p ON p.id = candidate.id
    WHERE p.language = $2 AND p.status = 'publish'`,
  count: "SELECT count(*) AS n FROM posts WHERE language = $1 AND status = 'publish'",
  postAt: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
      SELECT id FROM posts WHERE language = $1 AND status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET $2)`,
  // randomPost (../random-post.ts): each min and max one seek on posts_language_published_id_num.
  idRanges: `SELECT l.language,
      (SELECT min(id_num) FROM posts WHERE language = l.language AND status = 'publish') AS min,
      (SELECT max(id_num) FROM posts WHERE language = l.language AND status = 'publish') AS max
    FROM unnest($1::text[]) WITH ORDINALITY AS l (language, at) ORDER BY l.at`,
  publishedWithIdNum: `SELECT ${SUMMARY_COLUMNS} FROM posts p
    WHERE p.language = $1 AND p.id_num = $2 AND p.status = 'publish'`,
  countAll: "SELECT count(*) AS n FROM posts WHERE status = 'publish'",
  postAtAll: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
      SELECT id FROM posts WHERE status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET $1)`,
  // The inner query walks posts_language_published_time only (an index-only
  // scan: ids in order); the outer reads the page's rows. The planner would
  // otherwise walk the all-language index and skip two posts in three.
  listLanguage: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
      SELECT id FROM posts WHERE language = $1 AND status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.post_time DESC, p.id DESC`,
  listTerm: `SELECT ${SUMMARY_COLUMNS} FROM posts p
    JOIN post_terms pt ON pt.post_id = p.id
    JOIN terms t ON t.id = pt.term_id
    WHERE t.kind = $1 AND t.slug = $2 AND p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT $3 OFFSET $4`,
  term: `SELECT ${TERM_COLUMNS} FROM terms t
    WHERE t.kind = $1 AND t.slug = $2 AND EXISTS (
      SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
      WHERE pt.term_id = t.id AND p.status = 'publish')`,
  tags: `SELECT ${TERM_COLUMNS}, p.language, count(*) AS count FROM terms t
    JOIN post_terms pt ON pt.term_id = t.id
    JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
    WHERE t.kind = 'tag'
    GROUP BY t.id, p.language ORDER BY t.name, p.language`,
  languageSummaries: `SELECT language, count(*) AS count, max(updated_at) AS "updatedAt" FROM posts
    WHERE status = 'publish' GROUP BY language`,
  sitemapPosts: `SELECT ${prefixSql("p.slug", BOUND.slug)} AS slug, p.updated_at AS "updatedAt" FROM posts p WHERE p.id IN (
      SELECT id FROM posts WHERE language = $1 AND status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT $2 OFFSET $3)
    ORDER BY p.post_time DESC, p.id DESC`,
  sitemapTerms: `SELECT ${TERM_COLUMNS}, max(p.updated_at) AS "updatedAt" FROM terms t
    JOIN post_terms pt ON pt.term_id = t.id
    JOIN posts p ON p.id = pt.post_id AND p.status = 'publish'
    GROUP BY t.id ORDER BY t.kind, t.slug`,
  pages: `SELECT slug, ${cutSql("title", BOUND.title)} AS title FROM pages ORDER BY slug`,
  feed: `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS "updatedAt" FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
    WHERE p.language = $1 AND p.status = 'publish'
    ORDER BY p.post_time DESC, p.id DESC LIMIT $2`,
  ping: "SELECT 1 FROM schema_migrations LIMIT 1",
} as const;

/**
 * A key no stored row can have: PostgreSQL text holds no NUL (SQLite would
 * simply find nothing, and so does this store, rather than fail).
 */
function impossible(text: string): boolean {
  return text.includes("\u0000");
}

/** LIMIT and OFFSET as SQLite reads them: a negative limit is no limit, a negative offset none. */
function limitOf(limit: number): number | null {
  return limit < 0 ? null : Math.trunc(limit);
}
function offsetOf(offset: number): number {
  return Math.max(0, Math.trunc(offset));
}

export class PostgresContentStore implements ContentStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  get pool(): pg.Pool {
    return this.#pool;
  }

  async #rows<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[] = []): Promise<R[]> {
    const result = await this.#pool.query<R>({ name: `sukti_r_${name}`, text: SQL[name], values });
    return result.rows;
  }

  async #row<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[] = []): Promise<R | null> {
    return (await this.#rows<R>(name, values))[0] ?? null;
  }

  /** The row of a query that always returns one (the website, a count). */
  async #onlyRow<R extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[] = []): Promise<R> {
    const row = await this.#row<R>(name, values);
    if (row === null) throw new Error(`PostgreSQL query ${name} returned no row`);
    return row;
  }

  async getWebsite(): Promise<Website> {
    return this.#onlyRow<Website>("website");
  }

  async latestPost(): Promise<PostSummary | null> {
    return this.#row<PostSummary>("latest");
  }

  async samplePosts(language: Language, idNums: readonly number[], limit: number): Promise<PostSummary[]> {
    if (idNums.length === 0 || limit <= 0) return [];
    const unique = [...new Set(idNums)].filter((n) => Number.isSafeInteger(n));
    if (unique.length === 0) return [];
    return this.#rows<PostSummary>("sample", [unique, language, limitOf(limit)]);
  }

  async collectionPosts(entries: readonly { language: Language; idNum: number }[]): Promise<PostSummary[]> {
    const wanted = collectionEntries(entries);
    if (wanted.length === 0) return [];
    return this.#rows<PostSummary>("collection", [
      wanted.map((entry) => entry.language),
      wanted.map((entry) => entry.idNum),
    ]);
  }

  async getPost(language: Language, slug: string): Promise<Post | null> {
    if (impossible(slug)) return null;
    const row = await this.#row<PostRow>("post", [language, slug.normalize("NFC")]);
    return row ? this.#complete(row, BOUND.content) : null;
  }

  async getPostAnyLanguage(slug: string): Promise<Post | null> {
    if (impossible(slug)) return null;
    const row = await this.#row<PostRow>("postAnyLanguage", [slug.normalize("NFC")]);
    return row ? this.#complete(row, BOUND.content) : null;
  }

  /** The row with its terms, source and published translations; its text cut at `contentBound`. */
  async #complete(row: PostRow, contentBound: number): Promise<Post> {
    row.content = boundedContent(row.content, contentBound, row.language);
    const [terms, translations] = await Promise.all([
      this.#rows<Term>("postTerms", [row.id]),
      row.translationKey === null
        ? Promise.resolve([])
        : this.#rows<Translation>("translations", [row.translationKey, row.id]),
    ]);
    return completePost(row, terms, translations);
  }

  async getPage(slug: string): Promise<SitePage | null> {
    if (impossible(slug)) return null;
    const row = await this.#row<SitePage>("page", [slug.normalize("NFC")]);
    return row ? { ...row, content: boundedContent(row.content, BOUND.content, "english") } : null;
  }

  async adjacentPosts(language: Language, slug: string): Promise<AdjacentPosts> {
    if (impossible(slug)) return { previous: null, next: null };
    const current = await this.#row<{ id: number; postTime: number }>("current", [
      language,
      slug.normalize("NFC"),
    ]);
    if (!current) return { previous: null, next: null };
    const args = [language, current.postTime, current.id];
    const [previous, next] = await Promise.all([
      this.#row<PostSummary>("previous", args),
      this.#row<PostSummary>("next", args),
    ]);
    return { previous, next };
  }

  async relatedPosts(language: Language, slug: string, limit: number): Promise<PostSummary[]> {
    if (impossible(slug)) return [];
    const current = await this.#row<{ id: number }>("anyStatus", [language, slug.normalize("NFC")]);
    if (!current) return [];
    const candidates = await this.#rows<{ before: number[]; after: number[] }>("relatedCandidates", [
      current.id,
    ]);
    const shared = new Map<number, number>();
    for (const { before, after } of candidates) {
      for (const id of [...before, ...after]) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    if (shared.size === 0) return [];
    const fetched = await this.#rows<PostSummary & { id: number }>("relatedPosts", [
      [...shared.keys()],
      language,
    ]);
    // In candidate order, as SQLite returns them, before the (stable) sort.
    const byId = new Map(fetched.map((row) => [row.id, row] as const));
    const rows = [...shared.keys()].flatMap((id) => byId.get(id) ?? []);
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
    return (await this.#onlyRow<{ n: number }>("count", [language])).n;
  }

  async postAt(language: Language, offset: number): Promise<PostSummary | null> {
    return this.#row<PostSummary>("postAt", [language, offsetOf(offset)]);
  }

  async randomPost(language: Language | null, random: RandomSource): Promise<PostSummary | null> {
    return pickRandomPost(this.#randomReads, language, random);
  }

  readonly #randomReads: RandomPostReads = {
    idRanges: async (languages) => {
      const rows = await this.#rows<{ language: Language; min: number | null; max: number | null }>(
        "idRanges",
        [languages],
      );
      return rows.flatMap(({ language, min, max }) =>
        min === null || max === null ? [] : [{ language, min, max }],
      );
    },
    publishedWithIdNum: async (language, idNum) =>
      Number.isSafeInteger(idNum) ? this.#row<PostSummary>("publishedWithIdNum", [language, idNum]) : null,
    countPublished: async (language) =>
      language === null ? (await this.#onlyRow<{ n: number }>("countAll")).n : this.countPosts(language),
    publishedAt: async (language, offset) =>
      language === null
        ? this.#row<PostSummary>("postAtAll", [offsetOf(offset)])
        : this.postAt(language, offset),
  };

  async listPosts(filter: PostFilter, page: number, perPage: number): Promise<PostListPage> {
    const offset = offsetOf((page - 1) * perPage);
    let rows: PostSummary[];
    if ("person" in filter) {
      if (impossible(filter.person)) return { posts: [], page, hasNext: false };
      rows = await this.#rows<PostSummary>("listPerson", [
        filter.person.normalize("NFC"),
        limitOf(perPage + 1),
        offset,
      ]);
    } else if ("language" in filter) {
      rows = await this.#rows<PostSummary>("listLanguage", [filter.language, limitOf(perPage + 1), offset]);
    } else {
      const kind: TermKind = "tag" in filter ? "tag" : "category";
      const slug = "tag" in filter ? filter.tag : filter.category;
      if (impossible(slug)) return { posts: [], page, hasNext: false };
      rows = await this.#rows<PostSummary>("listTerm", [
        kind,
        slug.normalize("NFC"),
        limitOf(perPage + 1),
        offset,
      ]);
    }
    return { posts: rows.slice(0, perPage), page, hasNext: rows.length > perPage };
  }

  async getTerm(kind: TermKind, slug: string): Promise<Term | null> {
    if (impossible(slug)) return null;
    return this.#row<Term>("term", [kind, slug.normalize("NFC")]);
  }

  async listTags(): Promise<TagCount[]> {
    return this.#rows<TagCount>("tags");
  }

  async searchPosts(
    text: string,
    page: number,
    perPage: number,
    language?: Language,
  ): Promise<SearchResultPage> {
    return search(new PostgresSearchBackend(this.#pool, language), text, page, perPage);
  }

  async listLanguageSummaries(): Promise<LanguageSummary[]> {
    const rows = await this.#rows<LanguageSummary>("languageSummaries");
    return LANGUAGES.map(
      (language) => rows.find((row) => row.language === language) ?? { language, count: 0, updatedAt: null },
    );
  }

  async listSitemapPosts(language: Language, offset: number, limit: number): Promise<SitemapPost[]> {
    return this.#rows<SitemapPost>("sitemapPosts", [language, limitOf(limit), offsetOf(offset)]);
  }

  async listSitemapTerms(): Promise<SitemapTerm[]> {
    return this.#rows<SitemapTerm>("sitemapTerms");
  }

  async listPages(): Promise<Pick<SitePage, "slug" | "title">[]> {
    return this.#rows<Pick<SitePage, "slug" | "title">>("pages");
  }

  async listFeedPosts(filter: FeedFilter, limit: number): Promise<FeedPost[]> {
    if ("person" in filter && impossible(filter.person)) return [];
    const rows = await this.#rows<PostRow & { updatedAt: number }>(
      "person" in filter ? "personFeed" : "feed",
      ["person" in filter ? filter.person.normalize("NFC") : filter.language, limitOf(limit)],
    );
    return Promise.all(
      rows.map(async ({ updatedAt, ...row }) => ({
        ...(await this.#complete(row, BOUND.feedContent)),
        updatedAt,
      })),
    );
  }

  async getPerson(slug: string): Promise<PersonCount | null> {
    if (impossible(slug)) return null;
    return this.#row<PersonCount>("person", [slug.normalize("NFC")]);
  }

  async listPeople(): Promise<PersonCount[]> {
    return this.#rows<PersonCount>("people");
  }

  async ping(): Promise<boolean> {
    try {
      await this.#rows("ping");
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
