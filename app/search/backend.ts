// What each database provides to search (docs/search.md): runs the query
// model's matches (query-model.ts, rendered in the adapter's own syntax) and
// word lookups. FTS5 in app/data/sqlite/search.server.ts, tsvector and
// trigram tables in app/data/postgres/search.server.ts.
import type { Language } from "#app/content/languages.ts";
import type { PostSummary, Term, Translation } from "#app/content/model.ts";
import type { Match } from "#app/search/query-model.ts";

export type SearchPostRow = PostSummary & {
  id: number;
  /** The first READ_BOUNDS.snippetStart + 1 characters of its text (HTML). */
  content: string;
  personSlug: string | null;
  nameEnglish: string | null;
  nameHindi: string | null;
  nameMarathi: string | null;
};

/** A post's indexed title and tags, folded (words separated by single spaces). */
export interface SearchDocumentHead {
  id: number;
  title: string;
  tags: string;
}

/** The rest of a post's indexed words, folded: its text (and, as a database may keep them, title and tags again). */
export interface SearchDocumentBody {
  id: number;
  body: string;
}

/**
 * What a database provides. A `Match` is the query model over the columns
 * title, tags and body, which the backend renders in its own syntax; ids are
 * post ids, newest = highest.
 */
export interface SearchBackend {
  /** How many posts match; when a limit is given, the backend may stop counting there. */
  count(match: Match, limit?: number): Promise<number>;
  /** The highest matching ids, highest first. */
  newest(match: Match, limit: number): Promise<number[]>;
  /**
   * Those of `words` that some indexed post holds (or held), any order:
   * asked beside a query word's lookups (expand.ts), so a search's matches
   * name no word no post holds, and the ranking skips reading text for a
   * test none can pass. Optional: without it every word is taken as known.
   */
  knownWords?(words: readonly string[]): Promise<string[]>;
  /**
   * Optional, for a backend whose documents are far (a database server):
   * newest(match, limit) with, for each id, whether its document passes each
   * of `tests` (the ranking's tests, rank.ts), run beside the documents in
   * the same request instead of reading them. A post's text is all its
   * indexed words. Highest id first.
   */
  newestTested?(
    match: Match,
    limit: number,
    tests: readonly Match[],
  ): Promise<{ id: number; passed: boolean[] }[]>;
  /**
   * With newestTested: what the backend writes before a column's words in a
   * document; a prefix test that begins one is not asked (it would match them).
   */
  readonly columnMarkers?: readonly string[];
  /** The indexed titles and tags of those of `ids` that are in the index, any order. */
  documentHeads(ids: readonly number[]): Promise<SearchDocumentHead[]>;
  /**
   * Optional, for a backend where reading long texts costs more than asking
   * the index again: of `ids` whose heads this backend read (documentHeads),
   * those it would rather not have read, each with whether its document
   * passes each of `tests` (a post's text is all its indexed words), asked of
   * the index among them. The others (none, when their texts are short) are
   * left out: the caller reads them (documentBodies) and tests them itself.
   */
  testedAmong?(ids: readonly number[], tests: readonly Match[]): Promise<Map<number, boolean[]>>;
  /** The indexed text of those of `ids` that are in the index, any order. */
  documentBodies(ids: readonly number[]): Promise<SearchDocumentBody[]>;
  /** Matching ids below `below`, highest first, from `offset`. */
  older(match: Match, below: number, limit: number, offset: number): Promise<number[]>;
  /** Published posts among `ids`, any order. */
  posts(ids: readonly number[]): Promise<SearchPostRow[]>;
  /** The texts (HTML) of the published posts among `ids`, their first READ_BOUNDS.snippetSource + 1 characters, any order. */
  postTexts(ids: readonly number[]): Promise<{ id: number; content: string }[]>;
  /** The terms of `ids`, ordered by kind descending, then name. */
  terms(ids: readonly number[]): Promise<(Term & { postId: number })[]>;
  /** The published translations of `ids`, any order. */
  translations(ids: readonly number[]): Promise<(Translation & { postId: number })[]>;
  /**
   * The tags of the newest 500 published posts, most used first, then by
   * name, each with the language most of its posts there are in (ties: LANGUAGES order).
   */
  suggestedTags(limit: number): Promise<(Term & { language: Language })[]>;
  /** Vocabulary words >= from and < to, in byte order, at most `limit`. */
  wordRange(from: string, to: string, limit: number): Promise<string[]>;
  /** Devanagari vocabulary words containing `word`, oldest first (by word id), at most `limit`. */
  infix(word: string, limit: number): Promise<string[]>;
  /** Words with exactly this skeleton, at most `limit`. */
  skeletonExact(skeleton: string, limit: number): Promise<string[]>;
  /** Words with a skeleton >= from and < to: shortest skeleton first, then word id; `exact` when one equals from. */
  skeletonRange(from: string, to: string, limit: number): Promise<{ word: string; exact: boolean }[]>;
  /** Words with one of these skeletons exactly, by word id, at most `limit`. */
  skeletonsIn(skeletons: readonly string[], limit: number): Promise<string[]>;
}
