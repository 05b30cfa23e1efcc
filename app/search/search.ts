// The search algorithm, once for every database (docs/search.md,
// docs/decisions/020-search-index.md): parsing, expansion of each query word
// into indexed words, the title tier, ranking of the newest matches and
// highlighting. Each database provides a SearchBackend that runs match
// expressions (FTS5 syntax, as built by app/content/search-query.ts) and word
// lookups: FTS5 in app/data/sqlite/search.server.ts, tsvector and
// trigram tables in app/data/postgres/search.server.ts.
import { cutHtml } from "#app/content/html-cut.ts";
import { htmlToPlainText } from "#app/content/html-text.ts";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import type { PostSummary, SearchHit, SearchResultPage, Term, Translation } from "#app/content/model.ts";
import { conceptWords } from "#app/content/search-concepts.ts";
import { foldText } from "#app/content/search-fold.ts";
import { highlight, snippet, type WordTest, wordTest } from "#app/content/search-highlight.ts";
import {
  alternativesExpression,
  alternativeTest,
  inColumn,
  type MatchLevel,
  matchExpression,
  parseQuery,
  type QueryTerm,
  type TermAlternatives,
  type TermExpansions,
  termAlternatives,
  wordMatcher,
} from "#app/content/search-query.ts";
import { MIN_ROMAN_PREFIX, nearQuerySkeletons } from "#app/content/search-roman.ts";
import { READ_BOUNDS } from "#app/data/read-bounds.ts";

/**
 * The newest RANK_WINDOW matches of a tier are ranked; older matches of a very
 * common word follow, newest first. This bounds the cost of "a" or "प्रेम" on
 * 100,000 posts (docs/decisions/020-search-index.md).
 */
export const RANK_WINDOW = 300;

/** Indexed words a query word may bring in, by infix and by skeleton (each). */
export const MAX_EXPANSIONS = 40;
/** Words sharing a prefix listed one by one; beyond this, a prefix query. */
export const MAX_PREFIX_WORDS = 64;
/** In "any" mode, how many words are counted per post to rank posts with more of them first. */
const MAX_COUNTED_TERMS = 6;
/**
 * Matches counted for the first pages: past this, the page says "more than
 * 1,000" (counting every match of "love" at 100,000 posts costs more than the
 * rest of the search). A page beyond it counts them all.
 */
export const COUNT_LIMIT = 1000;
/** Tags offered when a search finds nothing. */
const SUGGESTED_TAGS = 12;

export function emptySearchResult(page: number): SearchResultPage {
  return {
    posts: [],
    page,
    hasNext: false,
    total: 0,
    totalCapped: false,
    mode: "all",
    ignoredWords: 0,
    suggestedTags: [],
  };
}

export type SearchPostRow = PostSummary & {
  id: number;
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
 * What a database provides. `match` is an FTS5-syntax expression over the
 * columns title, tags and body (double-quoted words, `*` prefixes, AND, OR,
 * NOT, parentheses, `{column} : (…)`); ids are post ids, newest = highest.
 */
export interface SearchBackend {
  /** How many posts match; when a limit is given, the backend may stop counting there. */
  count(match: string, limit?: number): Promise<number>;
  /** The highest matching ids, highest first. */
  newest(match: string, limit: number): Promise<number[]>;
  /** Those of `words` that some indexed post holds (or held), any order. */
  knownWords(words: readonly string[]): Promise<string[]>;
  /** The indexed titles and tags of those of `ids` that are in the index, any order. */
  documentHeads(ids: readonly number[]): Promise<SearchDocumentHead[]>;
  /** The indexed text of those of `ids` that are in the index, any order. */
  documentBodies(ids: readonly number[]): Promise<SearchDocumentBody[]>;
  /** Matching ids below `below`, highest first, from `offset`. */
  older(match: string, below: number, limit: number, offset: number): Promise<number[]>;
  /** Published posts among `ids`, any order. */
  posts(ids: readonly number[]): Promise<SearchPostRow[]>;
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

/** Indexed words found for a query word: words beginning with it, containing it, sounding like it, meaning it. */
export async function expand(backend: SearchBackend, term: QueryTerm): Promise<TermExpansions> {
  const prefixLookup = term.prefix
    ? backend.wordRange(term.word, `${term.word}\u{10FFFF}`, MAX_PREFIX_WORDS + 1)
    : Promise.resolve(null);
  const infixLookup = term.infix ? backend.infix(term.word, MAX_EXPANSIONS) : Promise.resolve([]);
  const romanLookups = term.skeletons.map((skeleton) =>
    skeleton.length >= MIN_ROMAN_PREFIX
      ? backend.skeletonRange(skeleton, `${skeleton}~`, MAX_EXPANSIONS)
      : backend
          .skeletonExact(skeleton, MAX_EXPANSIONS)
          .then((words) => words.map((word) => ({ word, exact: true }))),
  );
  const [words, infix, ...roman] = await Promise.all([prefixLookup, infixLookup, ...romanLookups]);
  const prefix = words && words.length <= MAX_PREFIX_WORDS ? words : null;
  // A two-letter word's Devanagari spellings are matched whole (ke → के, की).
  const romanExact = new Set<string>(term.spellings);
  const romanPrefix = new Set<string>();
  for (const row of roman.flat()) (row.exact ? romanExact : romanPrefix).add(row.word);
  for (const word of romanExact) romanPrefix.delete(word);
  return {
    prefix,
    infix,
    romanExact: [...romanExact],
    romanPrefix: [...romanPrefix].slice(0, MAX_EXPANSIONS),
    concepts: conceptWords(term.word),
  };
}

/** Query words read one letter off at most, the first ones that need it: each costs a lookup of thousands of skeletons. */
export const MAX_NEAR_TERMS = 3;

/** Whether a Latin query word's lookups found no indexed word at all. */
function matchesNothing(term: QueryTerm, e: TermExpansions): boolean {
  return (
    term.skeletons.length > 0 &&
    e.prefix !== null &&
    e.prefix.length === 0 &&
    e.infix.length === 0 &&
    e.romanPrefix.length === 0 &&
    e.concepts.length === 0 &&
    // An initialism's letter names (zndagi: जेडएनडी…) are listed unchecked: they are no evidence of a match.
    e.romanExact.every((word) => term.spellings.includes(word))
  );
}

/**
 * A romanised query word that matches nothing at all (no word begins with
 * it, no skeleton finds one, no concept) is read one letter off: the
 * Devanagari words whose skeleton is one edit from one of its skeletons (a
 * typo; search-roman.ts, nearSkeletons), as romanised guesses. A word with
 * any match keeps exactly what it had.
 */
async function readNear(
  backend: SearchBackend,
  terms: readonly QueryTerm[],
  found: readonly TermExpansions[],
): Promise<TermExpansions[]> {
  const unmatched = found
    .map((expansions, i) => ({ term: terms[i], i, expansions }))
    .filter(
      (entry): entry is { term: QueryTerm; i: number; expansions: TermExpansions } =>
        entry.term !== undefined && matchesNothing(entry.term, entry.expansions),
    )
    .slice(0, MAX_NEAR_TERMS);
  const result = [...found];
  await Promise.all(
    unmatched.map(async ({ term, i, expansions }) => {
      const near = nearQuerySkeletons(term.word, term.skeletons);
      if (near.length === 0) return;
      result[i] = { ...expansions, romanPrefix: await backend.skeletonsIn(near, MAX_EXPANSIONS) };
    }),
  );
  return result;
}

interface Expressions {
  mode: "all" | "any";
  /** Every kind of match; `full` without other languages, `literal` the query's own script only. */
  wide: string;
  full: string;
  exact: string;
  literal: string;
  groups: string[];
  anyWord: string;
  /** Each query word's alternatives at each level: what the window is ranked by, in our code. */
  alternatives: Record<MatchLevel, TermAlternatives[]>;
  /** The alternatives without words no post holds, looked up once a search (rankWindow). */
  present?: Promise<Record<MatchLevel, TermAlternatives[]>>;
}

const LEVELS: readonly MatchLevel[] = ["exact", "literal", "full", "wide"];

function expressions(
  terms: readonly QueryTerm[],
  found: readonly TermExpansions[],
  mode: "all" | "any",
): Expressions {
  const alternatives = Object.fromEntries(
    LEVELS.map((level) => [level, terms.map((term, i) => termAlternatives(term, found[i], level))]),
  ) as Record<MatchLevel, TermAlternatives[]>;
  const level = (name: MatchLevel) => matchExpression(alternatives[name].map(alternativesExpression), mode);
  const groups = alternatives.wide.map(alternativesExpression);
  return {
    mode,
    wide: level("wide"),
    full: level("full"),
    exact: level("exact"),
    literal: level("literal"),
    groups,
    anyWord: matchExpression(groups, "any"),
    alternatives,
  };
}

/**
 * The tiers of a search, in the order they are listed (issue 14): matches in
 * the query's own script (the words as typed, their prefixes, words holding
 * them), then romanised guesses, then other languages; within each kind,
 * title matches first. A kind the query has no words of is left out.
 */
function tiersOf(query: Expressions): string[] {
  const kinds = [query.literal];
  if (query.full !== query.literal) kinds.push(`(${query.full}) NOT (${query.literal})`);
  if (query.wide !== query.full) kinds.push(`(${query.wide}) NOT (${query.full})`);
  const inTitle = inColumn("title", query.anyWord);
  return kinds.flatMap((kind) => [`(${kind}) AND ${inTitle}`, `(${kind}) NOT ${inTitle}`]);
}

/**
 * The alternatives without the words no post holds (a romanised guess, a
 * concept word, the query word itself when it is no indexed word): they
 * cannot match, and a test left with none needs no post's text.
 */
async function presentAlternatives(
  backend: SearchBackend,
  alternatives: Record<MatchLevel, TermAlternatives[]>,
): Promise<Record<MatchLevel, TermAlternatives[]>> {
  const words = new Set(Object.values(alternatives).flatMap((level) => level.flatMap((a) => a.words)));
  const known = new Set(await backend.knownWords([...words]));
  const present = {} as Record<MatchLevel, TermAlternatives[]>;
  for (const level of LEVELS) {
    present[level] = alternatives[level].map((a) => ({
      words: a.words.filter((word) => known.has(word)),
      prefix: a.prefix,
    }));
  }
  return present;
}

/** Posts' indexed texts read at once by the ranking: at most this many × READ_BOUNDS.indexedBody characters. */
const BODIES_PER_READ = 16;

/** A text cut at its bound loses its last, perhaps partial, word (it must not pass for a shorter word). */
function wholeWords(body: string): string {
  return body.length < READ_BOUNDS.indexedBody ? body : body.slice(0, body.lastIndexOf(" ") + 1);
}

/**
 * Orders a tier's window, best first, by: (in "any" mode) how many words the
 * post has; whether its title has them all; whether it has the words
 * themselves (not only longer words or romanised forms); whether a tag or
 * category matched; whether the words are there as typed (not only through
 * romanisation); then the newest first. The tests are the match expressions'
 * own, run in our code on the window's indexed words: titles and tags, then
 * the text of the posts those leave undecided (two reads of at most
 * RANK_WINDOW documents, not one index query per test; decision 040).
 */
async function rankWindow(backend: SearchBackend, window: readonly number[], query: Expressions) {
  if (window.length <= 1) return [...window];
  const { mode } = query;
  query.present ??= presentAlternatives(backend, query.alternatives);
  const present = await query.present;
  // Each query word's test at each level; null when no post could pass it.
  const tests = {} as Record<MatchLevel, (((text: string) => boolean) | null)[]>;
  for (const name of LEVELS) tests[name] = present[name].map(alternativeTest);
  const combine = (results: boolean[]) => (mode === "all" ? results.every(Boolean) : results.some(Boolean));
  const level = (text: string, name: MatchLevel) => combine(tests[name].map((test) => test?.(text) ?? false));
  const possibleLevel = (name: MatchLevel) => combine(tests[name].map((test) => test !== null));
  const counted = mode === "any" ? tests.wide.slice(0, MAX_COUNTED_TERMS) : [];
  const testExact = query.exact !== query.full;
  const testLiteral = query.literal !== query.full && query.literal !== query.exact;
  /** The key of a post: its tests in order, each 1 or 0; each text with a space at each end, `text` all its words read so far. */
  const keyOf = (title: string, tags: string, text: string) => {
    const key = [counted.filter((test) => test?.(text)).length];
    if (tests.wide.length > 1) key.push(level(title, "wide") ? 1 : 0);
    if (testExact) key.push(level(text, "exact") ? 1 : 0);
    key.push(tests.wide.some((test) => test?.(tags)) ? 1 : 0);
    if (testLiteral) key.push(level(text, "literal") ? 1 : 0);
    return key;
  };
  /** Whether a post's title and tags settle its key: no test they fail could pass with its text. */
  const settled = (text: string) =>
    counted.every((test) => test === null || test(text)) &&
    (!testExact || level(text, "exact") || !possibleLevel("exact")) &&
    (!testLiteral || level(text, "literal") || !possibleLevel("literal"));
  // Titles and tags first: they often settle every test (a title holding the word),
  // and a post's text is read only when they do not.
  const heads = await backend.documentHeads(window);
  const keys = new Map<number, number[]>();
  const unsettled = new Map<number, { title: string; tags: string; text: string }>();
  for (const { id, title, tags } of heads) {
    const spaced = { title: ` ${title} `, tags: ` ${tags} `, text: ` ${title} ${tags} ` };
    keys.set(id, keyOf(spaced.title, spaced.tags, spaced.text));
    if (!settled(spaced.text)) unsettled.set(id, spaced);
  }
  // A few texts at a time: each is cut at READ_BOUNDS.indexedBody by the backend, and a
  // window of the longest posts is never held whole (decision 044).
  const unsettledIds = [...unsettled.keys()];
  for (let at = 0; at < unsettledIds.length; at += BODIES_PER_READ) {
    for (const { id, body } of await backend.documentBodies(unsettledIds.slice(at, at + BODIES_PER_READ))) {
      const spaced = unsettled.get(id);
      if (spaced === undefined)
        throw new Error(`rankWindow: a body came back for post ${id}, which was not asked for`);
      keys.set(id, keyOf(spaced.title, spaced.tags, `${spaced.text}${wholeWords(body)} `));
    }
  }
  // A post unpublished since the window was read has no document: last.
  const keyFor = (id: number) => keys.get(id) ?? [-1];
  return [...window].sort((a, b) => {
    const ka = keyFor(a);
    const kb = keyFor(b);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const testA = ka[i];
      const testB = kb[i];
      if (testA === undefined || testB === undefined) break; // not reached: i is inside both keys
      if (testA !== testB) return testB - testA;
    }
    return b - a;
  });
}

/**
 * One tier's rows [offset, offset + limit): its newest RANK_WINDOW matches
 * ranked, then the older ones newest first. Returns the rows and the tier's
 * size when known without counting.
 */
async function tierRows(
  backend: SearchBackend,
  match: string,
  query: Expressions,
  offset: number,
  limit: number,
) {
  const newest = await backend.newest(match, RANK_WINDOW + 1);
  const complete = newest.length <= RANK_WINDOW;
  const window = complete ? newest : newest.slice(0, RANK_WINDOW);
  const rows: number[] = [];
  if (offset < window.length)
    rows.push(...(await rankWindow(backend, window, query)).slice(offset, offset + limit));
  if (rows.length < limit && !complete) {
    const oldestRanked = window.at(-1);
    if (oldestRanked === undefined)
      throw new Error("tierRows: a tier longer than its window has an empty window");
    rows.push(
      ...(await backend.older(match, oldestRanked, limit - rows.length, Math.max(0, offset - window.length))),
    );
  }
  return { rows, count: complete ? newest.length : null };
}

/** The snippet is cut from the start of the text (READ_BOUNDS.snippetSource), never from megabytes of it. */
function bodySnippet(html: string, excerpt: string, test: WordTest) {
  const inText = snippet(htmlToPlainText(cutHtml(html, READ_BOUNDS.snippetSource).html), test);
  if (inText.some((segment) => segment.mark) || excerpt === "") return inText;
  const inExcerpt = snippet(excerpt, test);
  return inExcerpt.some((segment) => segment.mark) ? inExcerpt : inText;
}

/** Words a hit shows for "matched as" at most. */
const MAX_MATCHED_AS = 3;

/**
 * The words a hit matched through, when none of them is a word of the query
 * itself (a romanised guess, another language): as the post spells them.
 */
function matchedAs(segments: readonly { text: string; mark: boolean }[], queryWords: ReadonlySet<string>) {
  const words = new Map<string, string>();
  for (const { text, mark } of segments) {
    if (!mark) continue;
    const folded = foldText(text);
    if (queryWords.has(folded)) return [];
    if (!words.has(folded)) words.set(folded, text);
  }
  return [...words.values()].slice(0, MAX_MATCHED_AS);
}

async function hits(
  backend: SearchBackend,
  ids: readonly number[],
  test: WordTest,
  queryWords: ReadonlySet<string>,
): Promise<SearchHit[]> {
  if (ids.length === 0) return [];
  const [postRows, termRows, translationRows] = await Promise.all([
    backend.posts(ids),
    backend.terms(ids),
    backend.translations(ids),
  ]);
  const translations = new Map<number, Translation[]>();
  for (const { postId, ...translation } of translationRows)
    translations.set(postId, [...(translations.get(postId) ?? []), translation]);
  const rows = new Map(postRows.map((row) => [row.id, row] as const));
  const terms = new Map<number, Term[]>();
  for (const { postId, ...term } of termRows) terms.set(postId, [...(terms.get(postId) ?? []), term]);
  const found: SearchHit[] = [];
  for (const id of ids) {
    const row = rows.get(id);
    if (!row) continue;
    const { id: _id, content, personSlug, nameEnglish, nameHindi, nameMarathi, ...summary } = row;
    const titleSegments = highlight(summary.title, test);
    const snippet = bodySnippet(content, row.excerpt, test);
    found.push({
      ...summary,
      titleSegments,
      snippet,
      matchedTerms: (terms.get(id) ?? []).filter((term) => highlight(term.name, test).some((s) => s.mark)),
      matchedAs: matchedAs([...titleSegments, ...snippet], queryWords),
      person:
        personSlug === null
          ? null
          : {
              slug: personSlug,
              names: { english: nameEnglish ?? "", hindi: nameHindi ?? "", marathi: nameMarathi ?? "" },
            },
      translations: (translations.get(id) ?? []).sort(
        (a, b) => LANGUAGES.indexOf(a.language) - LANGUAGES.indexOf(b.language),
      ),
    });
  }
  return found;
}

/**
 * Published posts matching `text`, best first: posts whose title has a word
 * of the search (issue 4: a title match ranks above a content-only match),
 * then the others, each ranked by rankWindow. See docs/search.md.
 */
export async function searchWith(
  backend: SearchBackend,
  text: string,
  page: number,
  perPage: number,
): Promise<SearchResultPage> {
  const parsed = parseQuery(text);
  if (parsed.terms.length === 0 || page < 1 || perPage < 1) {
    return { ...emptySearchResult(page), suggestedTags: await backend.suggestedTags(SUGGESTED_TAGS) };
  }
  const found = await readNear(
    backend,
    parsed.terms,
    await Promise.all(parsed.terms.map((term) => expand(backend, term))),
  );
  let skip = (page - 1) * perPage;
  // Matches are counted up to COUNT_LIMIT, or all of them for a page that reaches past it.
  const countLimit = skip + perPage < COUNT_LIMIT ? COUNT_LIMIT + 1 : undefined;
  let query = expressions(parsed.terms, found, "all");
  let total = await backend.count(query.wide, countLimit);
  if (total === 0 && parsed.terms.length > 1) {
    query = expressions(parsed.terms, found, "any");
    total = await backend.count(query.wide, countLimit);
  }
  const totalCapped = countLimit !== undefined && total > COUNT_LIMIT;
  const result: SearchResultPage = {
    ...emptySearchResult(page),
    total: totalCapped ? COUNT_LIMIT : total,
    totalCapped,
    mode: query.mode,
    ignoredWords: parsed.ignored,
  };
  if (total === 0) result.suggestedTags = await backend.suggestedTags(SUGGESTED_TAGS);
  if (total <= skip) return result;

  const tiers = tiersOf(query);
  const ids: number[] = [];
  let remaining = totalCapped ? Number.POSITIVE_INFINITY : total;
  for (const [i, tier] of tiers.entries()) {
    const want = perPage + 1 - ids.length;
    if (want <= 0 || remaining <= 0) break;
    const { rows, count } = await tierRows(backend, tier, query, skip, want);
    ids.push(...rows);
    // After the last tier nothing reads the size: not counted (a count is the costly query).
    if (ids.length > perPage || i === tiers.length - 1) break;
    const size = count ?? (await backend.count(tier));
    skip = Math.max(0, skip - size);
    remaining -= size;
  }
  const test = wordTest(wordMatcher(parsed.terms, found));
  return {
    ...result,
    posts: await hits(backend, ids.slice(0, perPage), test, new Set(parsed.terms.map((term) => term.word))),
    hasNext: ids.length > perPage,
  };
}
