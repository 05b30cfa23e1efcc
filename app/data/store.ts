// The data seam: every read the site makes, and nothing else. One adapter per
// database implements it (./sqlite/, ./postgres/). Routes reach the store
// through the router context (#app/context.ts) and never see SQL. What the
// reads return is the domain model (#app/content/model.ts).
import type { Language } from "#app/content/languages.ts";
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
  Website,
} from "#app/content/model.ts";
import type { RandomSource } from "#app/content/sampling.ts";
import type { ChangesSince } from "#app/data/cache-tags.ts";

/** Every read returns published posts only: other statuses never leave the store. */
export interface ContentStore {
  getWebsite(): Promise<Website>;
  /** SPEC §7.3: newest published post of any language. */
  latestPost(): Promise<PostSummary | null>;
  /** SPEC §7.2: published posts of `language` whose idNum is in `idNums`, newest first. */
  samplePosts(language: Language, idNums: readonly number[], limit: number): Promise<PostSummary[]>;
  /**
   * A shared collection (decision 050): the published posts among `entries`,
   * in the order given, each once; the rest (unknown, unpublished) left out.
   */
  collectionPosts(entries: readonly { language: Language; idNum: number }[]): Promise<PostSummary[]>;
  getPost(language: Language, slug: string): Promise<Post | null>;
  /** A published post of any language, for /post/{slug}. */
  getPostAnyLanguage(slug: string): Promise<Post | null>;
  getPage(slug: string): Promise<SitePage | null>;
  adjacentPosts(language: Language, slug: string): Promise<AdjacentPosts>;
  /** Published posts of the same language sharing the most tags, near in time first. */
  relatedPosts(language: Language, slug: string, limit: number): Promise<PostSummary[]>;
  countPosts(language: Language): Promise<number>;
  /** The published post at `offset` in the language's newest-first order. */
  postAt(language: Language, offset: number): Promise<PostSummary | null>;
  /**
   * A published post of `language` (of any language: null), each equally
   * likely, drawn with `random` (./random-post.ts: a few index seeks, never a
   * sort of the table); null when there is none.
   */
  randomPost(language: Language | null, random: RandomSource): Promise<PostSummary | null>;
  /** Newest first; `page` counts from 1. */
  listPosts(filter: PostFilter, page: number, perPage: number): Promise<PostListPage>;
  /** A tag or category that has at least one published post. */
  getTerm(kind: TermKind, slug: string): Promise<Term | null>;
  /** Tags with their count of published posts per language, by name then language (a tag used in two languages is listed for each). */
  listTags(): Promise<TagCount[]>;
  /**
   * Published posts matching the search text, best first, with the total and the matched words;
   * with `language`, only that language's posts (filtered in the database, before the ranking).
   */
  searchPosts(text: string, page: number, perPage: number, language?: Language): Promise<SearchResultPage>;
  /** Per language, in LANGUAGES order: count of published posts and their latest change. */
  listLanguageSummaries(): Promise<LanguageSummary[]>;
  /** A language's published posts for its sitemap, newest first. */
  listSitemapPosts(language: Language, offset: number, limit: number): Promise<SitemapPost[]>;
  /** Every tag and category that has a published post. */
  listSitemapTerms(): Promise<SitemapTerm[]>;
  /** The site pages (privacy policy, terms), by slug. */
  listPages(): Promise<Pick<SitePage, "slug" | "title">[]>;
  /** The newest published posts of a language or a person, with their text, terms and source, for a feed. */
  listFeedPosts(filter: FeedFilter, limit: number): Promise<FeedPost[]>;
  /** A person with at least one published post, by slug. */
  getPerson(slug: string): Promise<PersonCount | null>;
  /** The people with at least one published post, by slug. */
  listPeople(): Promise<PersonCount[]>;
  /** Cheap liveness check of the database. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The store the server holds: the reads, plus what it needs to cache pages
 * and report health. One implementation per database (app/data/sqlite/,
 * app/data/postgres/), picked by DATABASE_URL in ./open-store.server.ts.
 */
export interface ServedStore extends ContentStore {
  /**
   * Changes whenever the content does, whoever wrote it (an import in another
   * process or on another machine); the page cache keeps pages per version.
   * Synchronous and cheap (called on every request); null while the database
   * is unreachable (nothing is cached then).
   */
  contentVersion(): string | null;
  /**
   * What the writes since `cursor` changed, as cache tags (content_changes,
   * decision 057), and the cursor to pass next time; null starts at the end
   * of the log. `changes` is null when the log cannot tell (pruned past the
   * cursor, a write from outside sukti): the server then drops every page.
   */
  changesSince(cursor: string | null): Promise<ChangesSince>;
  /**
   * Whether the site can serve its pages, for /healthz: null, or what stops
   * it (said in the log, never to visitors). A cheap read of every table the
   * pages use, beyond ping's "it answers"; at most once a second.
   */
  health(): Promise<string | null>;
  /** Why the database can only be read (the server says so once at start), or null. */
  readonly readOnlyReason: string | null;
}

/** The reads of ContentStore (all but ping and close). */
export type ContentReads = Omit<ContentStore, "ping" | "close">;
export type ReadName = keyof ContentReads;

/** Every read of ContentStore: a read added there and not here fails to compile. */
const READ_NAMES = {
  getWebsite: true,
  latestPost: true,
  samplePosts: true,
  collectionPosts: true,
  getPost: true,
  getPostAnyLanguage: true,
  getPage: true,
  adjacentPosts: true,
  relatedPosts: true,
  countPosts: true,
  postAt: true,
  randomPost: true,
  listPosts: true,
  getTerm: true,
  listTags: true,
  searchPosts: true,
  listLanguageSummaries: true,
  listSitemapPosts: true,
  listSitemapTerms: true,
  listPages: true,
  listFeedPosts: true,
  getPerson: true,
  listPeople: true,
} as const satisfies Record<ReadName, true>;

/**
 * Every read, each passed to `call` (a database adapter's health checks).
 * A plain object, no Proxy: `await store` resolves to the store.
 */
export function guardedReads(call: (name: ReadName, args: unknown[]) => Promise<unknown>): ContentReads {
  return Object.fromEntries(
    Object.keys(READ_NAMES).map((name) => [name, (...args: unknown[]) => call(name as ReadName, args)]),
  ) as unknown as ContentReads;
}
