// Search over SQLite: the algorithm of app/search/ over FTS5, on the
// structures of db/migrations/20261122010000_search.sql (search_words,
// search_words_trigram, search_skeletons) and 20261122030000_search_documents.sql
// (search_documents, and search_index, external-content FTS5 over it; queries
// read only the index: MATCH and rowid). Our code fills them
// at write time (./write-target.server.ts); rebuildSearchIndex below fills
// them again from the posts. The query model (app/search/query-model.ts)
// becomes FTS5 MATCH text here, and only here (fts5Match). See
// docs/search.md and docs/decisions/020-search-index.md.
import type { Statement } from "better-sqlite3";
import type { Language } from "#app/content/languages.ts";
import type { Term, Translation } from "#app/content/model.ts";
import { READ_BOUNDS as BOUND, cutSql, prefixSql } from "#app/data/read-bounds.ts";
import { SUMMARY_COLUMNS } from "#app/data/sql/read-queries.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import { SearchIndexWriter } from "#app/data/sqlite/write-target.server.ts";
import type {
  SearchBackend,
  SearchDocumentBody,
  SearchDocumentHead,
  SearchPostRow,
} from "#app/search/backend.ts";
import { searchDocument, termWords } from "#app/search/document.ts";
import type { Match, TermAlternatives } from "#app/search/query-model.ts";

/** One FTS5 string: double-quoted, any inner quote doubled (folded words hold none; this is the guarantee). */
export function ftsString(word: string): string {
  return `"${word.replaceAll('"', '""')}"`;
}

/** A term's alternatives: the words double-quoted, the first starred when it is also a prefix. */
function ftsAlternatives({ words, prefix }: TermAlternatives): string {
  const parts = words.map((word, i) =>
    i === 0 && prefix !== null ? `${ftsString(word)}*` : ftsString(word),
  );
  const [first] = parts;
  return parts.length === 1 && first !== undefined ? first : `(${parts.join(" OR ")})`;
}

/**
 * The FTS5 MATCH text of a match over the columns title, tags and body:
 * double-quoted words, `*` prefixes, AND, OR, NOT, parentheses,
 * `{column} : (…)`. The left side of AND and NOT is parenthesised, and the
 * right side unless it is a column filter.
 */
export function fts5Match(match: Match): string {
  switch (match.kind) {
    case "term":
      return ftsAlternatives(match.alternatives);
    case "all":
    case "any":
      return match.of
        .map((part) => (part.kind === "term" ? fts5Match(part) : `(${fts5Match(part)})`))
        .join(match.kind === "all" ? " AND " : " OR ");
    case "and":
    case "not": {
      const right = match.right.kind === "column" ? fts5Match(match.right) : `(${fts5Match(match.right)})`;
      return `(${fts5Match(match.left)}) ${match.kind === "and" ? "AND" : "NOT"} ${right}`;
    }
    case "column":
      return `{${match.column}} : (${fts5Match(match.match)})`;
  }
}

/** posts by id for a language filter: db/migrations/20261206000000_search_language.sql. */
const POSTS_BY_ID = "posts p INDEXED BY posts_id_language";

// FTS5 seeks by rowid only when the bound is an INTEGER; better-sqlite3 binds
// JavaScript numbers as REAL, hence the casts.
const SQL = {
  // LIMIT -1: no limit.
  count: "SELECT count(*) FROM (SELECT rowid FROM search_index WHERE search_index MATCH ? LIMIT ?)",
  newest: "SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rowid DESC LIMIT ?",
  knownWords: "SELECT word FROM search_words WHERE word IN (SELECT value FROM json_each(?))",
  // Cut as every read is (../read-bounds.ts); the ranking reads the indexed text in batches (app/search/rank.ts).
  // octet_length reads the text's size from its record, not the text (testedAmong).
  documentHeads: `SELECT post_id AS id, ${prefixSql("title", BOUND.indexedHead)} AS title,
      ${prefixSql("tags", BOUND.indexedHead)} AS tags, octet_length(body) AS bodyBytes FROM search_documents
    WHERE post_id IN (SELECT value FROM json_each(?))`,
  passingBetween: `SELECT rowid FROM search_index WHERE search_index MATCH ?
      AND rowid >= CAST(? AS INTEGER) AND rowid <= CAST(? AS INTEGER)`,
  documentBodies: `SELECT post_id AS id, ${prefixSql("body", BOUND.indexedBody)} AS body FROM search_documents
    WHERE post_id IN (SELECT value FROM json_each(?))`,
  older: `SELECT rowid FROM search_index WHERE search_index MATCH @match AND rowid < CAST(@below AS INTEGER)
    ORDER BY rowid DESC LIMIT @limit OFFSET @offset`,
  // The same three in one language (a filter on results, decision 065): the matches, newest
  // first as FTS5 gives them, each one's language read by its post id from a narrow index
  // (CROSS JOIN keeps the index first: started from the posts, the planner would run the
  // match once per post of the language; INDEXED BY, as it would read the wide rows instead).
  countIn: `SELECT count(*) FROM (SELECT search_index.rowid FROM search_index CROSS JOIN ${POSTS_BY_ID}
      ON p.id = search_index.rowid WHERE search_index MATCH ? AND p.language = ? LIMIT ?)`,
  newestIn: `SELECT search_index.rowid FROM search_index CROSS JOIN ${POSTS_BY_ID} ON p.id = search_index.rowid
    WHERE search_index MATCH ? AND p.language = ? ORDER BY search_index.rowid DESC LIMIT ?`,
  olderIn: `SELECT search_index.rowid FROM search_index CROSS JOIN ${POSTS_BY_ID} ON p.id = search_index.rowid
    WHERE search_index MATCH @match AND p.language = @language AND search_index.rowid < CAST(@below AS INTEGER)
    ORDER BY search_index.rowid DESC LIMIT @limit OFFSET @offset`,
  posts: `SELECT p.id, ${SUMMARY_COLUMNS},
      ${prefixSql("p.content", BOUND.snippetStart + 1)} AS content,
      ${prefixSql("pe.slug", BOUND.slug)} AS personSlug, ${cutSql("pe.name_english", BOUND.name)} AS nameEnglish,
      ${cutSql("pe.name_hindi", BOUND.name)} AS nameHindi, ${cutSql("pe.name_marathi", BOUND.name)} AS nameMarathi
    FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
    WHERE p.id IN (SELECT value FROM json_each(?)) AND p.status = 'publish'`,
  postTexts: `SELECT id, ${prefixSql("content", BOUND.snippetSource + 1)} AS content FROM posts
    WHERE id IN (SELECT value FROM json_each(?)) AND status = 'publish'`,
  translations: `SELECT p.id AS postId, t.language, ${prefixSql("t.slug", BOUND.slug)} AS slug,
      ${cutSql("t.title", BOUND.title)} AS title FROM posts p
    JOIN posts t ON t.translation_key = p.translation_key AND t.id <> p.id AND t.status = 'publish'
    WHERE p.id IN (SELECT value FROM json_each(?)) AND p.translation_key IS NOT NULL`,
  terms: `SELECT pt.post_id AS postId, t.kind, ${cutSql("t.name", BOUND.name)} AS name,
      ${prefixSql("t.slug", BOUND.slug)} AS slug FROM post_terms pt
    JOIN terms t ON t.id = pt.term_id
    WHERE pt.post_id IN (SELECT value FROM json_each(?)) ORDER BY t.kind DESC, t.name`,
  // Bounded at any size: the tags of the newest 500 published posts, most used first
  // (CROSS JOIN keeps that order; the planner would otherwise start from the tags).
  // Each tag with the language most of those posts are in (decision 066; english < hindi < marathi).
  suggestedTags: `SELECT kind, name, slug, language FROM (
      SELECT t.kind, ${cutSql("t.name", BOUND.name)} AS name, ${prefixSql("t.slug", BOUND.slug)} AS slug,
        p.language, t.name AS fullName, sum(count(*)) OVER (PARTITION BY t.id) AS uses,
        row_number() OVER (PARTITION BY t.id ORDER BY count(*) DESC, p.language) AS rank
      FROM (
        SELECT id, language FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC LIMIT 500
      ) p CROSS JOIN post_terms pt ON pt.post_id = p.id CROSS JOIN terms t ON t.id = pt.term_id
      WHERE t.kind = 'tag' GROUP BY t.id, p.language
    ) WHERE rank = 1 ORDER BY uses DESC, fullName LIMIT ?`,
  wordRange: "SELECT word FROM search_words WHERE word >= ? AND word < ? ORDER BY word LIMIT ?",
  infix: `SELECT w.word FROM search_words_trigram tri JOIN search_words w ON w.id = tri.rowid
    WHERE search_words_trigram MATCH ? LIMIT ?`,
  skeletonExact: `SELECT DISTINCT w.word FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
    WHERE s.skeleton = ? LIMIT ?`,
  // Exact skeletons first, then the shortest: प्रेम before प्रेमाने.
  skeletonRange: `SELECT w.word, min(length(s.skeleton)) = length(@from) AS exact
    FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
    WHERE s.skeleton >= @from AND s.skeleton < @to
    GROUP BY w.id ORDER BY min(length(s.skeleton)), w.id LIMIT @limit`,
  skeletonsIn: `SELECT w.word FROM search_words w WHERE w.id IN (
      SELECT s.word_id FROM search_skeletons s WHERE s.skeleton IN (SELECT value FROM json_each(?)))
    ORDER BY w.id LIMIT ?`,
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

/**
 * SearchBackend over FTS5: better-sqlite3 answers synchronously, inside the async methods.
 * With `language`, the matches (count, newest, older) are that language's posts only.
 */
/**
 * A ranking's texts are read up to this many bytes (UTF-8, as stored); longer
 * ones may be asked of the index instead (testedAmong). A text is read from its
 * overflow pages and made a JavaScript string at ~6 ns a byte (a window of
 * 300 posts of 50 kB: ~170 ms); a window of short posts in well under a millisecond.
 */
const READ_TEXTS_UP_TO = 512 * 1024;
/**
 * What a test asked of the index costs, in bytes read instead: FTS5 reads
 * the lists of the test's words over the range of post ids asked about,
 * ~100 ns a post in the range for common words (600 posts of 1,000 matches
 * spread over 100,000: ten tests 60–100 ms, where reading their 700 kB took
 * 3 ms), as long as reading ~16 bytes.
 */
const TEST_COST_IN_BYTES_A_POST = 16;

export class SqliteSearchBackend implements SearchBackend {
  readonly #sql: Statements;
  readonly #language: Language | undefined;
  /** Each document's text size in bytes, as documentHeads read it (one backend serves one search). */
  readonly #bodyBytes = new Map<number, number>();

  constructor(db: Db, language?: Language) {
    this.#sql = statements(db);
    this.#language = language;
  }

  async count(model: Match, limit?: number) {
    const match = fts5Match(model);
    const language = this.#language;
    if (language !== undefined) return this.#sql.countIn.pluck().get(match, language, limit ?? -1) as number;
    return this.#sql.count.pluck().get(match, limit ?? -1) as number;
  }

  async newest(model: Match, limit: number) {
    const match = fts5Match(model);
    const language = this.#language;
    if (language !== undefined) return this.#sql.newestIn.pluck().all(match, language, limit) as number[];
    return this.#sql.newest.pluck().all(match, limit) as number[];
  }

  async knownWords(words: readonly string[]) {
    return this.#sql.knownWords.pluck().all(JSON.stringify(words)) as string[];
  }

  /** The folded columns of search_documents, the text search_index was built from. */
  async documentHeads(ids: readonly number[]) {
    // Rows as arrays: a row object per head costs more than the head made here.
    const rows = this.#sql.documentHeads.raw().all(JSON.stringify(ids)) as [number, string, string, number][];
    return rows.map(([id, title, tags, bodyBytes]): SearchDocumentHead => {
      this.#bodyBytes.set(id, bodyBytes);
      return { id, title, tags };
    });
  }

  /**
   * When the texts of `ids` are long together (over READ_TEXTS_UP_TO bytes,
   * and more than asking the index costs: TEST_COST_IN_BYTES_A_POST), each
   * test asked of the index once, among the posts between the lowest and the
   * highest of them (FTS5 reads the rowid range of its words' lists).
   * Only texts under the read bound in bytes are asked (fewer characters, so
   * the index holds every word a read would give); the rest are left to be read.
   */
  async testedAmong(ids: readonly number[], tests: readonly Match[]) {
    const asked = new Map<number, boolean[]>();
    let bytes = 0;
    const within: number[] = [];
    for (const id of ids) {
      const size = this.#bodyBytes.get(id);
      if (size === undefined) continue;
      bytes += size;
      if (size < BOUND.indexedBody) within.push(id);
    }
    if (bytes <= READ_TEXTS_UP_TO || within.length === 0) return asked;
    const low = Math.min(...within);
    const high = Math.max(...within);
    if (bytes <= tests.length * (high - low + 1) * TEST_COST_IN_BYTES_A_POST) return asked;
    const passing = tests.map(
      (test) => new Set(this.#sql.passingBetween.pluck().all(fts5Match(test), low, high) as number[]),
    );
    for (const id of within)
      asked.set(
        id,
        passing.map((ids) => ids.has(id)),
      );
    return asked;
  }

  async documentBodies(ids: readonly number[]) {
    return this.#sql.documentBodies.all(JSON.stringify(ids)) as SearchDocumentBody[];
  }

  async older(model: Match, below: number, limit: number, offset: number) {
    const match = fts5Match(model);
    const language = this.#language;
    if (language !== undefined)
      return this.#sql.olderIn.pluck().all({ match, language, below, limit, offset }) as number[];
    return this.#sql.older.pluck().all({ match, below, limit, offset }) as number[];
  }

  async posts(ids: readonly number[]) {
    return this.#sql.posts.all(JSON.stringify(ids)) as SearchPostRow[];
  }

  async postTexts(ids: readonly number[]) {
    return this.#sql.postTexts.all(JSON.stringify(ids)) as { id: number; content: string }[];
  }

  async terms(ids: readonly number[]) {
    return this.#sql.terms.all(JSON.stringify(ids)) as (Term & { postId: number })[];
  }

  async translations(ids: readonly number[]) {
    return this.#sql.translations.all(JSON.stringify(ids)) as (Translation & { postId: number })[];
  }

  async suggestedTags(limit: number) {
    return this.#sql.suggestedTags.all(limit) as (Term & { language: Language })[];
  }

  async wordRange(from: string, to: string, limit: number) {
    return this.#sql.wordRange.pluck().all(from, to, limit) as string[];
  }

  async infix(word: string, limit: number) {
    return this.#sql.infix.pluck().all(ftsString(word), limit) as string[];
  }

  async skeletonsIn(skeletons: readonly string[], limit: number) {
    return this.#sql.skeletonsIn.pluck().all(JSON.stringify(skeletons), limit) as string[];
  }

  async skeletonExact(skeleton: string, limit: number) {
    return this.#sql.skeletonExact.pluck().all(skeleton, limit) as string[];
  }

  async skeletonRange(from: string, to: string, limit: number) {
    const rows = this.#sql.skeletonRange.all({ from, to, limit }) as { word: string; exact: number }[];
    return rows.map((row) => ({ word: row.word, exact: row.exact === 1 }));
  }
}

/** Posts read per statement while rebuilding (better-sqlite3 cannot write while a statement iterates). */
const REBUILD_BATCH = 1000;

/**
 * Builds the search documents, index and vocabulary again from the posts,
 * folding in our code as the writer does: after posts were published, edited
 * or terms renamed outside our code, after a change to the folding or
 * skeleton rules, or to measure the build. One transaction.
 */
export function rebuildSearchIndex(db: Db): void {
  const postsAfter = db.prepare<
    [number, number],
    { id: number; title: string; content: string; excerpt: string }
  >(`SELECT id, title, content, excerpt FROM posts WHERE status = 'publish' AND id > ? ORDER BY id LIMIT ?`);
  // The order of names within the tags column does not matter to a match.
  const termNames = db.prepare<[string], { postId: number; name: string }>(
    `SELECT pt.post_id AS postId, t.name FROM post_terms pt JOIN terms t ON t.id = pt.term_id
     WHERE pt.post_id IN (SELECT value FROM json_each(?)) ORDER BY pt.post_id, pt.term_id`,
  );
  db.transaction(() => {
    // search_words_ad takes each Devanagari word out of the trigram index; skeletons cascade.
    db.exec(`
      INSERT INTO search_index (search_index) VALUES ('delete-all');
      DELETE FROM search_documents;
      DELETE FROM search_skeletons;
      DELETE FROM search_words;
    `);
    const index = new SearchIndexWriter(db);
    // The words of the terms a published post is filed under (a draft's terms stay out: decision 048).
    const publishedTerms = db.prepare(
      `SELECT name FROM terms t WHERE EXISTS (SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
       WHERE pt.term_id = t.id AND p.status = 'publish') ORDER BY id`,
    );
    for (const name of publishedTerms.pluck().all() as string[]) {
      index.addWords(termWords(name));
    }
    let after = 0;
    for (;;) {
      const posts = postsAfter.all(after, REBUILD_BATCH);
      const last = posts.at(-1);
      if (last === undefined) break;
      const names = new Map<number, string[]>();
      for (const { postId, name } of termNames.all(JSON.stringify(posts.map((p) => p.id)))) {
        names.set(postId, [...(names.get(postId) ?? []), name]);
      }
      for (const post of posts) {
        index.indexNew(post.id, searchDocument({ ...post, termNames: names.get(post.id) ?? [] }));
      }
      after = last.id;
    }
  })();
}
