// Search over the index kept by db/migrations/20261122010000_search.sql.
// See docs/search.md for the rules and docs/decisions/020-search-index.md.
import type { Statement } from "better-sqlite3";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { highlight, snippet, type WordTest, wordTest } from "#app/content/search-highlight.ts";
import {
  ftsString,
  inColumn,
  type MatchLevel,
  matchExpression,
  parseQuery,
  type QueryTerm,
  type TermExpansions,
  termExpression,
  wordMatcher,
} from "#app/content/search-query.ts";
import { MIN_ROMAN_PREFIX } from "#app/content/search-roman.ts";
import type { Db } from "#app/data/db.server.ts";
import type { PostSummary, SearchHit, SearchResultPage, Term } from "#app/data/store.ts";

/** Indexed words a query word may bring in, by infix and by skeleton (each). */
const MAX_EXPANSIONS = 40;
/** Words sharing a prefix listed one by one; beyond this, a prefix query. */
const MAX_PREFIX_WORDS = 64;
/**
 * The newest RANK_WINDOW matches of a tier are ranked; older matches of a very
 * common word follow, newest first. This bounds the cost of "a" or "प्रेम" on
 * 100,000 posts (docs/decisions/020-search-index.md).
 */
export const RANK_WINDOW = 300;
/** In "any" mode, how many words are counted per post to rank posts with more of them first. */
const MAX_COUNTED_TERMS = 6;

// FTS5 seeks by rowid only when the bound is an INTEGER; better-sqlite3 binds
// JavaScript numbers as REAL, hence the casts.
const SQL = {
  count: "SELECT count(*) FROM search_index WHERE search_index MATCH ?",
  newest: `SELECT rowid FROM search_index WHERE search_index MATCH ?
    ORDER BY rowid DESC LIMIT ${RANK_WINDOW + 1}`,
  within: `SELECT rowid FROM search_index WHERE search_index MATCH ?
    AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)`,
  older: `SELECT rowid FROM search_index WHERE search_index MATCH @match AND rowid < CAST(@below AS INTEGER)
    ORDER BY rowid DESC LIMIT @limit OFFSET @offset`,
  posts: `SELECT p.id, p.language, p.id_num AS idNum, p.slug, p.title,
      p.feature_image_url AS featureImageUrl, p.post_time AS postTime, p.excerpt, p.content
    FROM posts p WHERE p.id IN (SELECT value FROM json_each(?)) AND p.status = 'publish'`,
  terms: `SELECT pt.post_id AS postId, t.kind, t.name, t.slug FROM post_terms pt
    JOIN terms t ON t.id = pt.term_id
    WHERE pt.post_id IN (SELECT value FROM json_each(?)) ORDER BY t.kind DESC, t.name`,
  // Bounded at any size: the tags of the newest 500 published posts, most used first
  // (CROSS JOIN keeps that order; the planner would otherwise start from the tags).
  suggestedTags: `SELECT t.kind, t.name, t.slug FROM (
      SELECT id FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC LIMIT 500
    ) p CROSS JOIN post_terms pt ON pt.post_id = p.id CROSS JOIN terms t ON t.id = pt.term_id
    WHERE t.kind = 'tag' GROUP BY t.id ORDER BY count(*) DESC, t.name LIMIT ?`,
  prefix: `SELECT word FROM search_words WHERE word >= @from AND word < @to
    ORDER BY word LIMIT ${MAX_PREFIX_WORDS + 1}`,
  infix: `SELECT w.word FROM search_words_trigram tri JOIN search_words w ON w.id = tri.rowid
    WHERE search_words_trigram MATCH ? LIMIT ${MAX_EXPANSIONS}`,
  skeletonExact: `SELECT DISTINCT w.word FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
    WHERE s.skeleton = ? LIMIT ${MAX_EXPANSIONS}`,
  // Exact skeletons first, then the shortest: प्रेम before प्रेमाने.
  skeletonPrefix: `SELECT w.word, min(length(s.skeleton)) = length(@from) AS exact
    FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
    WHERE s.skeleton >= @from AND s.skeleton < @to
    GROUP BY w.id ORDER BY min(length(s.skeleton)), w.id LIMIT ${MAX_EXPANSIONS}`,
} as const;

type Statements = { [K in keyof typeof SQL]: Statement<unknown[], unknown> };
const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let found = prepared.get(db);
  if (!found) {
    found = Object.fromEntries(
      Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as unknown as Statements;
    prepared.set(db, found);
  }
  return found;
}

/** Indexed words found for a query word: words beginning with it, containing it, sounding like it. */
function expand(sql: Statements, term: QueryTerm): TermExpansions {
  let prefix: string[] | null = null;
  if (term.prefix) {
    const words = sql.prefix.pluck().all({ from: term.word, to: `${term.word}\u{10FFFF}` }) as string[];
    if (words.length <= MAX_PREFIX_WORDS) prefix = words;
  }
  const infix = term.infix ? (sql.infix.pluck().all(ftsString(term.word)) as string[]) : [];
  const romanExact: string[] = [];
  const romanPrefix: string[] = [];
  if (term.skeleton && term.skeleton.length >= MIN_ROMAN_PREFIX) {
    const rows = sql.skeletonPrefix.all({ from: term.skeleton, to: `${term.skeleton}~` }) as {
      word: string;
      exact: number;
    }[];
    for (const row of rows) (row.exact ? romanExact : romanPrefix).push(row.word);
  } else if (term.skeleton) {
    romanExact.push(...(sql.skeletonExact.pluck().all(term.skeleton) as string[]));
  }
  return { prefix, infix, romanExact, romanPrefix };
}

/** The query at every level, in one mode. */
interface Expressions {
  mode: "all" | "any";
  /** What a post must match. */
  full: string;
  exact: string;
  literal: string;
  /** Each word's alternatives. */
  groups: string[];
  /** Any word at all: the title and tag tests. */
  anyWord: string;
}

function expressions(terms: readonly QueryTerm[], found: readonly TermExpansions[], mode: "all" | "any") {
  const level = (name: MatchLevel) =>
    matchExpression(
      terms.map((term, i) => termExpression(term, found[i], name)),
      mode,
    );
  const groups = terms.map((term, i) => termExpression(term, found[i], "full"));
  return {
    mode,
    full: level("full"),
    exact: level("exact"),
    literal: level("literal"),
    groups,
    anyWord: matchExpression(groups, "any"),
  } satisfies Expressions;
}

/**
 * Orders a tier's window, best first, by: (in "any" mode) how many words the
 * post has; whether its title has them all; whether it has the words
 * themselves (not only longer words or romanised forms); whether a tag or
 * category matched; whether the words are there as typed (not only through
 * romanisation); then the newest first. Each test is one FTS5 query over the
 * window's rowid range.
 */
function rankWindow(sql: Statements, window: readonly number[], query: Expressions): number[] {
  if (window.length <= 1) return [...window];
  const low = window[window.length - 1]!;
  const high = window[0]!;
  const members = (match: string) => new Set(sql.within.pluck().all(match, low, high) as number[]);
  const tests: Set<number>[] = [];
  if (query.mode === "any") tests.push(...query.groups.slice(0, MAX_COUNTED_TERMS).map(members));
  const counted = tests.length;
  if (query.groups.length > 1) tests.push(members(inColumn("title", query.full)));
  if (query.exact !== query.full) tests.push(members(query.exact));
  tests.push(members(inColumn("tags", query.anyWord)));
  if (query.literal !== query.full && query.literal !== query.exact) tests.push(members(query.literal));
  const keys = new Map<number, number[]>();
  for (const id of window) {
    const key = [0];
    for (const [i, test] of tests.entries()) {
      const hit = test.has(id) ? 1 : 0;
      if (i < counted) key[0]! += hit;
      else key.push(hit);
    }
    keys.set(id, key);
  }
  return [...window].sort((a, b) => {
    const ka = keys.get(a)!;
    const kb = keys.get(b)!;
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i]! - ka[i]!;
    return b - a;
  });
}

/**
 * One tier's rows [offset, offset + limit): its newest RANK_WINDOW matches
 * ranked, then the older ones newest first. Returns the rows and the tier's
 * size when known without counting.
 */
function tierRows(sql: Statements, match: string, query: Expressions, offset: number, limit: number) {
  const newest = sql.newest.pluck().all(match) as number[];
  const complete = newest.length <= RANK_WINDOW;
  const window = complete ? newest : newest.slice(0, RANK_WINDOW);
  const rows: number[] = [];
  if (offset < window.length) rows.push(...rankWindow(sql, window, query).slice(offset, offset + limit));
  if (rows.length < limit && !complete) {
    rows.push(
      ...(sql.older.pluck().all({
        match,
        below: window[window.length - 1]!,
        limit: limit - rows.length,
        offset: Math.max(0, offset - window.length),
      }) as number[]),
    );
  }
  return { rows, count: complete ? newest.length : null };
}

/** Around the first match in the text, else in the excerpt, else the text's beginning. */
function bodySnippet(html: string, excerpt: string, test: WordTest) {
  const inText = snippet(htmlToPlainText(html), test);
  if (inText.some((segment) => segment.mark) || excerpt === "") return inText;
  const inExcerpt = snippet(excerpt, test);
  return inExcerpt.some((segment) => segment.mark) ? inExcerpt : inText;
}

type PostRow = PostSummary & { id: number; content: string };

function hits(sql: Statements, ids: readonly number[], test: WordTest): SearchHit[] {
  const json = JSON.stringify(ids);
  const rows = new Map((sql.posts.all(json) as PostRow[]).map((row) => [row.id, row] as const));
  const terms = new Map<number, Term[]>();
  for (const { postId, ...term } of sql.terms.all(json) as (Term & { postId: number })[]) {
    terms.set(postId, [...(terms.get(postId) ?? []), term]);
  }
  const found: SearchHit[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const { id: _id, content, ...summary } = row;
    found.push({
      ...summary,
      titleSegments: highlight(summary.title, test),
      snippet: bodySnippet(content, row.excerpt, test),
      matchedTerms: (terms.get(id) ?? []).filter((term) => highlight(term.name, test).some((s) => s.mark)),
    });
  }
  return found;
}

/** Tags offered when a search finds nothing. */
const SUGGESTED_TAGS = 12;

export function emptySearchResult(page: number): SearchResultPage {
  return { posts: [], page, hasNext: false, total: 0, mode: "all", ignoredWords: 0, suggestedTags: [] };
}

/**
 * Published posts matching `text`, best first: posts whose title has a word
 * of the search (issue 4: a title match ranks above a content-only match),
 * then the others, each ranked by rankWindow. See docs/search.md.
 */
export function searchPublishedPosts(db: Db, text: string, page: number, perPage: number): SearchResultPage {
  const parsed = parseQuery(text);
  const sql = statements(db);
  if (parsed.terms.length === 0 || page < 1 || perPage < 1) {
    return { ...emptySearchResult(page), suggestedTags: sql.suggestedTags.all(SUGGESTED_TAGS) as Term[] };
  }

  const found = parsed.terms.map((term) => expand(sql, term));
  let query = expressions(parsed.terms, found, "all");
  let total = sql.count.pluck().get(query.full) as number;
  if (total === 0 && parsed.terms.length > 1) {
    query = expressions(parsed.terms, found, "any");
    total = sql.count.pluck().get(query.full) as number;
  }
  const result: SearchResultPage = {
    ...emptySearchResult(page),
    total,
    mode: query.mode,
    ignoredWords: parsed.ignored,
  };
  if (total === 0) result.suggestedTags = sql.suggestedTags.all(SUGGESTED_TAGS) as Term[];
  let skip = (page - 1) * perPage;
  if (total <= skip) return result;

  const inTitle = inColumn("title", query.anyWord);
  const tiers = [`(${query.full}) AND ${inTitle}`, `(${query.full}) NOT ${inTitle}`];
  const ids: number[] = [];
  let remaining = total;
  for (const tier of tiers) {
    const want = perPage + 1 - ids.length;
    if (want <= 0 || remaining <= 0) break;
    const { rows, count } = tierRows(sql, tier, query, skip, want);
    ids.push(...rows);
    if (ids.length > perPage) break;
    const size = count ?? (sql.count.pluck().get(tier) as number);
    skip = Math.max(0, skip - size);
    remaining -= size;
  }
  const test = wordTest(wordMatcher(parsed.terms, found));
  return { ...result, posts: hits(sql, ids.slice(0, perPage), test), hasNext: ids.length > perPage };
}

/**
 * Builds the search index again from the posts (the migration's backfill):
 * after a change to the folding rules, or to measure the build.
 */
export function rebuildSearchIndex(db: Db): void {
  db.transaction(() => {
    db.exec(`
      INSERT INTO search_index (search_index) VALUES ('delete-all');
      DELETE FROM search_words;
      INSERT OR IGNORE INTO search_words (word)
        SELECT w.value FROM terms t, json_each(sukti_words(sukti_fold(t.name))) w;
      CREATE TEMP TABLE search_rebuild AS SELECT id, title, tags, body FROM search_source;
      INSERT INTO search_index (rowid, title, tags, body) SELECT id, title, tags, body FROM search_rebuild;
      INSERT OR IGNORE INTO search_words (word)
        SELECT w.value FROM search_rebuild s, json_each(sukti_words(s.title || ' ' || s.body)) w;
      DROP TABLE search_rebuild;
    `);
  })();
}
