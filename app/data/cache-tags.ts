// What a cached page shows, and what a write changed, in one small vocabulary
// of tags (decision 057). A page's tags are collected while it renders, from
// the reads it makes (taggedStore, around the ContentStore the router context
// holds); a write names the tags it changed (ChangeSet, in the write rules of
// ./content-writer.ts and the removals of both stores' writes) and records
// them in content_changes in its own transaction. Servers drop or refresh the
// pages whose tags a write named; shared caches (Varnish, Fastly, Cloudflare)
// get the same tags in headers (xkey, Surrogate-Key, Cache-Tag) and a purge.
//
//   all                 every page of the site
//   post-S / post_H     a post's own page and every page showing it (lists,
//                       neighbours, related, translations, feeds, search hits)
//   list-L              a language's newest-first order and count: its home
//                       (quote of the day), list pages, feed, the home's hero
//   tag-S, category-S   a term's pages;  terms: pages listing terms (/tags, sitemap)
//   person-S            a person's pages and feed;  people: /people, sitemap
//   byline-S            pages showing a person's name beside a post
//   page-S              a site page (privacy, terms);  pages: the list of them
//   sitemap-L           a language's sitemap pages and the sitemap index
//   search              every search result page
//
// S is the slug when it is plain ASCII (a-z, 0-9, -), else `_` and 12 hex
// digits of its SHA-1 (Devanagari slugs): tags stay short ASCII tokens
// without spaces or commas, as every shared cache needs.
import { createHash } from "node:crypto";
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import type { FeedFilter, Post, PostFilter, PostSummary, TermKind } from "#app/content/model.ts";
import type { ContentStore, ReadName } from "#app/data/store.ts";

export const ALL_TAG = "all";
export const SEARCH_TAG = "search";
export const TERMS_TAG = "terms";
export const PEOPLE_TAG = "people";
export const PAGES_TAG = "pages";

const PLAIN = /^[a-z0-9][a-z0-9-]{0,63}$/;

function keyed(kind: string, key: string): string {
  const text = key.normalize("NFC");
  if (PLAIN.test(text)) return `${kind}-${text}`;
  return `${kind}_${createHash("sha1").update(text).digest("hex").slice(0, 12)}`;
}

export const postTag = (slug: string) => keyed("post", slug);
export const listTag = (language: Language) => `list-${language}`;
export const termTag = (kind: TermKind, slug: string) => keyed(kind, slug);
export const personTag = (slug: string) => keyed("person", slug);
export const bylineTag = (slug: string) => keyed("byline", slug);
export const pageTag = (slug: string) => keyed("page", slug);
export const sitemapTag = (language: Language) => `sitemap-${language}`;
const LIST_TAGS = LANGUAGES.map(listTag);
const SITEMAP_TAGS = LANGUAGES.map(sitemapTag);

function filterTag(filter: PostFilter | FeedFilter): string {
  if ("language" in filter) return listTag(filter.language);
  if ("person" in filter) return personTag(filter.person);
  if ("tag" in filter) return termTag("tag", filter.tag);
  return termTag("category", filter.category);
}

/** What a post's own page shows of other records: its translations and its person's name. */
function postShows(post: Post | null): string[] {
  if (!post) return [];
  const tags = [postTag(post.slug), ...post.translations.map((t) => postTag(t.slug))];
  if (post.source?.person) tags.push(bylineTag(post.source.person.slug));
  return tags;
}

const summaries = (posts: readonly PostSummary[]) => posts.map((post) => postTag(post.slug));

type Taggers = {
  [K in ReadName]: (
    args: Parameters<ContentStore[K]>,
    result: Awaited<ReturnType<ContentStore[K]>>,
  ) => readonly (string | null | false | undefined)[];
};

/** The tags each read adds to the page that makes it: from its arguments (what it asked) and its result (what it shows). */
const TAGGERS: Taggers = {
  getWebsite: () => LIST_TAGS,
  latestPost: (_args, post) => [...LIST_TAGS, post && postTag(post.slug)],
  samplePosts: ([language], posts) => [listTag(language), ...summaries(posts)],
  collectionPosts: ([entries], posts) => [
    ...entries.map((entry) => listTag(entry.language)),
    ...summaries(posts),
  ],
  getPost: ([, slug], post) => [postTag(slug), ...postShows(post)],
  getPostAnyLanguage: ([slug], post) => [postTag(slug), ...postShows(post)],
  getPage: ([slug]) => [pageTag(slug)],
  adjacentPosts: ([, slug], near) => [
    postTag(slug),
    near.previous && postTag(near.previous.slug),
    near.next && postTag(near.next.slug),
  ],
  relatedPosts: (_args, posts) => summaries(posts),
  countPosts: ([language]) => [listTag(language)],
  postAt: ([language], post) => [listTag(language), post && postTag(post.slug)],
  randomPost: ([language], post) => [
    ...(language === null ? LIST_TAGS : [listTag(language)]),
    post && postTag(post.slug),
  ],
  listPosts: ([filter], list) => [filterTag(filter), ...summaries(list.posts)],
  getTerm: ([kind, slug]) => [termTag(kind, slug)],
  listTags: () => [TERMS_TAG],
  searchPosts: (_args, result) => [
    SEARCH_TAG,
    ...result.posts.flatMap((hit) => [
      postTag(hit.slug),
      hit.person && bylineTag(hit.person.slug),
      ...hit.translations.map((t) => postTag(t.slug)),
    ]),
  ],
  listLanguageSummaries: () => SITEMAP_TAGS,
  listSitemapPosts: ([language]) => [sitemapTag(language)],
  listSitemapTerms: () => [TERMS_TAG],
  listPages: () => [PAGES_TAG],
  listFeedPosts: ([filter], posts) => [filterTag(filter), ...posts.flatMap(postShows)],
  getPerson: ([slug]) => [personTag(slug)],
  listPeople: () => [PEOPLE_TAG],
};

/**
 * The store a render reads through: every read goes to `store` unchanged and
 * adds its tags to `tags`. A plain object (no Proxy), as guardedReads.
 */
export function taggedStore(store: ContentStore, tags: Set<string>): ContentStore {
  const tagged: Record<string, unknown> = {
    ping: () => store.ping(),
    close: () => store.close(),
  };
  for (const name of Object.keys(TAGGERS) as ReadName[]) {
    const tagger = TAGGERS[name] as (args: unknown[], result: unknown) => readonly unknown[];
    const read = store[name] as (...args: unknown[]) => Promise<unknown>;
    tagged[name] = async (...args: unknown[]) => {
      const result = await read.apply(store, args);
      for (const tag of tagger(args, result)) if (typeof tag === "string") tags.add(tag);
      return result;
    };
  }
  return tagged as unknown as ContentStore;
}

/** A page's tags in the order headers list them: `all` first, then sorted. */
export function pageTags(tags: Iterable<string>): string[] {
  const sorted = [...new Set(tags)].filter((tag) => tag !== ALL_TAG).sort();
  return [ALL_TAG, ...sorted];
}

/** One row of content_changes: tags a write changed; `removal` when something left them (an unpublish, a delete). */
export interface ContentChange {
  tags: string[];
  removal: boolean;
}

/** Past this many tags, a write names `all` instead (a large import changes most pages anyway). */
export const MAX_CHANGE_TAGS = 2000;

/**
 * The tags one write transaction changed, each once: a tag both removed and
 * changed counts as removed (its pages are dropped, not refreshed).
 */
export class ChangeSet {
  readonly #changed = new Set<string>();
  readonly #removed = new Set<string>();
  /** A removal named once the set was full: its `all` row must drop, not refresh. */
  #removedPastCap = false;

  /** True once the write named more than MAX_CHANGE_TAGS: it then records `all`, and the rules may stop looking for tags. */
  get full(): boolean {
    return this.#changed.size + this.#removed.size > MAX_CHANGE_TAGS;
  }

  get empty(): boolean {
    return this.#changed.size === 0 && this.#removed.size === 0;
  }

  add(tags: Iterable<string | null | undefined | false>, removal = false): void {
    if (this.full) {
      if (removal && [...tags].some(Boolean)) this.#removedPastCap = true;
      return;
    }
    for (const tag of tags) if (tag) (removal ? this.#removed : this.#changed).add(tag);
  }

  /** The rows to record: removals first; empty when nothing a visitor sees changed. */
  records(): ContentChange[] {
    if (this.full) return [{ tags: [ALL_TAG], removal: this.#removed.size > 0 || this.#removedPastCap }];
    const changed = [...this.#changed].filter((tag) => !this.#removed.has(tag)).sort();
    const rows: ContentChange[] = [];
    if (this.#removed.size) rows.push({ tags: [...this.#removed].sort(), removal: true });
    if (changed.length) rows.push({ tags: changed, removal: false });
    return rows;
  }

  /** Every tag named, for a purge. */
  tags(): string[] {
    return [...new Set(this.records().flatMap((row) => row.tags))];
  }
}

/** The tags a post's leaving the site changes (unpublish, delete): what showed it is dropped at once. */
export function removedPostChanges(
  changes: ChangeSet,
  post: {
    language: Language;
    slug: string;
    /** Its terms' tags (termTag). */
    termTags: string[];
    personSlug: string | null;
  },
): void {
  changes.add(
    [
      postTag(post.slug),
      sitemapTag(post.language),
      ...post.termTags,
      post.personSlug && personTag(post.personSlug),
    ],
    true,
  );
  changes.add([
    listTag(post.language),
    SEARCH_TAG,
    post.termTags.length > 0 && TERMS_TAG,
    post.personSlug && PEOPLE_TAG,
  ]);
}

/**
 * The tags a published post's new address changes (sync's rename, decision
 * 053): the old address leaves the site as an unpublished post would, the new
 * one is new.
 */
export function renamedPostChanges(
  changes: ChangeSet,
  post: {
    language: Language;
    from: string;
    to: string;
    terms: { kind: TermKind; slug: string }[];
    personSlug: string | null;
  },
): void {
  removedPostChanges(changes, {
    language: post.language,
    slug: post.from,
    termTags: post.terms.map((term) => termTag(term.kind, term.slug)),
    personSlug: post.personSlug,
  });
  changes.add([postTag(post.to)]);
}

/** What the writes since a server's cursor changed (ServedStore.changesSince). */
export interface ChangesSince {
  /** Pass it back next time. */
  cursor: string;
  /** Oldest first; null when the log cannot tell (pruned past the cursor, a write from outside sukti): drop every page. */
  changes: ContentChange[] | null;
}

/** Rows read at most per catch-up: a server further behind drops every page. */
export const MAX_CHANGES_READ = 500;

/**
 * The log's rows after `since` (both stores' rows, seq ascending, at most
 * MAX_CHANGES_READ + 1 of them) as changes: null when rows are missing
 * between `since` and the first one (pruned) or there are too many.
 */
export function changesAfter(
  since: number,
  rows: readonly { seq: number | string; tags: string; removal: number | boolean }[],
): ContentChange[] | null {
  const first = rows[0];
  if (first !== undefined && Number(first.seq) > since + 1) return null;
  if (rows.length > MAX_CHANGES_READ) return null;
  return rows.map((row) => ({
    tags: row.tags.split(" ").filter(Boolean),
    removal: row.removal === true || row.removal === 1,
  }));
}
