// The site's domain model: posts, terms, people, sources, translations, and
// what searches and lists return. Pure types (and the post statuses): the read
// seam (app/data/store.ts), the pure helpers and the components all use it.
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
  /** The teacher's recording of the post (decision 052): an http(s) address or a site path; "" is none. */
  audioUrl: string;
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
  /** Published posts per language (0 where none; decision 066). */
  counts: Record<Language, number>;
  /** A short line about them (years, one sentence) per language, "" where none was given (decision 066). */
  about: Record<Language, string>;
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
  /** Published posts matching, on all pages; counting stops past a bound (see totalCapped). */
  total: number;
  /** More than `total` posts match: on a results page near the first, the count stops at a bound (docs/search.md). */
  totalCapped: boolean;
  /** "all": every word matched; "any": nothing had them all, so posts with any word. */
  mode: "all" | "any";
  /** Words of the text beyond the searched ones (see MAX_QUERY_TERMS). */
  ignoredWords: number;
  /**
   * When nothing matched: tags to try, the most used on recent posts, each
   * with the language most of those posts are in (decision 066).
   */
  suggestedTags: (Term & { language: Language })[];
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
