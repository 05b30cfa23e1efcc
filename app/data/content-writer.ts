// The write rules of an import, once for every database: upsert posts by
// (language, slug) and pages by slug, report unchanged records, move idNums
// between posts of one import, keep terms one per kind and slug, and keep the
// search document of every published post. Each database implements
// WriteTarget (its statements); the caller owns the transaction.
//
// What visitors see comes from published records only (decision 048):
// an unpublished record (draft, pending, private, future, trash) links
// to a person it finds but never creates one or writes a person's names,
// slug or keys; the words of a term's name join the search vocabulary once a
// published post is filed under it; a term no published post is filed under
// yet takes the spelling of the first published record that names it.
//
// The rules are generator functions that yield each statement to a driver:
// AsyncContentWriter awaits a target's answers (PostgreSQL), or takes them as
// they come when the target answers synchronously (SQLite: no microtask per
// statement); SyncContentWriter is the same rules for a synchronous target,
// for callers that cannot await (SQLite's one-transaction writeContent).
import { LANGUAGES, type Language } from "#app/content/languages.ts";
import type { PostStatus, TermKind } from "#app/content/model.ts";
import { allNames, nameLanguage, type PersonNames, personKey } from "#app/content/people.ts";
import type { ContentFile, PageRecord, PersonRecord, PostRecord } from "#app/content/schemas.ts";
import { slugify } from "#app/content/slugs.ts";
import {
  ALL_TAG,
  bylineTag,
  ChangeSet,
  type ContentChange,
  listTag,
  PAGES_TAG,
  PEOPLE_TAG,
  pageTag,
  personTag,
  postTag,
  removedPostChanges,
  SEARCH_TAG,
  sitemapTag,
  TERMS_TAG,
  termTag,
} from "#app/data/cache-tags.ts";
import { type SearchDocument, type SearchText, searchDocument, termWords } from "#app/search/document.ts";

/**
 * Posts entering or moving in their language's order whose neighbours a write
 * looks up (their previous/next links change); past it (a large import) the
 * write names every page (decision 057).
 */
export const NEIGHBOUR_LOOKUPS = 100;

export type WriteOutcome = "created" | "updated" | "unchanged";

export interface WriteCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** Post counts at the top level; page counts under `pages`. */
export interface WriteSummary extends WriteCounts {
  pages: WriteCounts;
}

/** An idNum the record asks for is held by a post the import does not touch. */
export class IdNumConflictError extends Error {}

/** Two posts of one language in one translation group. */
export class TranslationConflictError extends Error {}

/** `language` + newline + `slug`: identifies a post, as the unique index does. */
export function postKey(language: Language, slug: string): string {
  return `${language}\n${slug}`;
}

/**
 * A post whose idNum is wanted by another record is parked at
 * PARKED_ID_NUM_BASE + its id (above every real idNum: schemas.ts caps them at
 * MAX_ID_NUM) until its own record comes.
 */
export const PARKED_ID_NUM_BASE = 1_000_000_000_000_000;

/** A post record as the writer takes it: its content comes sanitized, beside it (writePost's `html`). */
export type PostToWrite = Omit<PostRecord, "content">;

/** A post's columns as written (content already sanitized). */
export interface PostWriteRow {
  language: Language;
  idNum: number;
  status: PostStatus;
  postTime: number;
  title: string;
  slug: string;
  featureImageUrl: string;
  /** The post's recording (decision 052); "" is none. */
  audioUrl: string;
  content: string;
  excerpt: string;
  translationKey: string | null;
  personId: number | null;
  work: string;
  reference: string;
}

/** A post as found, to compare with its record (language and slug found it). */
export type StoredPost = Omit<PostWriteRow, "language" | "slug" | "status"> & { id: number; status: string };

/** A person as stored. */
export interface StoredPerson {
  id: number;
  slug: string;
  names: PersonNames;
  /** A line about them per language, "" where none (decision 066). */
  about: PersonNames;
}

/** A published post of a person, to index again when the person's names change. */
export interface PersonPost {
  id: number;
  title: string;
  content: string;
  excerpt: string;
  work: string;
  reference: string;
}

/** The statements of one database, inside the caller's transaction. */
export interface WriteTarget {
  /**
   * The posts the rules are about to write, in order (a hint): a target
   * whose reads are round trips may read their stored rows and terms in one
   * go, and answer findPost and postTerms from them until a write touches
   * the post. One that reads in-process leaves it out.
   */
  expectPosts?(posts: readonly { language: Language; slug: string }[]): Promise<void>;
  findPost(language: Language, slug: string): Promise<StoredPost | null>;
  findByIdNum(language: Language, idNum: number): Promise<{ id: number; slug: string } | null>;
  /** Inserts the post; returns its id. */
  insertPost(row: PostWriteRow): Promise<number>;
  /** Rewrites every column of the post and sets its updated_at to now. */
  updatePost(id: number, row: PostWriteRow): Promise<void>;
  setStatus(id: number, status: PostStatus): Promise<void>;
  /** Sets the post's idNum to PARKED_ID_NUM_BASE + id. */
  park(id: number): Promise<void>;
  /** A post whose idNum is PARKED_ID_NUM_BASE or more, if any. */
  findParked(): Promise<{ language: string; slug: string } | null>;
  /** The post's linked terms. */
  postTerms(postId: number): Promise<{ kind: TermKind; name: string; slug: string }[]>;
  clearTerms(postId: number): Promise<void>;
  /** Links a term to a post; linking it twice is a no-op. */
  linkTerm(postId: number, termId: number): Promise<void>;
  findTerm(kind: TermKind, slug: string): Promise<{ id: number; name: string } | null>;
  /** Inserts a term; returns its id. */
  insertTerm(kind: TermKind, name: string, slug: string): Promise<number>;
  /** Whether a published post is filed under the term. */
  termPublished(termId: number): Promise<boolean>;
  renameTerm(termId: number, name: string): Promise<void>;
  /** Adds the words to the search vocabulary (existing ones are kept), in this order. */
  addWords(words: readonly string[]): Promise<void>;
  findPage(slug: string): Promise<{ title: string; content: string } | null>;
  upsertPage(page: { slug: string; title: string; content: string }): Promise<void>;
  /** Replaces the post's search document and adds its words to the vocabulary. */
  indexPost(postId: number, doc: SearchDocument): Promise<void>;
  /** Removes the post's search document, if any. */
  unindexPost(postId: number): Promise<void>;
  /** The post of `language` in the translation group, of any status. */
  findTranslation(translationKey: string, language: Language): Promise<{ id: number; slug: string } | null>;
  /** Takes the post out of its translation group. */
  clearTranslation(postId: number): Promise<void>;
  findPersonBySlug(slug: string): Promise<StoredPerson | null>;
  /** The person a name (folded by personKey) belongs to. */
  findPersonByKey(key: string): Promise<StoredPerson | null>;
  /** Inserts a person; returns their id. */
  insertPerson(slug: string, names: PersonNames): Promise<number>;
  updatePerson(id: number, slug: string, names: PersonNames): Promise<void>;
  /** Sets the person's lines about them (decision 066). */
  setPersonAbout(id: number, about: PersonNames): Promise<void>;
  /** Records the names (personKey) as the person's; a name already someone's stays theirs. */
  addPersonKeys(personId: number, keys: readonly string[]): Promise<void>;
  /** The person's published posts. */
  personPosts(personId: number): Promise<PersonPost[]>;
  /** Links the post to a person (an unpublished post whose person an import wrote later). */
  setPostPerson(postId: number, personId: number): Promise<void>;
  personById(id: number): Promise<StoredPerson | null>;
  /** The slugs of the published posts just older and just newer than this place in the language's order. */
  neighbours(language: Language, postTime: number, postId: number): Promise<string[]>;
  /** Records what the transaction changed (content_changes, decision 057) and prunes old rows. */
  recordChanges(changes: readonly ContentChange[]): Promise<void>;
}

/** The same statements answered synchronously (better-sqlite3). */
export type SyncWriteTarget = {
  [K in keyof WriteTarget]: (
    ...args: Parameters<NonNullable<WriteTarget[K]>>
  ) => Awaited<ReturnType<NonNullable<WriteTarget[K]>>>;
};

/** Posts a writer of many hands the target at a time as expected (WriteTarget.expectPosts). */
export const POSTS_EXPECTED_AT_ONCE = 500;

/** A term this write has looked up: its id, stored name and cache tag (made once, not for every post filed under it). */
interface KnownTerm {
  id: number;
  name: string;
  tag: string;
}

type AnyTarget = WriteTarget | SyncWriteTarget;
/** One statement of the rules, run by a driver against its target. */
type Statement = (target: AnyTarget) => unknown;
type Steps<T> = Generator<Statement, T, unknown>;

/** Yields one statement to the driver and returns its (awaited) answer. */
function* run<R>(statement: (target: AnyTarget) => R): Steps<Awaited<R>> {
  return (yield statement) as Awaited<R>;
}

function isPromise(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Runs the rules against the target, awaiting only answers that are promises. */
async function driveAsync<T>(steps: Steps<T>, target: AnyTarget): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = next.value(target);
      if (isPromise(answer)) answer = await answer;
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

function driveSync<T>(steps: Steps<T>, target: SyncWriteTarget): T {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = next.value(target);
      if (isPromise(answer)) throw new Error("SyncContentWriter needs a synchronous WriteTarget");
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

export interface WriterOptions {
  /** The key (postKey) of every post the whole import writes. */
  incoming: { has(key: string): boolean };
  dryRun?: boolean;
}

/** The rules, as steps; the writers below run them. */
class WriteRules {
  readonly summary: WriteSummary = { created: 0, updated: 0, unchanged: 0, pages: emptyCounts() };
  readonly #dryRun: boolean;
  readonly #incoming: { has(key: string): boolean };
  /** Terms by kind and name as records give it; one object per term, so a rename shows in every entry. */
  readonly #terms = new Map<string, KnownTerm>();
  readonly #termsById = new Map<number, KnownTerm>();
  /** Terms a published post is filed under (seen by this import): their spelling is settled. */
  readonly #publishedTerms = new Set<number>();
  /** Terms whose words this import put in the vocabulary (with their first published post). */
  readonly #termsWithWords = new Set<number>();
  /**
   * Unpublished posts whose person was not found when written, by person
   * record: looked for again at finish() (a number per post, a record per person).
   */
  readonly #unlinked = new Map<string, { person: PersonRecord; postIds: number[] }>();
  /** #findPerson's answers by person record; emptied whenever the import writes a person. */
  readonly #found = new Map<string, number | null>();
  /** A person record (with its post's language) → the person it resolved to, shared and kept current. */
  readonly #people = new Map<string, PersonState>();
  /** The people, by id, whose state this import has settled. */
  readonly #peopleById = new Map<number, PersonState>();
  /** `translationKey` + newline + language → the slug of the import's post holding it. */
  readonly #groups = new Map<string, string>();
  /** What this write changes for visitors, as cache tags (decision 057), recorded by finish(). */
  readonly changes = new ChangeSet();
  /** Neighbour lookups made for the change set; past NEIGHBOUR_LOOKUPS the write names every page instead. */
  #neighbourLookups = 0;
  #recorded = false;

  constructor(options: WriterOptions) {
    this.#dryRun = options.dryRun ?? false;
    this.#incoming = options.incoming;
  }

  *writePost(post: PostToWrite, html: string, text?: SearchText): Steps<WriteOutcome> {
    const existing = yield* run((t) => t.findPost(post.language, post.slug));
    const translationKey = post.translationKey ?? null;
    // The post now holding the record's place in its translation group, if another.
    const holder =
      translationKey === null ? null : yield* this.#claimTranslation(post, translationKey, existing?.id);
    const published = post.status === "publish";
    const record = post.source?.person;
    // A published record writes its person; an unpublished one only links to a person it finds.
    const person = record && published ? yield* this.#person(record, post.language) : null;
    const personId = record ? (published ? (person?.id ?? null) : yield* this.#findPerson(record)) : null;
    let outcome: WriteOutcome;
    if (!existing) outcome = "created";
    else if (yield* this.#isUnchanged(existing, post, html, personId)) outcome = "unchanged";
    else outcome = "updated";
    this.summary[outcome]++;
    if (this.#dryRun) return outcome;
    if (record && !published && personId === null && existing) this.#unlink(existing.id, record);
    if (outcome === "unchanged") return outcome;

    if (!existing || existing.idNum !== post.idNum) yield* this.#freeIdNum(post, existing?.id);
    // What showed the post as it was (read before it changes): its terms, its person.
    const wasPublished = existing?.status === "publish";
    const before =
      existing && wasPublished && !this.changes.full
        ? yield* this.#shownAs(existing.id, existing.personId)
        : null;
    if (holder) {
      yield* run((t) => t.clearTranslation(holder.id));
      // The holder leaves its group: the pages showing it as a translation are dropped.
      this.changes.add([postTag(holder.slug)], true);
    }
    const row: PostWriteRow = {
      language: post.language,
      idNum: post.idNum,
      status: post.status,
      postTime: post.postTime,
      title: post.title,
      slug: post.slug,
      featureImageUrl: post.featureImageUrl,
      audioUrl: post.audio ?? "",
      content: html,
      excerpt: post.excerpt,
      translationKey,
      personId,
      work: post.source?.work ?? "",
      reference: post.source?.reference ?? "",
    };
    let postId: number;
    if (!existing) {
      postId = yield* run((t) => t.insertPost(row));
      if (record && !published && personId === null) this.#unlink(postId, record);
    } else {
      postId = existing.id;
      yield* run((t) => t.clearTerms(postId));
    }
    // Terms in record order, each linked once: their stored names make the document's tags.
    const linked = new Map<number, string>();
    const termTags = new Set<string>();
    for (const [kind, names] of [
      ["tag", post.tags],
      ["category", post.categories],
    ] as const) {
      for (const name of names) {
        const term = yield* this.#term(kind, name, published);
        if (linked.has(term.id)) continue;
        yield* run((t) => t.linkTerm(postId, term.id));
        linked.set(term.id, term.name);
        termTags.add(term.tag);
      }
    }
    if (existing) yield* run((t) => t.updatePost(postId, row));
    if ((wasPublished || published) && !this.changes.full) {
      yield* this.#postChanges(post, postId, existing, before, {
        terms: termTags,
        personSlug: person?.slug ?? null,
      });
    } else if (wasPublished) {
      // Past the cap the write names `all`, and what a published post left is no longer
      // worked out: it counts as a removal, so every page is dropped (as before decision 057).
      this.changes.add([postTag(post.slug)], true);
    }
    if (published) {
      // A term's words join the vocabulary with its first published post (once per import).
      for (const [termId, name] of linked) {
        this.#publishedTerms.add(termId);
        if (this.#termsWithWords.has(termId)) continue;
        this.#termsWithWords.add(termId);
        const words = termWords(name);
        yield* run((t) => t.addWords(words));
      }
      const doc = searchDocument({
        title: post.title,
        content: html,
        excerpt: post.excerpt,
        termNames: [...linked.values()],
        source: sourceTexts(person?.names ?? null, row.work, row.reference),
        text,
      });
      yield* run((t) => t.indexPost(postId, doc));
    } else if (existing) {
      yield* run((t) => t.unindexPost(postId));
    }
    return outcome;
  }

  *writePage(page: PageRecord, html: string): Steps<WriteOutcome> {
    const existing = yield* run((t) => t.findPage(page.slug));
    const outcome: WriteOutcome = !existing
      ? "created"
      : existing.title === page.title && existing.content === html
        ? "unchanged"
        : "updated";
    this.summary.pages[outcome]++;
    if (!this.#dryRun && outcome !== "unchanged") {
      yield* run((t) => t.upsertPage({ slug: page.slug, title: page.title, content: html }));
      this.changes.add([pageTag(page.slug), existing?.title === page.title ? null : PAGES_TAG]);
    }
    return outcome;
  }

  /** A published post's terms (as tags) and person, before a write changes them. */
  *#shownAs(
    postId: number,
    personId: number | null,
  ): Steps<{ terms: Set<string>; personSlug: string | null }> {
    const terms = yield* run((t) => t.postTerms(postId));
    const person = personId === null ? null : yield* run((t) => t.personById(personId));
    return {
      terms: new Set(terms.map((term) => termTag(term.kind, term.slug))),
      personSlug: person?.slug ?? null,
    };
  }

  /**
   * The tags a write of a post that is or was published changes: its own
   * (dropped if it leaves the site), its language's order when it enters,
   * leaves or moves in it (and its new neighbours), the terms, person and
   * translation group it joins (refreshed) or leaves (dropped), the sitemap
   * and search.
   */
  *#postChanges(
    post: PostToWrite,
    postId: number,
    existing: StoredPost | null,
    before: { terms: Set<string>; personSlug: string | null } | null,
    after: { terms: Set<string>; personSlug: string | null },
  ): Steps<void> {
    const was = existing?.status === "publish";
    const now = post.status === "publish";
    const leaves = was && !now;
    this.changes.add([postTag(post.slug), sitemapTag(post.language)], leaves);
    this.changes.add([SEARCH_TAG]);
    const moved = was !== now || existing?.postTime !== post.postTime;
    // A shared collection names posts by idNum (its language's tag).
    if (existing && existing.idNum !== post.idNum) this.changes.add([listTag(post.language)]);
    if (moved) {
      this.changes.add([listTag(post.language)]);
      if (now && ++this.#neighbourLookups > NEIGHBOUR_LOOKUPS) {
        // A large import: a lookup a post would undo PostgreSQL's batched writes
        // (decision 059). Every page is refreshed instead (served stale meanwhile).
        this.changes.add([ALL_TAG]);
      } else if (now) {
        const near = yield* run((t) => t.neighbours(post.language, post.postTime, postId));
        this.changes.add(near.map(postTag));
      }
    }
    const oldTerms = was ? (before?.terms ?? new Set<string>()) : new Set<string>();
    const newTerms = now ? after.terms : new Set<string>();
    const left = [...oldTerms].filter((tag) => !newTerms.has(tag));
    const joined = [...newTerms].filter((tag) => !oldTerms.has(tag));
    this.changes.add(left, true);
    this.changes.add(moved ? newTerms : joined);
    if (left.length || joined.length) this.changes.add([TERMS_TAG]);
    const oldPerson = was ? (before?.personSlug ?? null) : null;
    const newPerson = now ? after.personSlug : null;
    if (oldPerson !== newPerson) {
      this.changes.add([oldPerson && personTag(oldPerson)], true);
      this.changes.add([newPerson && personTag(newPerson), PEOPLE_TAG]);
    } else if (moved && newPerson) this.changes.add([personTag(newPerson)]);
    // Translations: the group it leaves drops it; the group it joins (or is published into) shows it.
    const oldKey = was ? (existing?.translationKey ?? null) : null;
    const newKey = now ? (post.translationKey ?? null) : null;
    if (oldKey !== newKey || was !== now) {
      for (const [key, removal] of [
        [oldKey, true],
        [newKey, false],
      ] as const) {
        if (key === null) continue;
        for (const language of LANGUAGES) {
          if (language === post.language) continue;
          const member = yield* run((t) => t.findTranslation(key, language));
          if (member) this.changes.add([postTag(member.slug)], removal && key !== newKey);
        }
      }
    }
  }

  *finish(): Steps<void> {
    if (this.#dryRun) return;
    // An unpublished post names a person a later record of the import wrote: linked now, so the
    // result does not depend on the records' order (and a second import finds it unchanged).
    for (const { person, postIds } of this.#unlinked.values()) {
      const personId = yield* this.#findPerson(person);
      if (personId === null) continue;
      for (const postId of postIds) yield* run((t) => t.setPostPerson(postId, personId));
    }
    this.#unlinked.clear();
    const parked = yield* run((t) => t.findParked());
    if (parked) {
      throw new IdNumConflictError(
        `post ${parked.language} "${parked.slug}" gave up its idNum but was not written`,
      );
    }
    // Recorded once, however many times finish() is called (the importer calls it, then the transaction).
    const records = this.changes.records();
    if (records.length && !this.#recorded) yield* run((t) => t.recordChanges(records));
    this.#recorded = true;
  }

  /**
   * Records the tags a published post's leaving changes (sukti unpublish,
   * delete), before the caller's statement takes it off: what showed it is
   * dropped at once.
   */
  *removePost(post: LeavingPost): Steps<ContentChange[]> {
    const shown = yield* this.#shownAs(post.id, post.personId);
    const changes = new ChangeSet();
    removedPostChanges(changes, {
      language: post.language,
      slug: post.slug,
      termTags: [...shown.terms],
      personSlug: shown.personSlug,
    });
    const records = changes.records();
    yield* run((t) => t.recordChanges(records));
    return records;
  }

  /**
   * A translation group holds one post per language: a second post of the
   * language in the import is refused, naming both; a post already in the
   * group gives its place up only if the import rewrites it too.
   */
  *#claimTranslation(
    post: PostToWrite,
    translationKey: string,
    ownId: number | undefined,
  ): Steps<{ id: number; slug: string } | null> {
    const groupKey = `${translationKey}\n${post.language}`;
    const claimed = this.#groups.get(groupKey);
    if (claimed !== undefined && claimed !== post.slug) {
      throw new TranslationConflictError(
        `translation group "${translationKey}" has two ${post.language} posts: "${claimed}" and "${post.slug}"`,
      );
    }
    this.#groups.set(groupKey, post.slug);
    const holder = yield* run((t) => t.findTranslation(translationKey, post.language));
    if (holder && holder.id !== ownId && !this.#incoming.has(postKey(post.language, holder.slug))) {
      throw new TranslationConflictError(
        `translation group "${translationKey}" already has the ${post.language} post "${holder.slug}"; post "${post.slug}" cannot join it`,
      );
    }
    return holder && holder.id !== ownId ? holder : null;
  }

  /**
   * The person a record names: found by the slug it gives, else by any of its
   * names (in any script), else by the slug its name makes; created when
   * none. Names the record gives are written to the person (an explicit
   * language's name replaces the stored one; a bare name only fills an empty
   * slot), and their posts indexed again when their names change.
   */
  *#person(record: PersonRecord, language: Language): Steps<PersonState> {
    const cacheKey = JSON.stringify([
      record.name,
      record.names,
      record.slug ?? null,
      record.about ?? null,
      language,
    ]);
    const cached = this.#people.get(cacheKey);
    if (cached) return cached;
    const keys = [...new Set([record.name, ...Object.values(record.names)].map(personKey))];
    let found: StoredPerson | null = null;
    const givenSlug = record.slug;
    if (givenSlug !== undefined) found = yield* run((t) => t.findPersonBySlug(givenSlug));
    for (const key of keys) {
      if (found) break;
      found = yield* run((t) => t.findPersonByKey(key));
    }
    const names: PersonNames = found
      ? { ...(this.#peopleById.get(found.id)?.names ?? found.names) }
      : { english: "", hindi: "", marathi: "" };
    for (const [slot, name] of Object.entries(record.names) as [Language, string][]) names[slot] = name;
    if (!Object.values(record.names).includes(record.name)) {
      const slot = nameLanguage(record.name, language);
      if (names[slot] === "") names[slot] = record.name;
    }
    const derived = slugify(names.english || record.name);
    if (!found && record.slug === undefined) found = yield* run((t) => t.findPersonBySlug(derived));
    const slug = record.slug ?? found?.slug ?? derived;
    const state: PersonState = found
      ? (this.#peopleById.get(found.id) ?? {
          id: found.id,
          slug: found.slug,
          names: found.names,
          about: found.about,
        })
      : { id: null, slug, names, about: { english: "", hindi: "", marathi: "" } };
    // A line given for a language replaces the stored one; a line given without one is in the
    // language a bare name would fill (decision 066).
    const about: PersonNames = { ...state.about };
    for (const [slot, line] of Object.entries(record.about ?? {}) as [Language | "", string][]) {
      about[slot === "" ? nameLanguage(line, language) : slot] = line;
    }
    this.#people.set(cacheKey, state);
    if (this.#dryRun) return state;
    this.#found.clear();
    const changed = state.slug !== slug || LANGUAGES.some((slot) => state.names[slot] !== names[slot]);
    const oldSlug = state.slug;
    state.slug = slug;
    state.names = names;
    const inserted = state.id === null;
    if (state.id === null) state.id = yield* run((t) => t.insertPerson(slug, names));
    else if (changed) {
      const id = state.id;
      // Their pages, their name beside their posts, the people index and search show the new names.
      if (oldSlug !== slug) this.changes.add([personTag(oldSlug)], true);
      this.changes.add([personTag(slug), bylineTag(oldSlug), bylineTag(slug), PEOPLE_TAG, SEARCH_TAG]);
      yield* run((t) => t.updatePerson(id, slug, names));
      yield* this.#indexPersonPosts(state);
    }
    const id = state.id;
    if (LANGUAGES.some((slot) => state.about[slot] !== about[slot])) {
      // Shown on their page and on /people only.
      if (!inserted) this.changes.add([personTag(slug), PEOPLE_TAG]);
      state.about = about;
      yield* run((t) => t.setPersonAbout(id, about));
    }
    this.#peopleById.set(state.id, state);
    const allKeys = [...new Set([...keys, ...allNames(names).map(personKey)])];
    yield* run((t) => t.addPersonKeys(id, allKeys));
    return state;
  }

  #unlink(postId: number, person: PersonRecord): void {
    const key = personRecordKey(person);
    const entry = this.#unlinked.get(key);
    if (entry) entry.postIds.push(postId);
    else this.#unlinked.set(key, { person, postIds: [postId] });
  }

  /**
   * The person an unpublished record names, if one exists: found as #person
   * finds them (the slug it gives, each of its names, the slug its name
   * makes). Nothing about the person is written: names that only unpublished
   * records give never reach a page.
   */
  *#findPerson(record: PersonRecord): Steps<number | null> {
    const key = personRecordKey(record);
    const cached = this.#found.get(key);
    if (cached !== undefined) return cached;
    const id = yield* this.#lookUpPerson(record);
    this.#found.set(key, id);
    return id;
  }

  *#lookUpPerson(record: PersonRecord): Steps<number | null> {
    const givenSlug = record.slug;
    if (givenSlug !== undefined) {
      const bySlug = yield* run((t) => t.findPersonBySlug(givenSlug));
      if (bySlug) return bySlug.id;
    }
    for (const key of new Set([record.name, ...Object.values(record.names)].map(personKey))) {
      const byKey = yield* run((t) => t.findPersonByKey(key));
      if (byKey) return byKey.id;
    }
    const derived = slugify(record.names.english || record.name);
    if (givenSlug !== undefined || derived === "") return null;
    return (yield* run((t) => t.findPersonBySlug(derived)))?.id ?? null;
  }

  /** The person's published posts, indexed again with their current names. */
  *#indexPersonPosts(person: PersonState): Steps<void> {
    const id = person.id;
    if (id === null) throw new Error("#indexPersonPosts: the person has no id yet (insert it first)");
    for (const post of yield* run((t) => t.personPosts(id))) {
      const terms = yield* run((t) => t.postTerms(post.id));
      const doc = searchDocument({
        title: post.title,
        content: post.content,
        excerpt: post.excerpt,
        termNames: terms.map((term) => term.name),
        source: sourceTexts(person.names, post.work, post.reference),
      });
      yield* run((t) => t.indexPost(post.id, doc));
    }
  }

  /** Moves the post holding `post.idNum` out of the way, if the import rewrites it too. */
  *#freeIdNum(post: PostToWrite, ownId: number | undefined): Steps<void> {
    const holder = yield* run((t) => t.findByIdNum(post.language, post.idNum));
    if (!holder || holder.id === ownId) return;
    if (!this.#incoming.has(postKey(post.language, holder.slug))) {
      throw new IdNumConflictError(
        `idNum ${post.idNum} (${post.language}) of post "${post.slug}" is already held by post "${holder.slug}"`,
      );
    }
    yield* run((t) => t.park(holder.id));
  }

  /**
   * Terms are one per kind and slug ("Love" and "love" are one tag); cached by
   * name. A term keeps the name it was created with, unless no published post
   * is filed under it yet (an unpublished record created it): the first
   * published record naming it then gives it its name.
   */
  *#term(kind: TermKind, name: string, published: boolean): Steps<KnownTerm> {
    const key = `${kind}\n${name}`;
    let term = this.#terms.get(key);
    if (term === undefined) {
      const slug = slugify(name);
      const found = yield* run((t) => t.findTerm(kind, slug));
      const tag = termTag(kind, slug);
      term = found
        ? (this.#termsById.get(found.id) ?? { id: found.id, name: found.name, tag })
        : { id: yield* run((t) => t.insertTerm(kind, name, slug)), name, tag };
      this.#termsById.set(term.id, term);
      this.#terms.set(key, term);
    }
    if (published && term.name !== name && !this.#dryRun && !this.#publishedTerms.has(term.id)) {
      const id = term.id;
      if (yield* run((t) => t.termPublished(id))) this.#publishedTerms.add(id);
      else {
        yield* run((t) => t.renameTerm(id, name));
        term.name = name;
      }
    }
    return term;
  }

  *#isUnchanged(
    stored: StoredPost,
    post: PostToWrite,
    html: string,
    personId: number | null,
  ): Steps<boolean> {
    if (
      stored.translationKey !== (post.translationKey ?? null) ||
      stored.personId !== personId ||
      stored.work !== (post.source?.work ?? "") ||
      stored.reference !== (post.source?.reference ?? "") ||
      stored.idNum !== post.idNum ||
      stored.status !== post.status ||
      stored.postTime !== post.postTime ||
      stored.title !== post.title ||
      stored.featureImageUrl !== post.featureImageUrl ||
      stored.audioUrl !== (post.audio ?? "") ||
      stored.content !== html ||
      stored.excerpt !== post.excerpt
    ) {
      return false;
    }
    const terms = yield* run((t) => t.postTerms(stored.id));
    return termKeys(terms) === termKeys(recordTerms(post));
  }
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
  readonly #rules: WriteRules;
  readonly #target: AnyTarget;

  constructor(target: WriteTarget | SyncWriteTarget, options: WriterOptions) {
    this.#target = target;
    this.#rules = new WriteRules(options);
  }

  get summary(): WriteSummary {
    return this.#rules.summary;
  }

  /**
   * `html` is the post's content already sanitized (sanitizePostHtml); `text`,
   * searchText(post.title, html, post.excerpt) when the caller made it already.
   */
  writePost(post: PostToWrite, html: string, text?: SearchText): Promise<WriteOutcome> {
    return driveAsync(this.#rules.writePost(post, html, text), this.#target);
  }

  /**
   * The posts about to be written, in order, at most POSTS_EXPECTED_AT_ONCE
   * (WriteTarget.expectPosts): a PostgreSQL target reads them in one round
   * trip instead of one or two a post.
   */
  async expectPosts(posts: readonly { language: Language; slug: string }[]): Promise<void> {
    if (posts.length > 0) await this.#target.expectPosts?.(posts);
  }

  writePage(page: PageRecord, html: string): Promise<WriteOutcome> {
    return driveAsync(this.#rules.writePage(page, html), this.#target);
  }

  /** Fails if a post parked for its idNum never got its own record: the caller then rolls back. */
  finish(): Promise<void> {
    return driveAsync(this.#rules.finish(), this.#target);
  }

  /** What the write changed, as cache tags (decision 057): recorded by finish(), purged after the commit. */
  get changes(): ChangeSet {
    return this.#rules.changes;
  }
}

/** AsyncContentWriter's rules over a synchronous target, for callers that cannot await. */
export class SyncContentWriter {
  readonly #rules: WriteRules;
  readonly #target: SyncWriteTarget;

  constructor(target: SyncWriteTarget, options: WriterOptions) {
    this.#target = target;
    this.#rules = new WriteRules(options);
  }

  get summary(): WriteSummary {
    return this.#rules.summary;
  }

  writePost(post: PostToWrite, html: string, text?: SearchText): WriteOutcome {
    return driveSync(this.#rules.writePost(post, html, text), this.#target);
  }

  writePage(page: PageRecord, html: string): WriteOutcome {
    return driveSync(this.#rules.writePage(page, html), this.#target);
  }

  finish(): void {
    driveSync(this.#rules.finish(), this.#target);
  }

  get changes(): ChangeSet {
    return this.#rules.changes;
  }
}

/** A post about to leave the site (unpublish, delete): its row as the removal needs it. */
export interface LeavingPost {
  id: number;
  language: Language;
  slug: string;
  personId: number | null;
}

/** Records, in the caller's transaction, what a published post's leaving changes; returns the rows recorded. */
export function recordRemoval(target: WriteTarget, post: LeavingPost): Promise<ContentChange[]> {
  return driveAsync(new WriteRules({ incoming: new Set() }).removePost(post), target);
}

/** recordRemoval over a synchronous target (SQLite). */
export function recordRemovalSync(target: SyncWriteTarget, post: LeavingPost): ContentChange[] {
  return driveSync(new WriteRules({ incoming: new Set() }).removePost(post), target);
}

/** A person while an import resolves them: `id` is null in a dry run for a person not yet stored. */
interface PersonState {
  id: number | null;
  slug: string;
  names: PersonNames;
  about: PersonNames;
}

/** A person record as a map key. */
function personRecordKey(person: PersonRecord): string {
  return JSON.stringify([person.name, person.names, person.slug ?? null]);
}

/** What a post's search document holds of its source: every name of its person, its work and reference. */
function sourceTexts(names: PersonNames | null, work: string, reference: string): string[] {
  return [...(names ? allNames(names) : []), work, reference].filter((text) => text !== "");
}

function emptyCounts(): WriteCounts {
  return { created: 0, updated: 0, unchanged: 0 };
}

// Terms are compared by slug, as they are stored: "Love" and "love" are one tag.
function termKeys(terms: { kind: TermKind; name: string }[]): string {
  return [...new Set(terms.map((t) => `${t.kind}:${slugify(t.name)}`))].sort().join("\n");
}

function recordTerms(post: PostToWrite) {
  return [
    ...post.tags.map((name) => ({ kind: "tag" as const, name })),
    ...post.categories.map((name) => ({ kind: "category" as const, name })),
  ];
}

/** The keys (postKey) of every post a content file writes: the writer's `incoming`. */
export function incomingKeys(content: ContentFile): Set<string> {
  return new Set(content.posts.map((post) => postKey(post.language, post.slug)));
}
