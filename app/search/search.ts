// Search, once for every database (docs/search.md, decisions 020, 040 and
// 068): the pipeline parse (parse.ts) → expand (expand.ts, roman.ts,
// concepts.ts) → match (the query model, query-model.ts; tiers.ts) → rank
// (rank.ts) → hits (hits.ts, highlight.ts). Each database provides a
// SearchBackend (backend.ts) that renders the query model in its own syntax
// and runs it: FTS5 in app/data/sqlite/search.server.ts, tsvector and
// trigram tables in app/data/postgres/search.server.ts.
import type { SearchResultPage } from "#app/content/model.ts";
import type { SearchBackend } from "#app/search/backend.ts";
import { expand, readNear } from "#app/search/expand.ts";
import { hits, wordMatcher } from "#app/search/hits.ts";
import { parseQuery } from "#app/search/parse.ts";
import { kindTiers, rankedMatches, tierRows, tiersBesideTheCount } from "#app/search/rank.ts";
import { kindsOf, type QueryMatches, queryMatches, tiersOf, titleTest } from "#app/search/tiers.ts";

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

/**
 * Published posts matching `text`, best first: posts whose title has a word
 * of the search (a title match ranks above a content-only match, decision 037),
 * then the others, each ranked by rankWindow. See docs/search.md.
 */
export async function search(
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
  // Where the database is far (a server: the backend runs the ranking's tests beside its documents,
  // newestTested), round trips count; where it is here, only work does. Far, the tiers are asked
  // beside the count, not after it (tiersAhead).
  const far = backend.newestTested !== undefined;
  const tiersAhead = (query: QueryMatches, counted: Promise<{ total: number }>) =>
    far ? tiersBesideTheCount(backend, query, counted, skip, perPage) : [];
  // Where the database is here, the first matches are read, not counted (the same walk of the
  // index): when they are all of them, the tiers are sorted out on them (rankedMatches).
  const matchesOf = async (query: QueryMatches) => {
    if (far || countLimit === undefined)
      return { total: await backend.count(query.wide, countLimit), matches: null };
    const matches = await backend.newest(query.wide, countLimit);
    return { total: matches.length, matches };
  };
  let query = queryMatches(parsed.terms, found, "all");
  let counted = matchesOf(query);
  let ahead = tiersAhead(query, counted);
  let { total, matches } = await counted;
  if (total === 0 && parsed.terms.length > 1) {
    query = queryMatches(parsed.terms, found, "any");
    counted = matchesOf(query);
    ahead = tiersAhead(query, counted);
    ({ total, matches } = await counted);
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
  const isMatch = wordMatcher(parsed.terms, found);
  const pageOf = async (ids: readonly number[]) => ({
    ...result,
    posts: await hits(
      backend,
      ids.slice(0, perPage),
      isMatch,
      new Set(parsed.terms.map((term) => term.word)),
    ),
    hasNext: ids.length > perPage,
  });
  // All the matches read (at most COUNT_LIMIT): each tier's test is run on them, not the index asked
  // for each tier. (Where the database is far, the first tier, already asked, often holds the page.)
  if (matches !== null && !totalCapped) {
    const ranked = await rankedMatches(backend, query, tiers, matches);
    if (ranked !== null) return pageOf(ranked.slice(skip, skip + perPage + 1));
  }
  const ids: number[] = [];
  let remaining = totalCapped ? Number.POSITIVE_INFINITY : total;
  // Where the database is here, a kind of few matches is read once and split into its two tiers
  // here. Only a kind of several words: one word's kinds are mostly many, and cheap to ask.
  const kinds = kindsOf(query);
  const splitKinds = query.mode === "all" && parsed.terms.length > 1;
  const whole = new Map<number, number[]>();
  for (const [i, tier] of tiers.entries()) {
    const want = perPage + 1 - ids.length;
    if (want <= 0 || remaining <= 0) break;
    const kind = kinds[i / 2];
    if (!far && splitKinds && kind !== undefined) {
      const split = await kindTiers(backend, query, kind, titleTest(query));
      if (split !== null) for (const [at, rows] of split.entries()) whole.set(i + at, rows);
    }
    const known = whole.get(i);
    const { rows, count } = known
      ? { rows: known.slice(skip, skip + want), count: known.length }
      : ((await ahead[i]) ?? (await tierRows(backend, tier, query, skip, want)));
    ids.push(...rows);
    // After the last tier nothing reads the size: not counted (a count is the costly query).
    if (ids.length > perPage || i === tiers.length - 1) break;
    const size = count ?? (await backend.count(tier));
    skip = Math.max(0, skip - size);
    remaining -= size;
  }
  return pageOf(ids);
}
