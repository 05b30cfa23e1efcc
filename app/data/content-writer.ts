// The write rules of an import, once for every database: upsert posts by
// (language, slug) and pages by slug, report unchanged records, move idNums
// between posts of one import, keep terms one per kind and slug, and keep the
// search document of every published post. Each database implements
// WriteTarget (its statements); the caller owns the transaction.
//
// The rules and messages are those of ContentWriter in ./write.server.ts
// (whose types are reused here so nothing diverges); the SQLite store is to
// move onto this class.
import type { Language } from "#app/content/languages.ts";
import type { ContentFile, PageRecord, PostRecord } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import { type SearchDocument, searchDocument, termWords } from "#app/data/search-document.ts";
import type { PostStatus, TermKind } from "#app/data/store.ts";
import {
  IdNumConflictError,
  postKey,
  type WriteCounts,
  type WriteOutcome,
  type WriteSummary,
} from "#app/data/write.server.ts";

export { IdNumConflictError, postKey, type WriteCounts, type WriteOutcome, type WriteSummary };

/**
 * A post whose idNum is wanted by another record is parked at
 * PARKED_ID_NUM_BASE + its id (above every real idNum: schemas.ts caps them at
 * MAX_ID_NUM) until its own record comes.
 */
export const PARKED_ID_NUM_BASE = 1_000_000_000_000_000;

export interface StoredPost {
  id: number;
  idNum: number;
  status: string;
  postTime: number;
  title: string;
  featureImageUrl: string;
  content: string;
  excerpt: string;
}

/** A post's columns as written (content already sanitized). */
export interface PostRow {
  language: Language;
  idNum: number;
  status: PostStatus;
  postTime: number;
  title: string;
  slug: string;
  featureImageUrl: string;
  content: string;
  excerpt: string;
}

/** The statements of one database, inside the caller's transaction. */
export interface WriteTarget {
  findPost(language: Language, slug: string): Promise<StoredPost | null>;
  findByIdNum(language: Language, idNum: number): Promise<{ id: number; slug: string } | null>;
  /** Inserts the post; returns its id. */
  insertPost(row: PostRow): Promise<number>;
  /** Rewrites every column of the post and sets its updated_at to now. */
  updatePost(id: number, row: PostRow): Promise<void>;
  setStatus(id: number, status: PostStatus): Promise<void>;
  /** Sets the post's idNum to PARKED_ID_NUM_BASE + id. */
  park(id: number): Promise<void>;
  /** A post whose idNum is PARKED_ID_NUM_BASE or more, if any. */
  findParked(): Promise<{ language: string; slug: string } | null>;
  /** The post's linked terms. */
  postTerms(postId: number): Promise<{ kind: TermKind; name: string }[]>;
  clearTerms(postId: number): Promise<void>;
  /** Links a term to a post; linking it twice is a no-op. */
  linkTerm(postId: number, termId: number): Promise<void>;
  findTerm(kind: TermKind, slug: string): Promise<{ id: number; name: string } | null>;
  /** Inserts a term; returns its id. */
  insertTerm(kind: TermKind, name: string, slug: string): Promise<number>;
  /** Adds the words to the search vocabulary (existing ones are kept), in this order. */
  addWords(words: readonly string[]): Promise<void>;
  findPage(slug: string): Promise<{ title: string; content: string } | null>;
  upsertPage(page: { slug: string; title: string; content: string }): Promise<void>;
  /** Replaces the post's search document and adds its words to the vocabulary. */
  indexPost(postId: number, doc: SearchDocument): Promise<void>;
  /** Removes the post's search document, if any. */
  unindexPost(postId: number): Promise<void>;
}

/**
 * Upserts posts by (language, slug) and pages by slug over a WriteTarget.
 *
 * `incoming` holds the key of every post the whole import will write: an
 * existing post whose idNum a record takes may only give it up if the import
 * also writes that post (with a new idNum). With `dryRun`, nothing is written
 * and the outcomes are what a real run would report.
 */
export class AsyncContentWriter {
  readonly summary: WriteSummary = { created: 0, updated: 0, unchanged: 0, pages: emptyCounts() };
  readonly #target: WriteTarget;
  readonly #dryRun: boolean;
  readonly #incoming: { has(key: string): boolean };
  readonly #terms = new Map<string, { id: number; name: string }>();

  constructor(target: WriteTarget, options: { incoming: { has(key: string): boolean }; dryRun?: boolean }) {
    this.#target = target;
    this.#dryRun = options.dryRun ?? false;
    this.#incoming = options.incoming;
  }

  /** `html` is the post's content already sanitized (sanitizePostHtml). */
  async writePost(post: PostRecord, html: string): Promise<WriteOutcome> {
    const target = this.#target;
    const existing = await target.findPost(post.language, post.slug);
    let outcome: WriteOutcome;
    if (!existing) outcome = "created";
    else if (await this.#isUnchanged(existing, post, html)) outcome = "unchanged";
    else outcome = "updated";
    this.summary[outcome]++;
    if (this.#dryRun || outcome === "unchanged") return outcome;

    if (!existing || existing.idNum !== post.idNum) await this.#freeIdNum(post, existing?.id);
    const row: PostRow = {
      language: post.language,
      idNum: post.idNum,
      status: post.status,
      postTime: post.postTime,
      title: post.title,
      slug: post.slug,
      featureImageUrl: post.featureImageUrl,
      content: html,
      excerpt: post.excerpt,
    };
    let postId: number;
    if (!existing) postId = await target.insertPost(row);
    else {
      postId = existing.id;
      await target.clearTerms(postId);
    }
    // Terms in record order, each linked once: their stored names make the document's tags.
    const linked = new Map<number, string>();
    for (const [kind, names] of [
      ["tag", post.tags],
      ["category", post.categories],
    ] as const) {
      for (const name of names) {
        const term = await this.#term(kind, name);
        if (linked.has(term.id)) continue;
        await target.linkTerm(postId, term.id);
        linked.set(term.id, term.name);
      }
    }
    if (existing) await target.updatePost(postId, row);
    if (post.status === "publish") {
      await target.indexPost(
        postId,
        searchDocument({
          title: post.title,
          content: html,
          excerpt: post.excerpt,
          termNames: [...linked.values()],
        }),
      );
    } else if (existing) {
      await target.unindexPost(postId);
    }
    return outcome;
  }

  async writePage(page: PageRecord, html: string): Promise<WriteOutcome> {
    const existing = await this.#target.findPage(page.slug);
    const outcome: WriteOutcome = !existing
      ? "created"
      : existing.title === page.title && existing.content === html
        ? "unchanged"
        : "updated";
    this.summary.pages[outcome]++;
    if (!this.#dryRun && outcome !== "unchanged") {
      await this.#target.upsertPage({ slug: page.slug, title: page.title, content: html });
    }
    return outcome;
  }

  /** Fails if a post parked by #freeIdNum never got its own record: the caller then rolls back. */
  async finish(): Promise<void> {
    if (this.#dryRun) return;
    const parked = await this.#target.findParked();
    if (parked) {
      throw new IdNumConflictError(
        `post ${parked.language} "${parked.slug}" gave up its idNum but was not written`,
      );
    }
  }

  /** Moves the post holding `post.idNum` out of the way, if the import rewrites it too. */
  async #freeIdNum(post: PostRecord, ownId: number | undefined): Promise<void> {
    const holder = await this.#target.findByIdNum(post.language, post.idNum);
    if (!holder || holder.id === ownId) return;
    if (!this.#incoming.has(postKey(post.language, holder.slug))) {
      throw new IdNumConflictError(
        `idNum ${post.idNum} (${post.language}) of post "${post.slug}" is already held by post "${holder.slug}"`,
      );
    }
    await this.#target.park(holder.id);
  }

  /** Terms are one per kind and slug ("Love" and "love" are one tag); cached by name. */
  async #term(kind: TermKind, name: string): Promise<{ id: number; name: string }> {
    const key = `${kind}\n${name}`;
    let term = this.#terms.get(key);
    if (term === undefined) {
      const slug = slugify(name);
      term = (await this.#target.findTerm(kind, slug)) ?? undefined;
      if (!term) {
        term = { id: await this.#target.insertTerm(kind, name, slug), name };
        await this.#target.addWords(termWords(name));
      }
      this.#terms.set(key, term);
    }
    return term;
  }

  async #isUnchanged(stored: StoredPost, post: PostRecord, html: string): Promise<boolean> {
    return (
      stored.idNum === post.idNum &&
      stored.status === post.status &&
      stored.postTime === post.postTime &&
      stored.title === post.title &&
      stored.featureImageUrl === post.featureImageUrl &&
      stored.content === html &&
      stored.excerpt === post.excerpt &&
      termKeys(await this.#target.postTerms(stored.id)) === termKeys(recordTerms(post))
    );
  }
}

function emptyCounts(): WriteCounts {
  return { created: 0, updated: 0, unchanged: 0 };
}

// Terms are compared by slug, as they are stored: "Love" and "love" are one tag.
function termKeys(terms: { kind: TermKind; name: string }[]): string {
  return [...new Set(terms.map((t) => `${t.kind}:${slugify(t.name)}`))].sort().join("\n");
}

function recordTerms(post: PostRecord) {
  return [
    ...post.tags.map((name) => ({ kind: "tag" as const, name })),
    ...post.categories.map((name) => ({ kind: "category" as const, name })),
  ];
}

/** The keys (postKey) of every post a content file writes: the writer's `incoming`. */
export function incomingKeys(content: ContentFile): Set<string> {
  return new Set(content.posts.map((post) => postKey(post.language, post.slug)));
}
