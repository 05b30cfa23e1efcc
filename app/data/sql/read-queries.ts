// Every read the site makes (but search: app/data/*/search.server.ts), written
// once for SQLite and PostgreSQL as the text of a Dialect (./dialect.ts).
// Each database's adapter runs them with its driver (app/data/sqlite/reads.server.ts,
// app/data/postgres/reads.server.ts) and may replace one by a named override
// where its planner needs another shape (see each adapter's OVERRIDES).
// Parameters are numbered; each query binds them in the order given by the
// store (./read-store.ts). Every statement names status = 'publish'.

import { LANGUAGES } from "#app/content/languages.ts";
import { READ_BOUNDS as BOUND, cutSql, prefixSql } from "#app/data/read-bounds.ts";
import type { Dialect } from "#app/data/sql/dialect.ts";

// Every text column is cut in the SELECT (../read-bounds.ts): an oversized
// value written into the database never reaches JavaScript whole.

/** A PostSummary's columns, of posts p. */
export const SUMMARY_COLUMNS = `p.language, p.id_num AS "idNum", ${prefixSql("p.slug", BOUND.slug)} AS slug,
  ${cutSql("p.title", BOUND.title)} AS title,
  ${prefixSql("p.feature_image_url", BOUND.url)} AS "featureImageUrl", p.post_time AS "postTime",
  ${cutSql("p.excerpt", BOUND.excerpt)} AS excerpt`;

/**
 * A post's row with what completes it into a Post (./post-read-row.ts), of
 * posts p and people pe: its text read one character past `contentBound`, so
 * that boundedContent sees whether it was cut.
 */
const postColumns = (contentBound: number) => `p.id, ${SUMMARY_COLUMNS},
  ${prefixSql("p.content", contentBound + 1)} AS content, ${prefixSql("p.audio_url", BOUND.url)} AS "audioUrl",
  p.translation_key AS "translationKey",
  ${cutSql("p.work", BOUND.source)} AS work, ${cutSql("p.reference", BOUND.source)} AS reference,
  ${prefixSql("pe.slug", BOUND.slug)} AS "personSlug", ${cutSql("pe.name_english", BOUND.name)} AS "nameEnglish",
  ${cutSql("pe.name_hindi", BOUND.name)} AS "nameHindi", ${cutSql("pe.name_marathi", BOUND.name)} AS "nameMarathi"`;
const POST_COLUMNS = postColumns(BOUND.content);
const FEED_POST_COLUMNS = postColumns(BOUND.feedContent);

/** A Term's columns, of terms t. */
export const TERM_COLUMNS = `t.kind, ${cutSql("t.name", BOUND.name)} AS name, ${prefixSql("t.slug", BOUND.slug)} AS slug`;

/**
 * A person with their published posts counted, of people pe joined to their
 * rows c of published_counts (one a language; JSON objects: Dialect.json).
 */
const personCountColumns = (d: Dialect) => `${prefixSql("pe.slug", BOUND.slug)} AS slug,
  ${d.jsonObject("'english'", cutSql("pe.name_english", BOUND.name), "'hindi'", cutSql("pe.name_hindi", BOUND.name), "'marathi'", cutSql("pe.name_marathi", BOUND.name))} AS names,
  sum(c.posts) AS count, max(c.updated_at) AS "updatedAt",
  ${d.jsonObject(...LANGUAGES.flatMap((language) => [`'${language}'`, `max(CASE WHEN c.language = '${language}' THEN c.posts ELSE 0 END)`]))} AS counts,
  ${d.jsonObject("'english'", cutSql("pe.about_english", BOUND.about), "'hindi'", cutSql("pe.about_hindi", BOUND.about), "'marathi'", cutSql("pe.about_marathi", BOUND.about))} AS about`;

/**
 * published_counts c's rows of one kind (db/migrations/20261207000000_published_counts.sql):
 * a row whose posts fell to 0 still dates the list (when its last post left).
 */
const counted = (kind: "term" | "person", id: string) =>
  `published_counts c ON c.kind = '${kind}' AND c.id = ${id}`;

/** The reads, in the dialect `d`. */
export function readQueries(d: Dialect) {
  const [$1, $2, $3, $4, $5] = [1, 2, 3, 4, 5].map((n) => d.param(n));
  const drawn = d.integerTable(1, "drawn", "id_num");
  const wanted = d.entryTable(1, "wanted");
  const candidate = d.integerTable(1, "candidate", "id");
  const personCount = personCountColumns(d);
  return {
    website: `SELECT max_id_eng AS "maxIdEng", max_id_hin AS "maxIdHin", max_id_mr AS "maxIdMr" FROM website`,
    latest: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.status = 'publish'
      ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    // The drawn ids are the outer loop: each is one seek on (language, id_num),
    // whatever the size of the language.
    sample: `SELECT ${SUMMARY_COLUMNS} FROM ${drawn.from}
      ${d.outerJoin} posts p ON p.language = ${$2} AND p.id_num = ${drawn.value}
      WHERE p.status = 'publish'
      ORDER BY p.post_time DESC, p.id DESC LIMIT ${$3}`,
    // The entries are the outer loop, in their order: each is one seek on (language, id_num).
    collection: `SELECT ${SUMMARY_COLUMNS} FROM ${wanted.from}
      ${d.outerJoin} posts p ON p.language = ${wanted.language} AND p.id_num = ${wanted.idNum}
      WHERE p.status = 'publish'
      ORDER BY ${wanted.order}`,
    post: `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
      WHERE p.language = ${$1} AND p.slug = ${$2} AND p.status = 'publish'`,
    postAnyLanguage: `SELECT ${POST_COLUMNS} FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
      WHERE p.slug = ${$1} AND p.status = 'publish'
      ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    postTerms: `SELECT ${TERM_COLUMNS} FROM post_terms pt JOIN terms t ON t.id = pt.term_id
      WHERE pt.post_id = ${$1} ORDER BY t.name`,
    translations: `SELECT language, ${prefixSql("slug", BOUND.slug)} AS slug, ${cutSql("title", BOUND.title)} AS title FROM posts
      WHERE translation_key = ${$1} AND status = 'publish' AND id <> ${$2}`,
    page: `SELECT slug, ${cutSql("title", BOUND.title)} AS title,
      ${prefixSql("content", BOUND.content + 1)} AS content FROM pages WHERE slug = ${$1}`,
    current: `SELECT id, post_time AS "postTime" FROM posts WHERE language = ${$1} AND slug = ${$2} AND status = 'publish'`,
    // Bound: language, the current post's time and id.
    previous: `SELECT ${SUMMARY_COLUMNS} FROM posts p
      WHERE p.language = ${$1} AND p.status = 'publish' AND (p.post_time, p.id) < (${$2}, ${$3})
      ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
    next: `SELECT ${SUMMARY_COLUMNS} FROM posts p
      WHERE p.language = ${$1} AND p.status = 'publish' AND (p.post_time, p.id) > (${$2}, ${$3})
      ORDER BY p.post_time ASC, p.id ASC LIMIT 1`,
    anyStatus: `SELECT id FROM posts WHERE language = ${$1} AND slug = ${$2}`,
    // Related posts' candidates (read-store.ts relatedPosts): for each of the post's tags, in id
    // order, the published posts just before and after it in that tag (index seeks, bounded
    // however large a tag grows; drafts take no place), in one row a tag. Their order within a
    // side is not kept, nor needed: the ranking orders them, and a tie between two posts as near
    // (one before, one after) is broken by the tag and side each came in.
    relatedCandidates: `SELECT pt.term_id AS id,
        ${d.integerArray(
          `SELECT o.post_id AS id FROM post_terms o ${d.outerJoin} posts c ON c.id = o.post_id AND c.status = 'publish'
            WHERE o.term_id = pt.term_id AND o.post_id < ${$1} ORDER BY o.post_id DESC LIMIT 60`,
          "id",
        )} AS before,
        ${d.integerArray(
          `SELECT o.post_id AS id FROM post_terms o ${d.outerJoin} posts c ON c.id = o.post_id AND c.status = 'publish'
            WHERE o.term_id = pt.term_id AND o.post_id > ${$1} ORDER BY o.post_id ASC LIMIT 60`,
          "id",
        )} AS after
      FROM post_terms pt JOIN terms t ON t.id = pt.term_id AND t.kind = 'tag'
      WHERE pt.post_id = ${$1} ORDER BY pt.term_id`,
    // One seek per candidate, never a walk through the language.
    relatedPosts: `SELECT p.id, ${SUMMARY_COLUMNS} FROM ${candidate.from}
      ${d.outerJoin} posts p ON p.id = ${candidate.value}
      WHERE p.language = ${$2} AND p.status = 'publish'`,
    // The counts are kept by the database (published_counts): a row read, never the posts counted.
    count: `SELECT coalesce((SELECT CASE WHEN posts > 0 THEN posts ELSE 0 END FROM published_counts
        WHERE kind = 'language' AND id = 0 AND language = ${$1}), 0) AS n`,
    postAt: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
        SELECT id FROM posts WHERE language = ${$1} AND status = 'publish'
        ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET ${$2})`,
    // randomPost (../random-post.ts): each min and max one seek on posts_language_published_id_num.
    idRange: `SELECT (SELECT min(id_num) FROM posts WHERE language = ${$1} AND status = 'publish') AS min,
        (SELECT max(id_num) FROM posts WHERE language = ${$1} AND status = 'publish') AS max`,
    publishedWithIdNum: `SELECT ${SUMMARY_COLUMNS} FROM posts p
      WHERE p.language = ${$1} AND p.id_num = ${$2} AND p.status = 'publish'`,
    countAll: `SELECT coalesce(sum(CASE WHEN posts > 0 THEN posts ELSE 0 END), 0) AS n FROM published_counts
      WHERE kind = 'language'`,
    postAtAll: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id = (
        SELECT id FROM posts WHERE status = 'publish'
        ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET ${$1})`,
    // The inner query walks an index only (ids in order); the outer reads the
    // page's rows. See docs/decisions/004-dates-and-pagination.md.
    // Walks posts_person_published_time: the person's published posts, newest first.
    listPerson: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
        SELECT id FROM posts WHERE status = 'publish'
          AND person_id = (SELECT id FROM people WHERE slug = ${$1})
        ORDER BY post_time DESC, id DESC LIMIT ${$2} OFFSET ${$3})
      ORDER BY p.post_time DESC, p.id DESC`,
    // Walks posts_language_published_time only (PostgreSQL's planner would
    // otherwise walk the all-language index and skip two posts in three).
    listLanguage: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
        SELECT id FROM posts WHERE language = ${$1} AND status = 'publish'
        ORDER BY post_time DESC, id DESC LIMIT ${$2} OFFSET ${$3})
      ORDER BY p.post_time DESC, p.id DESC`,
    // A term's posts, newest first, read one of two ways (read-store.ts listPosts picks the
    // cheaper from the term's share of the published posts, published_counts):
    // termSize: the term's id and published posts.
    termSize: `SELECT t.id, coalesce(sum(c.posts), 0) AS posts FROM terms t
      LEFT JOIN published_counts c ON c.kind = 'term' AND c.id = t.id
      WHERE t.kind = ${$1} AND t.slug = ${$2} GROUP BY t.id`,
    // A small term: its posts found through post_terms_term and sorted by time, ids only
    // (cost: the term's posts); then the page's rows read.
    listTerm: `SELECT ${SUMMARY_COLUMNS} FROM posts p WHERE p.id IN (
        SELECT q.id FROM post_terms pt ${d.outerJoin} posts q ON q.id = pt.post_id
        WHERE pt.term_id = ${$1} AND q.status = 'publish'
        ORDER BY q.post_time DESC, q.id DESC LIMIT ${$2} OFFSET ${$3})
      ORDER BY p.post_time DESC, p.id DESC`,
    // A large term: posts_published_time walked newest first down to ($4, $5) at most, each
    // post's link to the term one seek of post_terms' key (cost: the posts walked, not the
    // term's size; bounded, as a term's posts may all be old: see walkByTime).
    listTermByTime: `SELECT ${SUMMARY_COLUMNS} FROM posts p
      WHERE p.status = 'publish' AND (p.post_time, p.id) >= (${$4}, ${$5})
        AND EXISTS (SELECT 1 FROM post_terms pt WHERE pt.post_id = p.id AND pt.term_id = ${$1})
      ORDER BY p.post_time DESC, p.id DESC LIMIT ${$2} OFFSET ${$3}`,
    // The published post that many places from the newest (posts_published_time alone).
    publishedPlace: `SELECT post_time AS "postTime", id FROM posts WHERE status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT 1 OFFSET ${$1}`,
    term: `SELECT ${TERM_COLUMNS} FROM terms t
      WHERE t.kind = ${$1} AND t.slug = ${$2} AND EXISTS (
        SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
        WHERE pt.term_id = t.id AND p.status = 'publish')`,
    tags: `SELECT ${TERM_COLUMNS}, c.language, c.posts AS count FROM terms t JOIN ${counted("term", "t.id")}
      WHERE t.kind = 'tag' AND c.posts > 0 ORDER BY t.name, c.language`,
    languageSummaries: `SELECT language, posts AS count, updated_at AS "updatedAt" FROM published_counts
      WHERE kind = 'language' AND posts > 0`,
    sitemapPosts: `SELECT ${prefixSql("slug", BOUND.slug)} AS slug, updated_at AS "updatedAt" FROM posts
      WHERE language = ${$1} AND status = 'publish'
      ORDER BY post_time DESC, id DESC LIMIT ${$2} OFFSET ${$3}`,
    sitemapTerms: `SELECT ${TERM_COLUMNS}, max(c.updated_at) AS "updatedAt" FROM terms t JOIN ${counted("term", "t.id")}
      GROUP BY t.id HAVING sum(c.posts) > 0 ORDER BY t.kind, t.slug`,
    pages: `SELECT slug, ${cutSql("title", BOUND.title)} AS title FROM pages ORDER BY slug`,
    feed: `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS "updatedAt" FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
      WHERE p.language = ${$1} AND p.status = 'publish'
      ORDER BY p.post_time DESC, p.id DESC LIMIT ${$2}`,
    personFeed: `SELECT ${FEED_POST_COLUMNS}, p.updated_at AS "updatedAt" FROM posts p JOIN people pe ON pe.id = p.person_id
      WHERE pe.slug = ${$1} AND p.status = 'publish'
      ORDER BY p.post_time DESC, p.id DESC LIMIT ${$2}`,
    person: `SELECT ${personCount} FROM people pe JOIN ${counted("person", "pe.id")}
      WHERE pe.slug = ${$1} GROUP BY pe.id HAVING sum(c.posts) > 0`,
    people: `SELECT ${personCount} FROM people pe JOIN ${counted("person", "pe.id")}
      GROUP BY pe.id HAVING sum(c.posts) > 0 ORDER BY pe.slug`,
  };
}

/** The reads by name. */
export type ReadQueries = ReturnType<typeof readQueries>;
export type ReadQuery = keyof ReadQueries;
