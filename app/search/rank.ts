// Ranking (docs/search.md, decision 040): the newest RANK_WINDOW matches of a
// tier, ordered in our code by tests on their indexed words; older matches
// follow, newest first.
import { BODIES_PER_READ, READ_BOUNDS } from "#app/data/read-bounds.ts";
import type { SearchBackend, SearchDocumentHead } from "#app/search/backend.ts";
import { alternativeTest, documentTests, spacedDocument } from "#app/search/document-match.ts";
import {
  type Column,
  combine,
  inColumn,
  LEVELS,
  type Match,
  type MatchLevel,
  sameMatch,
  type TermAlternatives,
  termMatch,
} from "#app/search/query-model.ts";
import { type QueryMatches, tiersOf } from "#app/search/tiers.ts";

/**
 * The newest RANK_WINDOW matches of a tier are ranked; older matches of a very
 * common word follow, newest first. This bounds the cost of "a" or "प्रेम" on
 * 100,000 posts (docs/decisions/020-search-index.md).
 */
export const RANK_WINDOW = 300;
/** In "any" mode, how many words are counted per post to rank posts with more of them first. */
const MAX_COUNTED_TERMS = 6;

/**
 * The alternatives without the words no post holds (a romanised guess, a
 * concept word, the query word itself when it is no indexed word): they
 * cannot match, and a test left with none needs no post's text.
 */
async function presentAlternatives(
  backend: SearchBackend,
  alternatives: Record<MatchLevel, TermAlternatives[]>,
): Promise<Record<MatchLevel, TermAlternatives[]>> {
  if (backend.knownWords === undefined) return alternatives;
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

/** A text cut at its bound loses its last, perhaps partial, word (it must not pass for a shorter word). */
function wholeWords(body: string): string {
  return body.length < READ_BOUNDS.indexedBody ? body : body.slice(0, body.lastIndexOf(" ") + 1);
}

/**
 * Orders a tier's window, best first, by: (in "any" mode) how many words the
 * post has; whether its title has them all; whether it has the words
 * themselves (not only longer words or romanised forms); whether a tag or
 * category matched; whether the words are there as typed (not only through
 * romanisation); then the newest first. The tests are the matches' own, run in our code on the window's indexed words: titles and tags, then
 * the text of the posts those leave undecided (two reads of at most
 * RANK_WINDOW documents, not one index query per test; decision 040).
 */
async function rankWindow(
  backend: SearchBackend,
  window: readonly number[],
  query: QueryMatches,
  keysBeside?: ReadonlyMap<number, readonly number[]>,
  headsRead?: ReadonlyMap<number, SearchDocumentHead>,
) {
  if (window.length <= 1) return [...window];
  // The tests were run beside the documents with the window's matches (newestTested).
  if (keysBeside !== undefined) return sortedByKeys(window, keysBeside);
  const { mode } = query;
  const plan = await windowPlan(backend, query);
  const { present } = plan;
  // Each query word's test at each level; null when no post could pass it.
  const tests = {} as Record<MatchLevel, (((text: string) => boolean) | null)[]>;
  for (const name of LEVELS) tests[name] = present[name].map(alternativeTest);
  const combine = (results: boolean[]) => (mode === "all" ? results.every(Boolean) : results.some(Boolean));
  const level = (text: string, name: MatchLevel) => combine(tests[name].map((test) => test?.(text) ?? false));
  const possibleLevel = (name: MatchLevel) => combine(tests[name].map((test) => test !== null));
  const counted = tests.wide.slice(0, plan.counted);
  /** The key of a post: its tests in order, each 1 or 0; each text with a space at each end, `text` all its words read so far. */
  const textKey = (title: string, tags: string, text: string) => {
    const key = [counted.filter((test) => test?.(text)).length];
    if (plan.title) key.push(level(title, "wide") ? 1 : 0);
    if (plan.exact) key.push(level(text, "exact") ? 1 : 0);
    key.push(tests.wide.some((test) => test?.(tags)) ? 1 : 0);
    if (plan.literal) key.push(level(text, "literal") ? 1 : 0);
    return key;
  };
  /** Whether a post's title and tags settle its key: no test they fail could pass with its text. */
  const settled = (text: string) =>
    counted.every((test) => test === null || test(text)) &&
    (!plan.exact || level(text, "exact") || !possibleLevel("exact")) &&
    (!plan.literal || level(text, "literal") || !possibleLevel("literal"));
  // Titles and tags first: they often settle every test (a title holding the word),
  // and a post's text is read only when they do not.
  const heads = headsRead
    ? window.flatMap((id) => headsRead.get(id) ?? [])
    : await backend.documentHeads(window);
  const keys = new Map<number, number[]>();
  const unsettled = new Map<number, { title: string; tags: string; text: string }>();
  for (const { id, title, tags } of heads) {
    const spaced = { title: ` ${title} `, tags: ` ${tags} `, text: ` ${title} ${tags} ` };
    keys.set(id, textKey(spaced.title, spaced.tags, spaced.text));
    if (!settled(spaced.text)) unsettled.set(id, spaced);
  }
  // Long texts asked of the index where the backend would rather (testedAmong), the tests said as matches.
  const beside = unsettled.size > 0 ? testsBeside(plan, backend.columnMarkers ?? []) : null;
  const asked =
    (beside &&
      (await backend.testedAmong?.(
        [...unsettled.keys()],
        beside.filter((test) => test !== null),
      ))) ??
    new Map<number, boolean[]>();
  for (const [id, passed] of asked) keys.set(id, keyOf(plan, beside ?? [], passed));
  // The others read, a few texts at a time: each is cut at READ_BOUNDS.indexedBody by the backend, and a
  // window of the longest posts is never held whole (decision 044).
  const unread = [...unsettled.keys()].filter((id) => !asked.has(id));
  for (let at = 0; at < unread.length; at += BODIES_PER_READ) {
    for (const { id, body } of await backend.documentBodies(unread.slice(at, at + BODIES_PER_READ))) {
      const spaced = unsettled.get(id);
      if (spaced === undefined)
        throw new Error(`rankWindow: a body came back for post ${id}, which was not asked for`);
      keys.set(id, textKey(spaced.title, spaced.tags, `${spaced.text}${wholeWords(body)} `));
    }
  }
  return sortedByKeys(window, keys);
}

/** Which of the ranking's tests a window's key holds, in key order after the count of words. */
interface WindowPlan {
  mode: "all" | "any";
  present: Record<MatchLevel, TermAlternatives[]>;
  /** How many query words are counted (in "any" mode). */
  counted: number;
  /** Whether the title holds the words (a test only for more than one word). */
  title: boolean;
  /** Whether the words themselves are there (not only longer words or romanised forms). */
  exact: boolean;
  /** Whether the words are there as typed (not only through romanisation). */
  literal: boolean;
}

/** The ranking's plan for a query, its present alternatives looked up once a search. */
async function windowPlan(backend: SearchBackend, query: QueryMatches): Promise<WindowPlan> {
  query.present ??= presentAlternatives(backend, query.alternatives);
  const present = await query.present;
  return {
    mode: query.mode,
    present,
    counted: query.mode === "any" ? Math.min(present.wide.length, MAX_COUNTED_TERMS) : 0,
    title: present.wide.length > 1,
    exact: !sameMatch(query.exact, query.full),
    literal: !sameMatch(query.literal, query.full) && !sameMatch(query.literal, query.exact),
  };
}

/** The window best first by each post's key (its tests in order), then newest first. */
function sortedByKeys(window: readonly number[], keys: ReadonlyMap<number, readonly number[]>): number[] {
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

/** The match a test asks for: null when no post can pass it (as alternativeTest's null). */
function alternativesMatch(alternatives: TermAlternatives): Match | null {
  return alternatives.words.length === 0 && alternatives.prefix === null ? null : termMatch(alternatives);
}

/**
 * rankWindow's tests said as matches, to be run where the documents are (the
 * backend's newestTested, so no document crosses the network) or on
 * documents read at once (rankedMatches): the same tests, each a match (a
 * post's text is all its indexed words; a column's, that column's), in key
 * order (the counted words, the title, exact, the tags, literal; null never
 * passes). Null when a test cannot be said as a match the same way: a prefix
 * that begins one of the backend's column markers would match that column's
 * marked words.
 */
function testsBeside(plan: WindowPlan, markers: readonly string[]): (Match | null)[] | null {
  const { mode, present } = plan;
  const level = (name: MatchLevel, column?: Column): Match | null => {
    const matches = present[name].map(alternativesMatch);
    const kept = matches.filter((match) => match !== null);
    if (kept.length === 0 || (mode === "all" && kept.length < matches.length)) return null;
    const match = combine(kept, mode);
    return column === undefined ? match : inColumn(column, match);
  };
  const anyWide = present.wide.map(alternativesMatch).filter((match) => match !== null);
  const prefixes = LEVELS.flatMap((name) =>
    present[name].flatMap((a) => (a.prefix === null ? [] : [a.prefix])),
  );
  if (prefixes.some((prefix) => markers.some((marker) => marker.startsWith(prefix)))) return null;
  return [
    ...present.wide.slice(0, plan.counted).map(alternativesMatch),
    ...(plan.title ? [level("wide", "title")] : []),
    ...(plan.exact ? [level("exact")] : []),
    anyWide.length === 0 ? null : inColumn("tags", combine(anyWide, "any")),
    ...(plan.literal ? [level("literal")] : []),
  ];
}

/**
 * A tier's newest matches with the ranking's keys, in one request where the
 * documents are far (the backend's newestTested): the tests run beside the
 * documents in the statement that finds them. Null when the backend cannot,
 * or a test cannot be said there (testsBeside).
 */
async function newestWithKeys(
  backend: SearchBackend,
  match: Match,
  query: QueryMatches,
  limit: number,
): Promise<{ ids: number[]; keys: Map<number, number[]> } | null> {
  if (backend.newestTested === undefined) return null;
  const plan = await windowPlan(backend, query);
  const tests = testsBeside(plan, backend.columnMarkers ?? []);
  if (tests === null) return null;
  const rows = await backend.newestTested(
    match,
    limit,
    tests.filter((test) => test !== null),
  );
  const keys = new Map<number, number[]>();
  for (const { id, passed } of rows) keys.set(id, keyOf(plan, tests, passed));
  return { ids: rows.map((row) => row.id), keys };
}

/** A post's key (rankWindow's) from what it passed of `tests` (testsBeside's, the null ones not asked). */
function keyOf(plan: WindowPlan, tests: readonly (Match | null)[], passed: readonly boolean[]): number[] {
  let at = 0;
  const results = tests.map((test) => (test === null ? false : passed[at++] === true));
  const key = [results.slice(0, plan.counted).filter(Boolean).length];
  for (const result of results.slice(plan.counted)) key.push(result ? 1 : 0);
  return key;
}

/**
 * Every match of a search that has few (`matches`: all of them, newest first;
 * at most a thousand, search.ts), in the order the tiers list them (tiers.ts),
 * each as tierRows lists it: the matches' documents read once, a few at a
 * time, and each tier's test and the ranking's run on them here
 * (document-match.ts), instead of the index asked again for each tier (an
 * index query of every word's alternatives each time: 5–20 ms a tier for
 * four words at 100,000 posts). Null when a document may have been cut at
 * its read bound: the tiers are then asked one by one.
 */
export async function rankedMatches(
  backend: SearchBackend,
  query: QueryMatches,
  tiers: readonly Match[],
  matches: readonly number[],
): Promise<number[] | null> {
  const plan = await windowPlan(backend, query);
  // No column markers here: the documents are read as their columns.
  const ranking = testsBeside(plan, []);
  if (ranking === null) return null;
  const tests = [...tiers, ...ranking.filter((test) => test !== null)];
  const passes = documentTests(tests);
  // A title or tags cut at the read bound: the tiers are asked one by one.
  const heads = await wholeHeads(backend, matches);
  if (heads === null) return null;
  // Long texts asked of the index where the backend would rather (testedAmong); the others read.
  const passedBy = (await backend.testedAmong?.([...heads.keys()], tests)) ?? new Map<number, boolean[]>();
  const unread = [...heads.keys()].filter((id) => !passedBy.has(id));
  for (let at = 0; at < unread.length; at += BODIES_PER_READ) {
    const some = unread.slice(at, at + BODIES_PER_READ);
    const bodyOf = new Map((await backend.documentBodies(some)).map(({ id, body }) => [id, body]));
    for (const id of some) {
      const head = heads.get(id);
      const document = head && spacedDocument(head.title, head.tags, bodyOf.get(id) ?? "");
      if (!document) return null;
      passedBy.set(id, passes(document));
    }
  }
  const inTier = tiers.map((): number[] => []);
  const keys = new Map<number, number[]>();
  for (const id of matches) {
    // A post unpublished since the matches were read has no document; a match of no tier is
    // listed by none (as the tiers asked one by one list it).
    const passed = passedBy.get(id);
    const tier = passed && inTier[passed.slice(0, tiers.length).indexOf(true)];
    if (!passed || !tier) continue;
    tier.push(id);
    keys.set(id, keyOf(plan, ranking, passed.slice(tiers.length)));
  }
  // As tierRows lists a tier: its newest RANK_WINDOW ranked, then the older ones newest first.
  return inTier.flatMap((ids) => [
    ...sortedByKeys(ids.slice(0, RANK_WINDOW), keys),
    ...ids.slice(RANK_WINDOW),
  ]);
}

/**
 * A kind's two tiers (tiersOf: its matches whose title holds a query word,
 * then the others), each whole and ranked as tierRows lists a tier of at
 * most RANK_WINDOW matches, from one question to the index where the kind
 * has no more: its matches are read once and split by their titles here
 * (document-match.ts), not asked of the index once a tier. Null where the
 * kind has more, or a title may have been cut at its read bound: the tiers
 * are then asked one by one.
 */
export async function kindTiers(
  backend: SearchBackend,
  query: QueryMatches,
  kind: Match,
  inTitle: Match,
): Promise<[number[], number[]] | null> {
  const matches = await backend.newest(kind, RANK_WINDOW + 1);
  if (matches.length > RANK_WINDOW) return null;
  const heads = await wholeHeads(backend, matches);
  if (heads === null) return null;
  const passes = documentTests([inTitle]);
  const titled = (id: number) => {
    const head = heads.get(id);
    const document = head && spacedDocument(head.title, head.tags, "");
    return document ? (passes(document)[0] ?? false) : false;
  };
  // The heads read here rank each group (not read again).
  return [
    await rankWindow(backend, matches.filter(titled), query, undefined, heads),
    await rankWindow(
      backend,
      matches.filter((id) => !titled(id)),
      query,
      undefined,
      heads,
    ),
  ];
}

/**
 * The indexed titles and tags of those of `ids` in the index, a few at a
 * time; null when one may have been cut at its read bound (spacedDocument),
 * so that a test on it could miss a word the index holds.
 */
async function wholeHeads(
  backend: SearchBackend,
  ids: readonly number[],
): Promise<Map<number, SearchDocumentHead> | null> {
  const heads = new Map<number, SearchDocumentHead>();
  for (let at = 0; at < ids.length; at += BODIES_PER_READ) {
    for (const head of await backend.documentHeads(ids.slice(at, at + BODIES_PER_READ))) {
      if (spacedDocument(head.title, head.tags, "") === null) return null;
      heads.set(head.id, head);
    }
  }
  return heads;
}

/** A tier's rows for a page, and its size when known without counting (tierRows). */
type TierRows = { rows: number[]; count: number | null };

/**
 * One tier's rows [offset, offset + limit): its newest RANK_WINDOW matches
 * ranked, then the older ones newest first. Returns the rows and the tier's
 * size when known without counting.
 */
export async function tierRows(
  backend: SearchBackend,
  match: Match,
  query: QueryMatches,
  offset: number,
  limit: number,
): Promise<TierRows> {
  const tested = await newestWithKeys(backend, match, query, RANK_WINDOW + 1);
  const newest = tested?.ids ?? (await backend.newest(match, RANK_WINDOW + 1));
  const complete = newest.length <= RANK_WINDOW;
  const window = complete ? newest : newest.slice(0, RANK_WINDOW);
  const rows: number[] = [];
  if (offset < window.length)
    rows.push(...(await rankWindow(backend, window, query, tested?.keys)).slice(offset, offset + limit));
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

/**
 * The tiers' rows asked beside the count (a round trip each where the
 * database is a server, decisions 089, 093): the first tier at once (its rows
 * are the same whatever the count says), and on the first page each next
 * one as soon as the one before it leaves the page short (there a tier's
 * rows do not depend on the sizes of those before it). Each entry answers
 * what tierRows would, or null where the page was full before it, or the
 * tiers before it hold every match the count found. A later page asks only
 * the first tier here; search() asks the rest in turn.
 */
export function tiersBesideTheCount(
  backend: SearchBackend,
  query: QueryMatches,
  counted: Promise<{ total: number }>,
  skip: number,
  perPage: number,
): Promise<TierRows | null>[] {
  // The count, once it has answered.
  let total: number | null = null;
  counted.then(
    (count) => {
      total = count.total;
    },
    () => {},
  );
  const asked: Promise<TierRows | null>[] = [];
  let rowsBefore = 0;
  let matchesBefore = 0;
  for (const [i, tier] of tiersOf(query).entries()) {
    if (i > 0 && skip > 0) break;
    const previous = asked.at(-1);
    const ask = async () => {
      if (previous !== undefined) {
        const before = await previous;
        if (before === null) return null;
        rowsBefore += before.rows.length;
        matchesBefore += before.count ?? Number.POSITIVE_INFINITY;
      }
      if (rowsBefore > perPage || (total !== null && matchesBefore >= total)) return null;
      return tierRows(backend, tier, query, skip, perPage + 1 - rowsBefore);
    };
    const rows = ask();
    // Read (and its failure thrown) by search(), or not needed.
    rows.catch(() => {});
    asked.push(rows);
  }
  return asked;
}
