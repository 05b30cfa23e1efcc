// The ContentStore reads (but search), written once over ./read-queries.ts:
// which query each read runs, what it binds, and how rows become the model.
// A database's adapter (app/data/sqlite/reads.server.ts,
// app/data/postgres/reads.server.ts) gives its dialect, runs a query with its
// driver (`rows`, `row`), and overrides a read where its planner wants another
// shape. Both stores return the same for the same content (the contract test,
// app/data/postgres/contract.test.ts): the same fields and types, the same
// order and tie-breaks, published posts only.
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
import { type IdRange, pickRandomPost, type RandomPostReads } from "#app/data/random-post.ts";
import { READ_BOUNDS as BOUND, boundedContent } from "#app/data/read-bounds.ts";
import type { Dialect } from "#app/data/sql/dialect.ts";
import { completePost, type PostReadRow } from "#app/data/sql/post-read-row.ts";
import type { ReadQuery } from "#app/data/sql/read-queries.ts";
import type { ContentStore } from "#app/data/store.ts";

/**
 * How many of the newest published posts to walk for a term's page, or null
 * to sort the term's posts instead (decision 081). A walk passes about
 * wanted × published / termPosts posts when the term's posts are spread over
 * time (~0.7 µs each on SQLite at 100,000 posts); sorting costs termPosts
 * (~2.5 µs each). Page 1 of a tag on a third of 100,000 posts: ~1,000 posts
 * walked, 0.5 ms (sorted: ~80 ms). The walk stops at twice its expected
 * length: a term whose posts are mostly old then falls back to the sort, so a
 * page never costs more than about three sorts.
 */
export function walkByTime(termPosts: number, published: number, wanted: number): number | null {
  if (termPosts <= 0) return null;
  const expected = (wanted * published) / termPosts;
  return expected * 0.7 < termPosts * 2.5 ? Math.ceil(2 * expected) : null;
}

/** A person's row: its JSON objects as the driver returns them (Dialect.json). */
interface PersonCountRow {
  slug: string;
  names: unknown;
  count: number;
  updatedAt: number;
  counts: unknown;
  about: unknown;
}

export abstract class SqlContentStore implements ContentStore {
  readonly #d: Dialect;

  constructor(dialect: Dialect) {
    this.#d = dialect;
  }

  /** The rows of read `query` with `args` bound as its parameters 1, 2, … */
  protected abstract rows<R>(query: ReadQuery, args?: unknown[]): Promise<R[]>;
  /** Its first row, or null. */
  protected abstract row<R>(query: ReadQuery, args?: unknown[]): Promise<R | null>;
  abstract searchPosts(
    text: string,
    page: number,
    perPage: number,
    language?: Language,
  ): Promise<SearchResultPage>;
  abstract ping(): Promise<boolean>;
  abstract close(): Promise<void>;

  /** The row of a query that always returns one (the website, a count). */
  async #onlyRow<R>(query: ReadQuery, args: unknown[] = []): Promise<R> {
    const row = await this.row<R>(query, args);
    if (row === null) throw new Error(`query ${query} returned no row`);
    return row;
  }

  async getWebsite(): Promise<Website> {
    return this.#onlyRow<Website>("website");
  }

  async latestPost(): Promise<PostSummary | null> {
    return this.row<PostSummary>("latest");
  }

  async samplePosts(language: Language, idNums: readonly number[], limit: number): Promise<PostSummary[]> {
    if (idNums.length === 0 || limit <= 0) return [];
    const unique = [...new Set(idNums)].filter((n) => this.#d.holdsInteger(n));
    if (unique.length === 0) return [];
    return this.rows<PostSummary>("sample", [this.#d.integerList(unique), language, this.#d.limit(limit)]);
  }

  async collectionPosts(entries: readonly { language: Language; idNum: number }[]): Promise<PostSummary[]> {
    const wanted = collectionEntries(entries);
    if (wanted.length === 0) return [];
    return this.rows<PostSummary>("collection", this.#d.entryArgs(wanted));
  }

  async getPost(language: Language, slug: string): Promise<Post | null> {
    if (!this.#d.holdsText(slug)) return null;
    const row = await this.row<PostReadRow>("post", [language, slug.normalize("NFC")]);
    return row ? this.#complete(row, BOUND.content) : null;
  }

  async getPostAnyLanguage(slug: string): Promise<Post | null> {
    if (!this.#d.holdsText(slug)) return null;
    const row = await this.row<PostReadRow>("postAnyLanguage", [slug.normalize("NFC")]);
    return row ? this.#complete(row, BOUND.content) : null;
  }

  /** The row with its terms, source and published translations; its text cut at `contentBound`. */
  async #complete(row: PostReadRow, contentBound: number): Promise<Post> {
    row.content = boundedContent(row.content, contentBound, row.language);
    const [terms, translations] = await Promise.all([
      this.rows<Term>("postTerms", [row.id]),
      row.translationKey === null
        ? Promise.resolve([])
        : this.rows<Translation>("translations", [row.translationKey, row.id]),
    ]);
    return completePost(row, terms, translations);
  }

  async getPage(slug: string): Promise<SitePage | null> {
    if (!this.#d.holdsText(slug)) return null;
    const row = await this.row<SitePage>("page", [slug.normalize("NFC")]);
    return row ? { ...row, content: boundedContent(row.content, BOUND.content, "english") } : null;
  }

  async adjacentPosts(language: Language, slug: string): Promise<AdjacentPosts> {
    if (!this.#d.holdsText(slug)) return { previous: null, next: null };
    const current = await this.row<{ id: number; postTime: number }>("current", [
      language,
      slug.normalize("NFC"),
    ]);
    if (!current) return { previous: null, next: null };
    const args = [language, current.postTime, current.id];
    const [previous, next] = await Promise.all([
      this.row<PostSummary>("previous", args),
      this.row<PostSummary>("next", args),
    ]);
    return { previous, next };
  }

  async relatedPosts(language: Language, slug: string, limit: number): Promise<PostSummary[]> {
    if (!this.#d.holdsText(slug)) return [];
    const current = await this.row<{ id: number }>("anyStatus", [language, slug.normalize("NFC")]);
    if (!current) return [];
    const shared = new Map<number, number>();
    // Each of the post's tags: its published posts nearest the post on either side (read-queries.ts).
    for (const row of await this.rows<{ before: unknown; after: unknown }>("relatedCandidates", [
      current.id,
    ])) {
      for (const id of this.#d.integers(row.before)) shared.set(id, (shared.get(id) ?? 0) + 1);
      for (const id of this.#d.integers(row.after)) shared.set(id, (shared.get(id) ?? 0) + 1);
    }
    // Ranked by ids alone (relatedOrder), then summaries read for the best few only: a post in
    // three busy tags has some 360 candidates, and reading each one's summary was most of a
    // post page's SQL. The first few are picked out of the candidates; all are ranked only when
    // those were not enough (of another language, a tag spanning languages).
    const related: PostSummary[] = [];
    const chunk = Math.max(2 * limit, 8);
    let ranked = relatedOrder(shared, current.id, chunk);
    for (let at = 0; at < shared.size && related.length < limit; at += chunk) {
      if (at >= ranked.length) ranked = relatedOrder(shared, current.id, shared.size);
      const ids = ranked.slice(at, at + chunk);
      // Candidates of another language (a tag may span languages) are left out here.
      const fetched = await this.rows<PostSummary & { id: number }>("relatedPosts", [
        this.#d.integerList(ids),
        language,
      ]);
      const byId = new Map(fetched.map((row) => [row.id, row] as const));
      for (const id of ids) {
        const row = byId.get(id);
        if (row === undefined) continue;
        const { id: _id, ...post } = row;
        related.push(post);
        if (related.length === limit) break;
      }
    }
    return related;
  }

  async countPosts(language: Language): Promise<number> {
    return (await this.#onlyRow<{ n: number }>("count", [language])).n;
  }

  async postAt(language: Language, offset: number): Promise<PostSummary | null> {
    return this.row<PostSummary>("postAt", [language, this.#d.offset(offset)]);
  }

  async randomPost(language: Language | null, random: RandomSource): Promise<PostSummary | null> {
    return pickRandomPost(this.#randomReads, language, random);
  }

  /** Each language's published idNum range, in the order given (one query per language, each two seeks). */
  protected async idRanges(languages: readonly Language[]): Promise<IdRange[]> {
    const ranges = await Promise.all(
      languages.map(async (language) => ({
        language,
        ...(await this.#onlyRow<{ min: number | null; max: number | null }>("idRange", [language])),
      })),
    );
    return ranges.flatMap(({ language, min, max }) =>
      min === null || max === null ? [] : [{ language, min, max }],
    );
  }

  /** randomPost's reads (../random-post.ts): seeks on posts_language_published_id_num, or one walk of a partial index. */
  readonly #randomReads: RandomPostReads = {
    idRanges: (languages) => this.idRanges(languages),
    publishedWithIdNum: async (language, idNum) =>
      this.#d.holdsInteger(idNum) ? this.row<PostSummary>("publishedWithIdNum", [language, idNum]) : null,
    countPublished: async (language) =>
      language === null ? (await this.#onlyRow<{ n: number }>("countAll")).n : this.countPosts(language),
    publishedAt: async (language, offset) =>
      language === null
        ? this.row<PostSummary>("postAtAll", [this.#d.offset(offset)])
        : this.postAt(language, offset),
  };

  /**
   * A term's page (decision 081): the newest published posts walked while that
   * is cheaper than sorting the term's posts (walkByTime), else (or when a
   * walk that far did not fill the page: the term's posts are older) sorted.
   */
  async #listTerm(
    term: { id: number; posts: number },
    offset: number,
    limit: number | null,
    wanted: number,
  ): Promise<PostSummary[]> {
    const published = (await this.#onlyRow<{ n: number }>("countAll")).n;
    const walk = walkByTime(term.posts, published, wanted);
    if (walk !== null) {
      const last =
        walk < published ? await this.row<{ postTime: number; id: number }>("publishedPlace", [walk]) : null;
      const rows = await this.rows<PostSummary>("listTermByTime", [
        term.id,
        limit,
        offset,
        last?.postTime ?? Number.MIN_SAFE_INTEGER,
        last?.id ?? 0,
      ]);
      if (rows.length === limit || last === null) return rows;
    }
    return this.rows<PostSummary>("listTerm", [term.id, limit, offset]);
  }

  async listPosts(filter: PostFilter, page: number, perPage: number): Promise<PostListPage> {
    const offset = this.#d.offset((page - 1) * perPage);
    const limit = this.#d.limit(perPage + 1);
    let rows: PostSummary[];
    if ("person" in filter) {
      if (!this.#d.holdsText(filter.person)) return { posts: [], page, hasNext: false };
      rows = await this.rows<PostSummary>("listPerson", [filter.person.normalize("NFC"), limit, offset]);
    } else if ("language" in filter) {
      rows = await this.rows<PostSummary>("listLanguage", [filter.language, limit, offset]);
    } else {
      const kind: TermKind = "tag" in filter ? "tag" : "category";
      const slug = "tag" in filter ? filter.tag : filter.category;
      if (!this.#d.holdsText(slug)) return { posts: [], page, hasNext: false };
      const term = await this.row<{ id: number; posts: number }>("termSize", [kind, slug.normalize("NFC")]);
      if (!term) return { posts: [], page, hasNext: false };
      rows = await this.#listTerm(term, offset, limit, (page - 1) * perPage + perPage + 1);
    }
    return { posts: rows.slice(0, perPage), page, hasNext: rows.length > perPage };
  }

  async getTerm(kind: TermKind, slug: string): Promise<Term | null> {
    if (!this.#d.holdsText(slug)) return null;
    return this.row<Term>("term", [kind, slug.normalize("NFC")]);
  }

  async listTags(): Promise<TagCount[]> {
    return this.rows<TagCount>("tags");
  }

  async listLanguageSummaries(): Promise<LanguageSummary[]> {
    const rows = await this.rows<LanguageSummary>("languageSummaries");
    return LANGUAGES.map(
      (language) => rows.find((row) => row.language === language) ?? { language, count: 0, updatedAt: null },
    );
  }

  async listSitemapPosts(language: Language, offset: number, limit: number): Promise<SitemapPost[]> {
    return this.rows<SitemapPost>("sitemapPosts", [language, this.#d.limit(limit), this.#d.offset(offset)]);
  }

  async listSitemapTerms(): Promise<SitemapTerm[]> {
    return this.rows<SitemapTerm>("sitemapTerms");
  }

  async listPages(): Promise<Pick<SitePage, "slug" | "title">[]> {
    return this.rows<Pick<SitePage, "slug" | "title">>("pages");
  }

  async listFeedPosts(filter: FeedFilter, limit: number): Promise<FeedPost[]> {
    if ("person" in filter && !this.#d.holdsText(filter.person)) return [];
    const rows = await this.rows<PostReadRow & { updatedAt: number }>(
      "person" in filter ? "personFeed" : "feed",
      ["person" in filter ? filter.person.normalize("NFC") : filter.language, this.#d.limit(limit)],
    );
    return Promise.all(
      rows.map(async ({ updatedAt, ...row }) => ({
        ...(await this.#complete(row, BOUND.feedContent)),
        updatedAt,
      })),
    );
  }

  async getPerson(slug: string): Promise<PersonCount | null> {
    if (!this.#d.holdsText(slug)) return null;
    const row = await this.row<PersonCountRow>("person", [slug.normalize("NFC")]);
    return row ? this.#personCount(row) : null;
  }

  async listPeople(): Promise<PersonCount[]> {
    return (await this.rows<PersonCountRow>("people")).map((row) => this.#personCount(row));
  }

  #personCount(row: PersonCountRow): PersonCount {
    const json = this.#d.json.bind(this.#d);
    return {
      ...row,
      names: json(row.names),
      counts: json(row.counts),
      about: json(row.about),
    };
  }
}

/**
 * The first `count` related candidates, best first: most tags shared with the post, then
 * nearest it by id; ties in candidate order (`shared`'s insertion order), as a stable sort
 * gives them. A few are picked in one pass (a short list kept sorted, each candidate compared
 * with its last: ~4 µs for 450 candidates where sorting them all took ~55); all of them sorted,
 * by keys worked out once a candidate (not two Map reads a comparison).
 */
export function relatedOrder(shared: ReadonlyMap<number, number>, around: number, count: number): number[] {
  if (count < shared.size / 4) {
    const best: number[] = [];
    const bestShared: number[] = [];
    const bestDistance: number[] = [];
    for (const [id, tags] of shared) {
      const distance = Math.abs(id - around);
      let at = best.length;
      // Before every one it beats; after those it equals (they came first).
      while (
        at > 0 &&
        (tags > (bestShared[at - 1] as number) ||
          (tags === bestShared[at - 1] && distance < (bestDistance[at - 1] as number)))
      )
        at--;
      if (at >= count) continue;
      best.splice(at, 0, id);
      bestShared.splice(at, 0, tags);
      bestDistance.splice(at, 0, distance);
      if (best.length > count) {
        best.pop();
        bestShared.pop();
        bestDistance.pop();
      }
    }
    return best;
  }
  const candidates = [...shared.keys()];
  const tagsShared = candidates.map((id) => shared.get(id) ?? 0);
  const distance = candidates.map((id) => Math.abs(id - around));
  return candidates
    .map((_, i) => i)
    .sort((a, b) => (tagsShared[b] ?? 0) - (tagsShared[a] ?? 0) || (distance[a] ?? 0) - (distance[b] ?? 0))
    .slice(0, count)
    .map((i) => candidates[i] as number);
}
