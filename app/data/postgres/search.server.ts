// Search over PostgreSQL: the same parsing, expansion, tiers, ranking and
// highlighting as SQLite (app/search/), over the structures of
// db/postgres/migrations/20261122010000_search.sql. The query model
// (app/search/query-model.ts) becomes a tsquery here, and only here
// (tsqueryOf): a word is one lexeme, a prefix `:*`, and a column puts its
// marker before each word inside it (title → 't:love'; see documentVector in
// ./write-target.server.ts); a search in one language ANDs its language's
// lexeme ('l:hindi', decision 101). How each match is read, walked newest
// first or asked of the GIN index: decision 100.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { Term, Translation } from "#app/content/model.ts";
import type { LexemeStatistics } from "#app/data/postgres/lexeme-frequencies.server.ts";
import { COLUMN_MARKERS, LANGUAGE_MARKER } from "#app/data/postgres/write-target.server.ts";
import { READ_BOUNDS as BOUND, cutSql, prefixSql } from "#app/data/read-bounds.ts";
import { SUMMARY_COLUMNS } from "#app/data/sql/read-queries.ts";
import type {
  SearchBackend,
  SearchDocumentBody,
  SearchDocumentHead,
  SearchPostRow,
} from "#app/search/backend.ts";
import { wordTrigrams } from "#app/search/document.ts";
import { both, type Match, termMatch } from "#app/search/query-model.ts";

/** A tsquery lexeme: quoted, so it is taken as is (no parser, no normalisation). */
function lexeme(word: string, prefix: boolean, marker: string): string {
  return `'${(marker + word).replaceAll("\\", "\\\\").replaceAll("'", "''")}'${prefix ? ":*" : ""}`;
}

/** Parts joined by a tsquery operator, two at a time, left first, each pair parenthesised. */
function joined(parts: readonly string[], operator: "&" | "|"): string {
  const [first, ...rest] = parts;
  if (first === undefined) throw new Error("a match with no words has no tsquery");
  return rest.reduce((left, right) => `(${left} ${operator} ${right})`, first);
}

/**
 * The tsquery of a match (app/search/query-model.ts): a word is one lexeme,
 * a prefix `:*`, and a column puts its marker before each word inside it
 * (title → 't:love'; documentVector in ./write-target.server.ts). Every
 * operation is parenthesised.
 */
export function tsqueryOf(match: Match, marker = ""): string {
  switch (match.kind) {
    case "term": {
      const { words, prefix } = match.alternatives;
      // The prefix is the query word, written first (termAlternatives); a ranking test's
      // alternatives may have lost it (rank.ts), and then it is a lexeme of its own.
      if (prefix !== null && words[0] !== prefix) {
        return joined(
          [lexeme(prefix, true, marker), ...words.map((word) => lexeme(word, false, marker))],
          "|",
        );
      }
      return joined(
        words.map((word, i) => lexeme(word, i === 0 && prefix !== null, marker)),
        "|",
      );
    }
    case "all":
    case "any":
      return joined(
        match.of.map((part) => tsqueryOf(part, marker)),
        match.kind === "all" ? "&" : "|",
      );
    case "and":
      return `(${tsqueryOf(match.left, marker)} & ${tsqueryOf(match.right, marker)})`;
    case "not":
      return `(${tsqueryOf(match.left, marker)} & !${tsqueryOf(match.right, marker)})`;
    case "column":
      return tsqueryOf(match.match, COLUMN_MARKERS[match.column]);
  }
}

/**
 * How many of the newest documents a count walks in the primary key's
 * order, testing each, before it asks the GIN index for the older matches
 * (decision 100): where a match is in a fifth of the posts, its first 1,001
 * are among the newest 5,000, found in ~2 ms, where the index builds a bitmap
 * of every match first (31,000 for "silence" at 100,000 posts: 5 ms); where
 * it is rare, the index alone, as the walk would read the whole table. A
 * count walks when the lexemes' frequencies (./lexeme-frequencies.server.ts)
 * say the match may be common enough to end within the walk.
 */
export const COUNT_WALK = 5000;

/**
 * The same for a tier's newest matches in one language (decision 101): a
 * walk ends at 301 matches when the match is in 5% of the documents or
 * more; the planner's own walk, for a word of another language, would read
 * the whole table.
 */
export const NEWEST_WALK = 6000;

/**
 * At most how many of the documents (0–1) a match holds, by its lexemes'
 * frequencies: an OR at most the sum of its parts, an AND at most its rarest
 * part, a NOT at most what it keeps; a prefix may be any lexeme. A column
 * puts its marker before each word inside it, as tsqueryOf does.
 */
export function densityBound(match: Match, frequency: (lexeme: string) => number, marker = ""): number {
  switch (match.kind) {
    case "term": {
      const { words, prefix } = match.alternatives;
      if (prefix !== null) return 1;
      return Math.min(
        1,
        words.reduce((sum, word) => sum + frequency(marker + word), 0),
      );
    }
    case "all":
    case "any": {
      const parts = match.of.map((part) => densityBound(part, frequency, marker));
      return match.kind === "all"
        ? Math.min(...parts)
        : Math.min(
            1,
            parts.reduce((sum, part) => sum + part, 0),
          );
    }
    case "and":
      return Math.min(
        densityBound(match.left, frequency, marker),
        densityBound(match.right, frequency, marker),
      );
    case "not":
      return densityBound(match.left, frequency, marker);
    case "column":
      return densityBound(match.match, frequency, COLUMN_MARKERS[match.column]);
  }
}

// A tier's newest matches, planned by PostgreSQL: the walk in the primary key's order or the GIN bitmap.
const NEWEST = `SELECT post_id AS id FROM search_documents WHERE document @@ $1::tsquery
    ORDER BY post_id DESC LIMIT $2`;

/** The ranking's tests (rank.ts, given as `tests`) on a document, as a string of 1s and 0s in the tests' order. */
const passed = (document: string, tests: string) =>
  `coalesce((SELECT string_agg(CASE WHEN ${document} @@ q THEN '1' ELSE '0' END, '' ORDER BY i)
    FROM unnest(${tests}::tsquery[]) WITH ORDINALITY AS t(q, i)), '')`;

// A match's documents walked (the newest `budget`, each tested) and, after them, the index's older ones
// (MATCHES: planned as if all were read, run only when read, as the count's).
const MATCHES =
  "WITH matches AS MATERIALIZED (SELECT post_id FROM search_documents WHERE document @@ $1::tsquery)";
const walked = (budget: string) =>
  `(SELECT post_id, document FROM search_documents ORDER BY post_id DESC LIMIT ${budget}) walked
    WHERE document @@ $1::tsquery`;
const olderThanWalked = (budget: string) => `matches
    WHERE post_id <= (SELECT post_id FROM search_documents ORDER BY post_id DESC OFFSET ${budget} LIMIT 1)`;

const SQL = {
  // The newest $3 documents (COUNT_WALK or none) walked in the primary key's order, each tested; then,
  // only if they hold fewer matches than the limit ($2; NULL counts them all), the index's matches
  // older than them. MATCHES is planned as if all were read (a CTE is planned on its own: the GIN
  // bitmap unless the word is in most posts) and runs only when read (a CTE runs as its rows are asked
  // for; UNION ALL reads its branches in turn, and the LIMIT stops it).
  count: `${MATCHES} SELECT count(*) AS n FROM (
      (SELECT FROM ${walked("$3")}) UNION ALL (SELECT FROM ${olderThanWalked("$3")})
      LIMIT $2) counted`,
  newest: NEWEST,
  // The newest matches (planned as alone: a subquery with a LIMIT is not flattened) with the ranking's
  // tests on each one's document: no document leaves the server, and the window and its tests are one
  // round trip.
  newestTested: `SELECT w.id, ${passed("d.document", "$3")} AS passed
    FROM (${NEWEST}) w JOIN search_documents d ON d.post_id = w.id ORDER BY w.id DESC`,
  // The same, walked ($3, then $4 documents) then asked of the index: a search kept to one language
  // (decision 101), whose match holds the language's lexeme, which PostgreSQL's planner takes as
  // independent of the words: it would walk the whole table for a word of another language.
  newestWalked: `${MATCHES} SELECT id FROM (
      (SELECT post_id AS id FROM ${walked("$3")} ORDER BY post_id DESC)
      UNION ALL (SELECT post_id FROM ${olderThanWalked("$3")} ORDER BY post_id DESC LIMIT $2)
      LIMIT $2) newest`,
  newestTestedWalked: `${MATCHES} SELECT id, passed FROM (
      (SELECT post_id AS id, ${passed("walked.document", "$3")} AS passed FROM ${walked("$4")}
        ORDER BY post_id DESC)
      UNION ALL (SELECT w.id, ${passed("d.document", "$3")} FROM (
          SELECT post_id AS id FROM ${olderThanWalked("$4")} ORDER BY post_id DESC LIMIT $2) w
        JOIN search_documents d ON d.post_id = w.id ORDER BY w.id DESC)
      LIMIT $2) tested`,
  // A document as tsvector text ('a' 'b' 't:c'): far cheaper to make and read than a text[] of its lexemes.
  documents:
    "SELECT post_id AS id, document::text AS lexemes FROM search_documents WHERE post_id = ANY($1::bigint[])",
  older: `SELECT post_id AS id FROM search_documents WHERE document @@ $1::tsquery AND post_id < $2
    ORDER BY post_id DESC LIMIT $3 OFFSET $4`,
  posts: `SELECT p.id, ${SUMMARY_COLUMNS}, ${prefixSql("p.content", BOUND.snippetStart + 1)} AS content,
      ${prefixSql("pe.slug", BOUND.slug)} AS "personSlug", ${cutSql("pe.name_english", BOUND.name)} AS "nameEnglish",
      ${cutSql("pe.name_hindi", BOUND.name)} AS "nameHindi", ${cutSql("pe.name_marathi", BOUND.name)} AS "nameMarathi"
    FROM posts p LEFT JOIN people pe ON pe.id = p.person_id
    WHERE p.id = ANY($1::bigint[]) AND p.status = 'publish'`,
  postTexts: `SELECT id, ${prefixSql("content", BOUND.snippetSource + 1)} AS content FROM posts
    WHERE id = ANY($1::bigint[]) AND status = 'publish'`,
  translations: `SELECT p.id AS "postId", t.language, ${prefixSql("t.slug", BOUND.slug)} AS slug,
      ${cutSql("t.title", BOUND.title)} AS title FROM posts p
    JOIN posts t ON t.translation_key = p.translation_key AND t.id <> p.id AND t.status = 'publish'
    WHERE p.id = ANY($1::bigint[]) AND p.translation_key IS NOT NULL`,
  terms: `SELECT pt.post_id AS "postId", t.kind, ${cutSql("t.name", BOUND.name)} AS name,
      ${prefixSql("t.slug", BOUND.slug)} AS slug FROM post_terms pt
    JOIN terms t ON t.id = pt.term_id
    WHERE pt.post_id = ANY($1::bigint[]) ORDER BY t.kind DESC, t.name`,
  // Each tag with the language most of those posts are in (decision 066; english < hindi < marathi).
  suggestedTags: `SELECT kind, name, slug, language FROM (
      SELECT t.kind, ${cutSql("t.name", BOUND.name)} AS name, ${prefixSql("t.slug", BOUND.slug)} AS slug,
        p.language, t.name AS full_name, sum(count(*)) OVER (PARTITION BY t.id) AS uses,
        row_number() OVER (PARTITION BY t.id ORDER BY count(*) DESC, p.language) AS rank
      FROM (
        SELECT id, language FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC LIMIT 500
      ) p JOIN post_terms pt ON pt.post_id = p.id JOIN terms t ON t.id = pt.term_id
      WHERE t.kind = 'tag' GROUP BY t.id, p.language
    ) ranked WHERE rank = 1 ORDER BY uses DESC, full_name LIMIT $1`,
  wordRange: "SELECT word FROM search_words WHERE word >= $1 AND word < $2 ORDER BY word LIMIT $3",
  knownWords: "SELECT word FROM search_words WHERE word = ANY($1::text[])",
  // Every trigram of the fragment, then the fragment itself: FTS5's trigram MATCH, in word id order.
  infix: `SELECT w.word FROM search_words w
    WHERE w.id IN (
      SELECT word_id FROM search_word_trigrams WHERE trigram = ANY($1::text[])
      GROUP BY word_id HAVING count(*) = cardinality($1::text[]))
    AND strpos(w.word, $2) > 0
    ORDER BY w.id LIMIT $3`,
  skeletonExact: `SELECT w.word FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
    WHERE s.skeleton = $1 ORDER BY s.word_id LIMIT $2`,
  // Every range a search asks at once (skeletonRange), each numbered by its place in the arrays:
  // a word's skeletons are many (eight for "silence"), and each statement is a round trip.
  skeletonRanges: `SELECT r.i, w.word, x.shortest = length(r.low) AS exact
    FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS r(low, high, lim, i)
    CROSS JOIN LATERAL (SELECT s.word_id, min(length(s.skeleton)) AS shortest FROM search_skeletons s
      WHERE s.skeleton >= r.low AND s.skeleton < r.high
      GROUP BY s.word_id ORDER BY min(length(s.skeleton)), s.word_id LIMIT r.lim) x
    JOIN search_words w ON w.id = x.word_id
    ORDER BY r.i, x.shortest, x.word_id`,
  skeletonsIn: `SELECT w.word FROM search_words w WHERE w.id IN (
      SELECT s.word_id FROM search_skeletons s WHERE s.skeleton = ANY($1::text[]))
    ORDER BY w.id LIMIT $2`,
} as const;

type Name = keyof typeof SQL;

// Statements whose plan depends on the tsquery are planned for each query
// (unnamed); the others are prepared once per connection.
const PLANNED_EACH_TIME = new Set<Name>([
  "count",
  "newest",
  "newestTested",
  "newestWalked",
  "newestTestedWalked",
  "older",
]);

/**
 * The lexemes of a tsvector's text ('a' 'b' 't:c', no positions). Folded
 * words hold no quote, backslash or space, so they split at "' '"; a text
 * that holds a quote or backslash anyway is read quote by quote.
 */
export function tsvectorLexemes(text: string): string[] {
  if (text === "") return [];
  if (!/''|\\/.test(text)) return text.slice(1, -1).split("' '");
  return [...text.matchAll(/'((?:[^'\\]|''|\\.)*)'/g)].map((m) =>
    (m[1] ?? "").replaceAll("''", "'").replace(/\\(.)/g, "$1"),
  );
}

export class PostgresSearchBackend implements SearchBackend {
  readonly #db: pg.Pool | pg.PoolClient;
  readonly #queries = new WeakMap<Match, string>();
  /** Each document's words, as documentHeads read them (one backend serves one search). */
  readonly #bodies = new Map<number, string>();
  /** Skeleton ranges asked in this turn of the event loop, not yet sent (skeletonRange). */
  #ranges: {
    from: string;
    to: string;
    limit: number;
    resolve: (rows: { word: string; exact: boolean }[]) => void;
    reject: (error: unknown) => void;
  }[] = [];

  /** With a language, the matches (count, newest, older) are that language's posts only. */
  readonly #language: Language | undefined;
  /** The language's lexeme as a match ("l:hindi"), and each match kept to it (#inLanguage). */
  readonly #languageTerm: Match | undefined;
  readonly #keptToLanguage = new WeakMap<Match, Match>();
  readonly #statistics: LexemeStatistics | undefined;
  readonly #countWalk: number;
  readonly #newestWalk: number;

  constructor(
    db: pg.Pool | pg.PoolClient,
    language?: Language,
    options: { statistics?: LexemeStatistics; countWalk?: number; newestWalk?: number } = {},
  ) {
    this.#db = db;
    this.#language = language;
    this.#languageTerm =
      language === undefined
        ? undefined
        : termMatch({ words: [`${LANGUAGE_MARKER}${language}`], prefix: null });
    this.#statistics = options.statistics;
    this.#countWalk = options.countWalk ?? COUNT_WALK;
    this.#newestWalk = options.newestWalk ?? NEWEST_WALK;
  }

  /**
   * How many documents to walk before asking the index (up to `budget`:
   * COUNT_WALK for a count, NEWEST_WALK for a tier in one language): none
   * when the match is too rare to find `limit` among them, or a count has no
   * limit; the whole budget when the statistics cannot tell.
   */
  async #walk(match: Match, limit: number | undefined, budget: number): Promise<number> {
    if (limit === undefined) return 0;
    const frequencies = await this.#statistics?.frequencies();
    if (frequencies === null || frequencies === undefined) return budget;
    return densityBound(match, (lexeme) => frequencies.of(lexeme)) * budget >= limit ? budget : 0;
  }

  async #rows<R extends pg.QueryResultRow>(name: Name, values: unknown[]): Promise<R[]> {
    const config = PLANNED_EACH_TIME.has(name)
      ? { text: SQL[name], values }
      : { name: `sukti_s_${name}`, text: SQL[name], values };
    return (await this.#db.query<R>(config)).rows;
  }

  /**
   * A match kept to the backend's language, if it has one: its documents
   * hold the language's lexeme too (LANGUAGE_MARKER). The same object for
   * the same match, so that its tsquery is made once.
   */
  #inLanguage(match: Match): Match {
    if (this.#languageTerm === undefined) return match;
    let asked = this.#keptToLanguage.get(match);
    if (asked === undefined) {
      asked = both(match, this.#languageTerm);
      this.#keptToLanguage.set(match, asked);
    }
    return asked;
  }

  /** Each match is rendered once per search. */
  #tsquery(match: Match): string {
    let query = this.#queries.get(match);
    if (query === undefined) {
      query = tsqueryOf(match);
      this.#queries.set(match, query);
    }
    return query;
  }

  /**
   * Matches up to `limit` (decision 040's bounded count): the newest
   * documents walked when the match may be common enough to reach the limit
   * among them (decision 100), else, and after them, the GIN index's matches
   * planned as a count of every match (with a LIMIT in sight the planner
   * would scan the table for a word in a tenth of the posts,
   * query-plans.test.ts), stopped at the limit.
   */
  async count(match: Match, limit?: number) {
    const asked = this.#inLanguage(match);
    const [row] = await this.#rows<{ n: number }>("count", [
      this.#tsquery(asked),
      limit ?? null,
      await this.#walk(asked, limit, this.#countWalk),
    ]);
    if (row === undefined) throw new Error("PostgreSQL search count returned no row");
    return row.n;
  }

  async newest(match: Match, limit: number) {
    const asked = this.#inLanguage(match);
    const rows =
      this.#language === undefined
        ? await this.#rows<{ id: number }>("newest", [this.#tsquery(asked), limit])
        : await this.#rows<{ id: number }>("newestWalked", [
            this.#tsquery(asked),
            limit,
            await this.#walk(asked, limit, this.#newestWalk),
          ]);
    return rows.map((r) => r.id);
  }

  readonly columnMarkers = [...Object.values(COLUMN_MARKERS), LANGUAGE_MARKER];

  /** The newest matches with the ranking's tests run beside their documents (SearchBackend.newestTested): a post's text is its unmarked words. */
  async newestTested(match: Match, limit: number, tests: readonly Match[]) {
    const asked = this.#inLanguage(match);
    const values = [this.#tsquery(asked), limit, tests.map((test) => this.#tsquery(test))];
    const rows =
      this.#language === undefined
        ? await this.#rows<{ id: number; passed: string }>("newestTested", values)
        : await this.#rows<{ id: number; passed: string }>("newestTestedWalked", [
            ...values,
            await this.#walk(asked, limit, this.#newestWalk),
          ]);
    return rows.map(({ id, passed }) => ({
      id: Number(id),
      passed: Array.from(passed, (bit) => bit === "1"),
    }));
  }

  /** Asked beside a query word's other lookups (expand.ts): its matches then name only indexed words. */
  async knownWords(words: readonly string[]) {
    return (await this.#rows<{ word: string }>("knownWords", [words])).map((row) => row.word);
  }

  /**
   * A document is one tsvector: its lexemes are read once and sorted back
   * into columns by their markers (documentVector); the unmarked words (every
   * word of the post) are kept for documentBodies. Read only when the
   * ranking cannot ask newestTested (rank.ts).
   */
  async documentHeads(ids: readonly number[]) {
    const rows =
      ids.length === 0 ? [] : await this.#rows<{ id: number; lexemes: string }>("documents", [ids]);
    return rows.map(({ id, lexemes }): SearchDocumentHead => {
      const words: string[] = [];
      const title: string[] = [];
      const tags: string[] = [];
      for (const lexeme of tsvectorLexemes(lexemes)) {
        if (lexeme.startsWith(COLUMN_MARKERS.title)) title.push(lexeme.slice(COLUMN_MARKERS.title.length));
        else if (lexeme.startsWith(COLUMN_MARKERS.tags)) tags.push(lexeme.slice(COLUMN_MARKERS.tags.length));
        else if (!lexeme.startsWith(LANGUAGE_MARKER)) words.push(lexeme);
      }
      this.#bodies.set(id, words.join(" "));
      return { id, title: title.join(" "), tags: tags.join(" ") };
    });
  }

  async documentBodies(ids: readonly number[]) {
    const missing = ids.filter((id) => !this.#bodies.has(id));
    if (missing.length > 0) await this.documentHeads(missing);
    return ids.flatMap((id): SearchDocumentBody[] => {
      const body = this.#bodies.get(id);
      return body === undefined ? [] : [{ id, body }];
    });
  }

  async older(match: Match, below: number, limit: number, offset: number) {
    const values = [this.#tsquery(this.#inLanguage(match)), below, limit, offset];
    return (await this.#rows<{ id: number }>("older", values)).map((r) => r.id);
  }

  posts(ids: readonly number[]) {
    return this.#rows<SearchPostRow>("posts", [ids]);
  }

  postTexts(ids: readonly number[]) {
    return this.#rows<{ id: number; content: string }>("postTexts", [ids]);
  }

  terms(ids: readonly number[]) {
    return this.#rows<Term & { postId: number }>("terms", [ids]);
  }

  translations(ids: readonly number[]) {
    return this.#rows<Translation & { postId: number }>("translations", [ids]);
  }

  suggestedTags(limit: number) {
    return this.#rows<Term & { language: Language }>("suggestedTags", [limit]);
  }

  async wordRange(from: string, to: string, limit: number) {
    return (await this.#rows<{ word: string }>("wordRange", [from, to, limit])).map((r) => r.word);
  }

  async infix(word: string, limit: number) {
    const trigrams = wordTrigrams(word);
    if (trigrams.length === 0) return [];
    return (await this.#rows<{ word: string }>("infix", [trigrams, word, limit])).map((r) => r.word);
  }

  async skeletonExact(skeleton: string, limit: number) {
    return (await this.#rows<{ word: string }>("skeletonExact", [skeleton, limit])).map((r) => r.word);
  }

  /** Asked together with the other ranges asked in the same turn of the event loop (skeletonRanges). */
  skeletonRange(from: string, to: string, limit: number) {
    return new Promise<{ word: string; exact: boolean }[]>((resolve, reject) => {
      if (this.#ranges.length === 0) queueMicrotask(() => this.#askRanges());
      this.#ranges.push({ from, to, limit, resolve, reject });
    });
  }

  #askRanges(): void {
    const ranges = this.#ranges;
    this.#ranges = [];
    this.#rows<{ i: number; word: string; exact: boolean }>("skeletonRanges", [
      ranges.map((range) => range.from),
      ranges.map((range) => range.to),
      ranges.map((range) => range.limit),
    ]).then(
      (rows) => {
        const found = ranges.map((): { word: string; exact: boolean }[] => []);
        for (const { i, word, exact } of rows) found[i - 1]?.push({ word, exact });
        for (const [i, range] of ranges.entries()) range.resolve(found[i] ?? []);
      },
      (error: unknown) => {
        for (const range of ranges) range.reject(error);
      },
    );
  }

  async skeletonsIn(skeletons: readonly string[], limit: number) {
    return (await this.#rows<{ word: string }>("skeletonsIn", [skeletons, limit])).map((r) => r.word);
  }
}
