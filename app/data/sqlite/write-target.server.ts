// The statements of ../content-writer.ts's rules on SQLite (better-sqlite3,
// synchronous), inside the caller's transaction, and the search index kept by
// our code: the folded document of each published post goes into
// search_documents and the FTS5 table search_index over it, its words into
// the vocabulary (search_words), and each new Devanagari word into the
// trigram index and the romanisation skeletons.
import type { Statement } from "better-sqlite3";
import type { Language } from "#app/content/languages.ts";
import type { PostStatus, TermKind } from "#app/content/model.ts";
import type { PersonNames } from "#app/content/people.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import {
  PARKED_ID_NUM_BASE,
  type PersonPost,
  type PostWriteRow,
  type StoredPerson,
  type StoredPost,
  type SyncWriteTarget,
} from "#app/data/content-writer.ts";
import type { Db } from "#app/data/sqlite/database.server.ts";
import {
  buildDeferredIndexes,
  DEFER_AFTER_POSTS,
  dropDeferredIndexes,
} from "#app/data/sqlite/deferred-indexes.server.ts";
import { isDevanagariWord, type SearchDocument, wordSkeletons } from "#app/search/document.ts";

/** content_changes keeps this many rows; a server further behind drops every page (decision 057). */
export const KEPT_CHANGES = 1000;

type Statements = Record<string, Statement<never[], unknown> | Statement<unknown[], unknown>>;

/**
 * Writes search_documents, search_index and the vocabulary for one
 * transaction's writes. On a database from before search_documents (only
 * older migrations applied) it does nothing: migration 20261122030000 fills
 * search_documents and search_index from the posts.
 */
export class SearchIndexWriter {
  readonly #sql;
  /** Words known to be in search_words: each is inserted at most once per writer. */
  readonly #known = new Set<string>();

  constructor(db: Db) {
    const ours =
      db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'search_documents'").get() !==
      undefined;
    this.#sql = !ours
      ? null
      : ({
          stored: db.prepare<[number], { title: string; tags: string; body: string }>(
            "SELECT title, tags, body FROM search_documents WHERE post_id = ?",
          ),
          // Removal, as the triggers on posts do it: FTS5's 'delete' with the stored values, then the document.
          removeIndexed: db.prepare<[number]>(
            `INSERT INTO search_index (search_index, rowid, title, tags, body)
             SELECT 'delete', post_id, title, tags, body FROM search_documents WHERE post_id = ?`,
          ),
          removeDocument: db.prepare<[number]>("DELETE FROM search_documents WHERE post_id = ?"),
          insertDocument: db.prepare<[number, string, string, string]>(
            "INSERT INTO search_documents (post_id, title, tags, body) VALUES (?, ?, ?, ?)",
          ),
          insertIndexed: db.prepare<[number, string, string, string]>(
            "INSERT INTO search_index (rowid, title, tags, body) VALUES (?, ?, ?, ?)",
          ),
          // New words only, in the given order (word ids grow in order of first use).
          addWords: db.prepare<[string], { id: number; word: string }>(
            `INSERT INTO search_words (word) SELECT value FROM json_each(?) WHERE true
         ON CONFLICT (word) DO NOTHING RETURNING id, word`,
          ),
          addTrigrams: db.prepare<[number, string]>(
            "INSERT INTO search_words_trigram (rowid, word) VALUES (?, ?)",
          ),
          addSkeleton: db.prepare<[string, number]>(
            "INSERT OR IGNORE INTO search_skeletons (skeleton, word_id) VALUES (?, ?)",
          ),
        } satisfies Statements);
  }

  /** Adds the words to the vocabulary (existing ones are kept); Devanagari ones get trigrams and skeletons. */
  addWords(words: readonly string[]): void {
    if (!this.#sql) return;
    const unknown = words.filter((word) => !this.#known.has(word));
    if (unknown.length === 0) return;
    for (const word of unknown) this.#known.add(word);
    for (const { id, word } of this.#sql.addWords.all(JSON.stringify(unknown))) {
      if (!isDevanagariWord(word)) continue;
      this.#sql.addTrigrams.run(id, word);
      for (const skeleton of wordSkeletons(word)) this.#sql.addSkeleton.run(skeleton, id);
    }
  }

  /** Replaces the post's document (unless it is unchanged) and adds its words to the vocabulary. */
  index(postId: number, doc: SearchDocument): void {
    if (!this.#sql) return;
    const stored = this.#sql.stored.get(postId);
    if (stored) {
      if (stored.title === doc.title && stored.tags === doc.tags && stored.body === doc.body) {
        this.addWords(doc.words);
        return;
      }
      this.unindex(postId);
    }
    this.indexNew(postId, doc);
  }

  /** index() for a post that has no document yet (just inserted, or after 'delete-all'). */
  indexNew(postId: number, doc: SearchDocument): void {
    if (!this.#sql) return;
    this.#sql.insertDocument.run(postId, doc.title, doc.tags, doc.body);
    this.#sql.insertIndexed.run(postId, doc.title, doc.tags, doc.body);
    this.addWords(doc.words);
  }

  /** Removes the post's document, if it has one. */
  unindex(postId: number): void {
    if (!this.#sql) return;
    this.#sql.removeIndexed.run(postId);
    this.#sql.removeDocument.run(postId);
  }
}

/** WriteTarget over better-sqlite3: every statement answers synchronously. */
export class SqliteWriteTarget implements SyncWriteTarget {
  readonly #sql;
  readonly #index: SearchIndexWriter;
  /** Posts inserted by this target and not indexed yet: they have no document to replace. */
  readonly #inserted = new Set<number>();
  /** Posts this target inserted. */
  #insertedCount = 0;
  readonly #mayDeferIndexes: boolean;
  /** The statements of the indexes a first load dropped, until finishLoad() makes them. */
  #deferred: string[] | null = null;

  readonly #db: Db;

  /**
   * `deferIndexes`: a write inserting more than DEFER_AFTER_POSTS posts into a
   * database holding no other post (a first import) drops the indexes only
   * the site reads, and finishLoad() makes them again before the commit
   * (decision 092).
   */
  constructor(db: Db, options: { deferIndexes?: boolean } = {}) {
    this.#db = db;
    this.#mayDeferIndexes = options.deferIndexes === true;
    this.#index = new SearchIndexWriter(db);
    this.#sql = {
      findPost: db.prepare<[string, string], StoredPost>(
        `SELECT id, id_num AS idNum, status, post_time AS postTime, title,
           feature_image_url AS featureImageUrl, audio_url AS audioUrl, content, excerpt,
           translation_key AS translationKey,
           person_id AS personId, work, reference FROM posts WHERE language = ? AND slug = ?`,
      ),
      findByIdNum: db.prepare<[string, number], { id: number; slug: string }>(
        "SELECT id, slug FROM posts WHERE language = ? AND id_num = ?",
      ),
      insertPost: db.prepare<[PostWriteRow]>(
        `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, audio_url, content,
           excerpt, translation_key, person_id, work, reference)
         VALUES (@language, @idNum, @status, @postTime, @title, @slug, @featureImageUrl, @audioUrl, @content,
           @excerpt, @translationKey, @personId, @work, @reference)`,
      ),
      updatePost: db.prepare<[PostWriteRow & { id: number }]>(
        `UPDATE posts SET id_num = @idNum, status = @status, post_time = @postTime, title = @title,
           feature_image_url = @featureImageUrl, audio_url = @audioUrl, content = @content, excerpt = @excerpt,
           translation_key = @translationKey, person_id = @personId, work = @work, reference = @reference,
           updated_at = unixepoch()
         WHERE id = @id`,
      ),
      findTranslation: db.prepare<[string, string], { id: number; slug: string }>(
        "SELECT id, slug FROM posts WHERE translation_key = ? AND language = ?",
      ),
      clearTranslation: db.prepare<[number]>("UPDATE posts SET translation_key = NULL WHERE id = ?"),
      findPersonBySlug: db.prepare<[string], PersonRow>(
        `SELECT ${PERSON_COLUMNS} FROM people WHERE slug = ?`,
      ),
      findPersonByKey: db.prepare<[string], PersonRow>(
        `SELECT ${PERSON_COLUMNS} FROM person_keys k JOIN people ON people.id = k.person_id WHERE k.key = ?`,
      ),
      insertPerson: db.prepare<[string, string, string, string], { id: number }>(
        "INSERT INTO people (slug, name_english, name_hindi, name_marathi) VALUES (?, ?, ?, ?) RETURNING id",
      ),
      updatePerson: db.prepare<[string, string, string, string, number]>(
        "UPDATE people SET slug = ?, name_english = ?, name_hindi = ?, name_marathi = ? WHERE id = ?",
      ),
      setPersonAbout: db.prepare<[string, string, string, number]>(
        "UPDATE people SET about_english = ?, about_hindi = ?, about_marathi = ? WHERE id = ?",
      ),
      addPersonKeys: db.prepare<[number, string]>(
        "INSERT OR IGNORE INTO person_keys (key, person_id) SELECT value, ? FROM json_each(?)",
      ),
      personPosts: db.prepare<[number], PersonPost>(
        `SELECT id, title, content, excerpt, work, reference FROM posts
         WHERE person_id = ? AND status = 'publish' ORDER BY id`,
      ),
      setStatus: db.prepare<[string, number]>("UPDATE posts SET status = ? WHERE id = ?"),
      park: db.prepare<[number]>(`UPDATE posts SET id_num = ${PARKED_ID_NUM_BASE} + id WHERE id = ?`),
      findParked: db.prepare<[], { language: string; slug: string }>(
        `SELECT language, slug FROM posts WHERE language IN ('english', 'hindi', 'marathi')
         AND id_num >= ${PARKED_ID_NUM_BASE} LIMIT 1`,
      ),
      postTerms: db.prepare<[number], { kind: TermKind; name: string; slug: string }>(
        "SELECT t.kind, t.name, t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ?",
      ),
      clearTerms: db.prepare<[number]>("DELETE FROM post_terms WHERE post_id = ?"),
      linkTerm: db.prepare<[number, number]>(
        "INSERT OR IGNORE INTO post_terms (post_id, term_id) VALUES (?, ?)",
      ),
      findTerm: db.prepare<[string, string], { id: number; name: string }>(
        "SELECT id, name FROM terms WHERE kind = ? AND slug = ?",
      ),
      insertTerm: db.prepare<[string, string, string], { id: number }>(
        "INSERT INTO terms (kind, name, slug) VALUES (?, ?, ?) RETURNING id",
      ),
      termPublished: db
        .prepare<[number], number>(
          `SELECT EXISTS (SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
           WHERE pt.term_id = ? AND p.status = 'publish')`,
        )
        .pluck(),
      renameTerm: db.prepare<[string, number]>("UPDATE terms SET name = ? WHERE id = ?"),
      setPostPerson: db.prepare<[number, number]>("UPDATE posts SET person_id = ? WHERE id = ?"),
      personById: db.prepare<[number], PersonRow>(`SELECT ${PERSON_COLUMNS} FROM people WHERE id = ?`),
      neighbours: db
        .prepare<{ language: string; t: number; id: number }, string>(
          `SELECT slug FROM (SELECT slug FROM posts WHERE language = @language AND status = 'publish'
             AND (post_time < @t OR (post_time = @t AND id < @id)) ORDER BY post_time DESC, id DESC LIMIT 1)
           UNION ALL
           SELECT slug FROM (SELECT slug FROM posts WHERE language = @language AND status = 'publish'
             AND (post_time > @t OR (post_time = @t AND id > @id)) ORDER BY post_time ASC, id ASC LIMIT 1)`,
        )
        .pluck(),
      findPage: db.prepare<[string], { title: string; content: string }>(
        "SELECT title, content FROM pages WHERE slug = ?",
      ),
      upsertPage: db.prepare<[{ slug: string; title: string; content: string }]>(
        `INSERT INTO pages (slug, title, content) VALUES (@slug, @title, @content)
         ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
      ),
    } satisfies Statements;
  }

  findPost(language: Language, slug: string) {
    return this.#sql.findPost.get(language, slug) ?? null;
  }
  findByIdNum(language: Language, idNum: number) {
    return this.#sql.findByIdNum.get(language, idNum) ?? null;
  }
  insertPost(row: PostWriteRow) {
    const id = Number(this.#sql.insertPost.run(row).lastInsertRowid);
    this.#inserted.add(id);
    if (++this.#insertedCount === DEFER_AFTER_POSTS + 1 && this.#mayDeferIndexes && this.#deferred === null) {
      const stored = this.#db.prepare("SELECT count(*) FROM posts").pluck().get() as number;
      // Every post stored is one this write inserted: a first load.
      if (stored === this.#insertedCount) this.#deferred = dropDeferredIndexes(this.#db);
    }
    return id;
  }

  /** Makes what a first load deferred: called once the rules are finished, before the commit. */
  finishLoad(): void {
    const deferred = this.#deferred;
    if (deferred === null) return;
    this.#deferred = null;
    buildDeferredIndexes(this.#db, deferred);
  }
  updatePost(id: number, row: PostWriteRow) {
    this.#sql.updatePost.run({ ...row, id });
  }
  setStatus(id: number, status: PostStatus) {
    this.#sql.setStatus.run(status, id);
  }
  park(id: number) {
    this.#sql.park.run(id);
  }
  findParked() {
    return this.#sql.findParked.get() ?? null;
  }
  postTerms(postId: number) {
    return this.#sql.postTerms.all(postId);
  }
  clearTerms(postId: number) {
    this.#sql.clearTerms.run(postId);
  }
  linkTerm(postId: number, termId: number) {
    this.#sql.linkTerm.run(postId, termId);
  }
  findTerm(kind: TermKind, slug: string) {
    return this.#sql.findTerm.get(kind, slug) ?? null;
  }
  insertTerm(kind: TermKind, name: string, slug: string) {
    return insertedId(this.#sql.insertTerm.get(kind, name, slug), "insertTerm");
  }
  termPublished(termId: number) {
    return this.#sql.termPublished.get(termId) === 1;
  }
  renameTerm(termId: number, name: string) {
    this.#sql.renameTerm.run(name, termId);
  }
  addWords(words: readonly string[]) {
    this.#index.addWords(words);
  }
  findPage(slug: string) {
    return this.#sql.findPage.get(slug) ?? null;
  }
  upsertPage(page: { slug: string; title: string; content: string }) {
    this.#sql.upsertPage.run(page);
  }
  indexPost(postId: number, doc: SearchDocument) {
    if (this.#inserted.delete(postId)) this.#index.indexNew(postId, doc);
    else this.#index.index(postId, doc);
  }
  unindexPost(postId: number) {
    this.#index.unindex(postId);
  }
  findTranslation(translationKey: string, language: Language) {
    return this.#sql.findTranslation.get(translationKey, language) ?? null;
  }
  clearTranslation(postId: number) {
    this.#sql.clearTranslation.run(postId);
  }
  findPersonBySlug(slug: string) {
    return storedPerson(this.#sql.findPersonBySlug.get(slug));
  }
  findPersonByKey(key: string) {
    return storedPerson(this.#sql.findPersonByKey.get(key));
  }
  insertPerson(slug: string, names: PersonNames) {
    return insertedId(
      this.#sql.insertPerson.get(slug, names.english, names.hindi, names.marathi),
      "insertPerson",
    );
  }
  updatePerson(id: number, slug: string, names: PersonNames) {
    this.#sql.updatePerson.run(slug, names.english, names.hindi, names.marathi, id);
  }
  setPersonAbout(id: number, about: PersonNames) {
    this.#sql.setPersonAbout.run(about.english, about.hindi, about.marathi, id);
  }
  addPersonKeys(personId: number, keys: readonly string[]) {
    this.#sql.addPersonKeys.run(personId, JSON.stringify(keys));
  }
  personPosts(personId: number) {
    return this.#sql.personPosts.all(personId);
  }
  setPostPerson(postId: number, personId: number) {
    this.#sql.setPostPerson.run(personId, postId);
  }
  personById(id: number) {
    return storedPerson(this.#sql.personById.get(id));
  }
  neighbours(language: Language, postTime: number, postId: number) {
    return this.#sql.neighbours.all({ language, t: postTime, id: postId });
  }
  recordChanges(changes: readonly ContentChange[]) {
    recordChanges(this.#db, changes);
  }
}

/** Records what a write changed (content_changes), in the caller's transaction, and prunes old rows. */
export function recordChanges(db: Db, changes: readonly ContentChange[]): void {
  if (changes.length === 0 || !hasContentEpoch(db)) return;
  const insert = db.prepare<[string, number]>("INSERT INTO content_changes (tags, removal) VALUES (?, ?)");
  for (const change of changes) insert.run(change.tags.join(" "), change.removal ? 1 : 0);
  db.prepare(
    `DELETE FROM content_changes WHERE seq <= (SELECT max(seq) FROM content_changes) - ${KEPT_CHANGES}`,
  ).run();
}

/**
 * Marks the connection's transaction as sukti's writer (content_epoch.writing),
 * so the triggers that count writes from elsewhere leave it alone; call right
 * after BEGIN, and with false before COMMIT. A database from before the
 * change log (no content_epoch) is left as it is.
 */
export function markWriter(db: Db, writing: boolean): void {
  if (!hasContentEpoch(db)) return;
  db.prepare("UPDATE content_epoch SET writing = ? WHERE id = 1").run(writing ? 1 : 0);
}

const epochKnown = new WeakSet<Db>();
function hasContentEpoch(db: Db): boolean {
  if (epochKnown.has(db)) return true;
  const found =
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'content_epoch'").get() !==
    undefined;
  if (found) epochKnown.add(db);
  return found;
}

const PERSON_COLUMNS =
  "people.id, people.slug, name_english, name_hindi, name_marathi, about_english, about_hindi, about_marathi";

interface PersonRow {
  id: number;
  slug: string;
  name_english: string;
  name_hindi: string;
  name_marathi: string;
  about_english: string;
  about_hindi: string;
  about_marathi: string;
}

function storedPerson(row: PersonRow | undefined): StoredPerson | null {
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    names: { english: row.name_english, hindi: row.name_hindi, marathi: row.name_marathi },
    about: { english: row.about_english, hindi: row.about_hindi, marathi: row.about_marathi },
  };
}

/** The id an INSERT … RETURNING id gave back. */
function insertedId(row: { id: number } | undefined, statement: string): number {
  if (row === undefined) throw new Error(`SQLite ${statement} returned no id`);
  return row.id;
}
