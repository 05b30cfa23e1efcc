// The data seam: every read the site makes, and nothing else. One adapter per
// database implements it (SQLite today: ./sqlite.server.ts). Routes reach the
// store through the router context (#app/context.ts) and never see SQL.
import type { Language } from "#app/content/languages.ts";
import type { Person } from "#app/content/people.ts";

export const POST_STATUSES = ["publish", "draft", "pending", "private", "future", "trash"] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** SPEC §3: the website document. */
export interface Website {
  maxIdEng: number;
  maxIdHin: number;
  maxIdMr: number;
}

export interface PostSummary {
  language: Language;
  idNum: number;
  slug: string;
  title: string;
  featureImageUrl: string;
  postTime: number;
  excerpt: string;
}

export type TermKind = "tag" | "category";

export interface Term {
  kind: TermKind;
  name: string;
  slug: string;
}

export interface TermCount extends Term {
  count: number;
}

/** A tag's count of published posts in one language. */
export interface TagCount extends TermCount {
  language: Language;
}

/** Where a post comes from: who said or wrote it, and where; each part optional. */
export interface PostSource {
  person: Person | null;
  /** The work, e.g. "Dhammapada"; "" when not given. */
  work: string;
  /** Where in the work, e.g. "verse 5"; "" when not given. */
  reference: string;
}

/** A published post of another language in the post's translation group. */
export interface Translation {
  language: Language;
  slug: string;
  title: string;
}

export interface Post extends PostSummary {
  content: string;
  tags: Term[];
  categories: Term[];
  /** null when the post names no source. */
  source: PostSource | null;
  /** Its published translations, in LANGUAGES order (never the post itself). */
  translations: Translation[];
}

/** A person with their count of published posts (all languages) and the latest change to one. */
export interface PersonCount extends Person {
  count: number;
  /** Epoch seconds. */
  updatedAt: number;
}

export interface SitePage {
  slug: string;
  title: string;
  content: string;
}

export type PostFilter = { language: Language } | { tag: string } | { category: string } | { person: string };

/** The posts a feed lists: a language's, or a person's in every language. */
export type FeedFilter = { language: Language } | { person: string };

export interface AdjacentPosts {
  /** The next older published post of the same language. */
  previous: PostSummary | null;
  /** The next newer published post of the same language. */
  next: PostSummary | null;
}

export interface PostListPage {
  posts: PostSummary[];
  page: number;
  hasNext: boolean;
}

/** A stretch of text; `mark` when it is a word the search matched. */
export interface SearchSegment {
  text: string;
  mark: boolean;
}

export interface SearchHit extends PostSummary {
  /** The title, matched words marked. */
  titleSegments: SearchSegment[];
  /** A stretch of the post's text around its first match. */
  snippet: SearchSegment[];
  /** The post's tags and categories that matched. */
  matchedTerms: Term[];
  /** When the post has no word of the query itself: the words it matched through (मन, मना for "man"). */
  matchedAs: string[];
  /** Who said it, when the post names them. */
  person: Person | null;
  /** Its published translations, in LANGUAGES order. */
  translations: Translation[];
}

export interface SearchResultPage extends PostListPage {
  posts: SearchHit[];
  /** Published posts matching, on all pages. */
  total: number;
  /** "all": every word matched; "any": nothing had them all, so posts with any word. */
  mode: "all" | "any";
  /** Words of the text beyond the searched ones (see MAX_QUERY_TERMS). */
  ignoredWords: number;
  /** When nothing matched: tags to try, the most used on recent posts. */
  suggestedTags: Term[];
}

/** A published post's address parts and when it last changed (epoch seconds), for a sitemap. */
export interface SitemapPost {
  slug: string;
  updatedAt: number;
}

/** Published posts of one language: how many, and when the latest change to one was made. */
export interface LanguageSummary {
  language: Language;
  count: number;
  /** Epoch seconds; null when the language has no published post. */
  updatedAt: number | null;
}

/** A tag or category with published posts, and when the latest of them changed. */
export interface SitemapTerm extends Term {
  updatedAt: number;
}

export interface FeedPost extends Post {
  updatedAt: number;
}

/** Every read returns published posts only: other statuses never leave the store. */
export interface ContentStore {
  getWebsite(): Promise<Website>;
  /** SPEC §7.3: newest published post of any language. */
  latestPost(): Promise<PostSummary | null>;
  /** SPEC §7.2: published posts of `language` whose idNum is in `idNums`, newest first. */
  samplePosts(language: Language, idNums: readonly number[], limit: number): Promise<PostSummary[]>;
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
  /** Newest first; `page` counts from 1. */
  listPosts(filter: PostFilter, page: number, perPage: number): Promise<PostListPage>;
  /** A tag or category that has at least one published post. */
  getTerm(kind: TermKind, slug: string): Promise<Term | null>;
  /** Tags with their count of published posts per language, by name then language (a tag used in two languages is listed for each). */
  listTags(): Promise<TagCount[]>;
  /** Published posts matching the search text, best first, with the total and the matched words. */
  searchPosts(text: string, page: number, perPage: number): Promise<SearchResultPage>;
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
  getPost: true,
  getPostAnyLanguage: true,
  getPage: true,
  adjacentPosts: true,
  relatedPosts: true,
  countPosts: true,
  postAt: true,
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
