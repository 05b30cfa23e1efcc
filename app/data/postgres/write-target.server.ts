// WriteTarget over one PostgreSQL client inside the caller's transaction.
import type pg from "pg";
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
  type WriteTarget,
} from "#app/data/content-writer.ts";
import {
  buildDeferredIndexes,
  type DeferredIndexes,
  dropDeferredIndexes,
  othersConnected,
} from "#app/data/postgres/deferred-indexes.server.ts";
import { isDevanagariWord, type SearchDocument, wordSkeletons, wordTrigrams } from "#app/search/document.ts";

/** Longest lexeme PostgreSQL stores (bytes); a longer folded word stays out of the document. */
const MAX_LEXEME_BYTES = 2040;

/**
 * Lexeme prefixes of the words of one column. Folded words are letters,
 * marks and digits only, so "t:…" can never be a word of the text.
 */
export const COLUMN_MARKERS = { title: "t:", tags: "g:" } as const;

/**
 * The lexeme prefix of a document's language: each document holds its post's
 * language as "l:hindi" (indexPosts), so a search kept to one language is
 * one GIN query (decision 101), not its matches each looked up in posts.
 */
export const LANGUAGE_MARKER = "l:";

/**
 * A post's search document as a tsvector literal without positions: every
 * word of title, tags and body once, plus the title words again as "t:word"
 * and the tag words as "g:word". A query restricted to the title asks for
 * "t:word": no weights, so the GIN index answers without rechecking rows.
 * `words` holds the title's and body's words once each; a tag word may come
 * again (PostgreSQL's tsvector input keeps each lexeme once).
 */
export function documentVector(doc: Pick<SearchDocument, "title" | "tags" | "words">): string {
  let vector = "";
  const add = (word: string, marker: string) => {
    if (word === "" || !fitsLexeme(word)) return;
    // Folded words have no quote or backslash; the check keeps the literal right whatever comes.
    const lexeme = LITERAL_SPECIAL.test(word) ? word.replaceAll("\\", "\\\\").replaceAll("'", "''") : word;
    vector += vector === "" ? `'${marker}${lexeme}'` : ` '${marker}${lexeme}'`;
  };
  for (const word of doc.words) add(word, "");
  const tags = doc.tags === "" ? [] : doc.tags.split(" ");
  for (const word of tags) add(word, "");
  if (doc.title !== "") for (const word of new Set(doc.title.split(" "))) add(word, COLUMN_MARKERS.title);
  for (const word of new Set(tags)) add(word, COLUMN_MARKERS.tags);
  return vector;
}

const LITERAL_SPECIAL = /['\\]/;

/** A UTF-16 unit is at most 3 bytes of UTF-8: most words are measured without encoding them. */
function fitsLexeme(word: string): boolean {
  return word.length * 3 <= MAX_LEXEME_BYTES || Buffer.byteLength(word) <= MAX_LEXEME_BYTES;
}

/** content_changes keeps this many rows; a server further behind drops every page (decision 057). */
export const KEPT_CHANGES = 1000;

const PERSON_COLUMNS = `people.id, people.slug, name_english AS "english", name_hindi AS "hindi",
  name_marathi AS "marathi", about_english AS "aboutEnglish", about_hindi AS "aboutHindi",
  about_marathi AS "aboutMarathi"`;

/** A stored post as the writer's rules read it (StoredPost). */
const STORED_POST_COLUMNS = `id, id_num AS "idNum", status, post_time AS "postTime", title,
  feature_image_url AS "featureImageUrl", audio_url AS "audioUrl", content, excerpt,
  translation_key AS "translationKey", person_id AS "personId", work, reference`;

const SQL = {
  findPost: `SELECT ${STORED_POST_COLUMNS} FROM posts WHERE language = $1 AND slug = $2`,
  // findPost for many posts at once (expectPosts), each by the (language, slug) index.
  postsAhead: `SELECT language, slug, ${STORED_POST_COLUMNS}
    FROM posts WHERE (language, slug) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
  termsAhead: `SELECT pt.post_id AS "postId", t.kind, t.name, t.slug FROM post_terms pt
    JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = ANY($1::bigint[])`,
  findByIdNum: "SELECT id, slug FROM posts WHERE language = $1 AND id_num = $2",
  insertPost: `INSERT INTO posts (language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt,
      translation_key, person_id, work, reference, audio_url)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
  updatePost: `UPDATE posts SET language = $2, id_num = $3, status = $4, post_time = $5, title = $6, slug = $7,
      feature_image_url = $8, content = $9, excerpt = $10, translation_key = $11, person_id = $12, work = $13,
      reference = $14, audio_url = $15, updated_at = extract(epoch FROM clock_timestamp())::bigint
    WHERE id = $1`,
  findTranslation: "SELECT id, slug FROM posts WHERE translation_key = $1 AND language = $2",
  clearTranslation: "UPDATE posts SET translation_key = NULL WHERE id = $1",
  findPersonBySlug: `SELECT ${PERSON_COLUMNS} FROM people WHERE slug = $1`,
  findPersonByKey: `SELECT ${PERSON_COLUMNS} FROM person_keys k JOIN people ON people.id = k.person_id WHERE k.key = $1`,
  insertPerson:
    "INSERT INTO people (slug, name_english, name_hindi, name_marathi) VALUES ($1, $2, $3, $4) RETURNING id",
  updatePerson:
    "UPDATE people SET slug = $2, name_english = $3, name_hindi = $4, name_marathi = $5 WHERE id = $1",
  setPersonAbout: "UPDATE people SET about_english = $2, about_hindi = $3, about_marathi = $4 WHERE id = $1",
  addPersonKeys: `INSERT INTO person_keys (key, person_id) SELECT unnest($2::text[]), $1 ON CONFLICT DO NOTHING`,
  personPosts: `SELECT id, title, content, excerpt, work, reference FROM posts
    WHERE person_id = $1 AND status = 'publish' ORDER BY id`,
  setStatus: "UPDATE posts SET status = $2 WHERE id = $1",
  termPublished: `SELECT EXISTS (SELECT 1 FROM post_terms pt JOIN posts p ON p.id = pt.post_id
      WHERE pt.term_id = $1 AND p.status = 'publish') AS "published"`,
  renameTerm: "UPDATE terms SET name = $2 WHERE id = $1",
  setPostPerson: "UPDATE posts SET person_id = $2 WHERE id = $1",
  park: `UPDATE posts SET id_num = ${PARKED_ID_NUM_BASE} + id WHERE id = $1`,
  findParked: `SELECT language, slug FROM posts
    WHERE language IN ('english', 'hindi', 'marathi') AND id_num >= ${PARKED_ID_NUM_BASE} LIMIT 1`,
  postTerms: `SELECT t.kind, t.name, t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id WHERE pt.post_id = $1`,
  clearTerms: "DELETE FROM post_terms WHERE post_id = $1",
  linkTerm: "INSERT INTO post_terms (post_id, term_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
  findTerm: "SELECT id, name FROM terms WHERE kind = $1 AND slug = $2",
  insertTerm: "INSERT INTO terms (kind, name, slug) VALUES ($1, $2, $3) RETURNING id",
  // New words only, in the given order: ids grow in order of first use, as SQLite's do.
  addWords: `INSERT INTO search_words (word)
    SELECT u.word FROM unnest($1::text[]) WITH ORDINALITY AS u (word, n)
    WHERE NOT EXISTS (SELECT 1 FROM search_words s WHERE s.word = u.word)
    ORDER BY u.n
    ON CONFLICT (word) DO NOTHING
    RETURNING id, word`,
  addTrigrams: `INSERT INTO search_word_trigrams (trigram, word_id)
    SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING`,
  addSkeletons: `INSERT INTO search_skeletons (skeleton, word_id)
    SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING`,
  unindexPost: "DELETE FROM search_documents WHERE post_id = $1",
  findPage: "SELECT title, content FROM pages WHERE slug = $1",
  personById: `SELECT ${PERSON_COLUMNS} FROM people WHERE id = $1`,
  neighbours: `(SELECT slug FROM posts WHERE language = $1 AND status = 'publish'
      AND (post_time < $2 OR (post_time = $2 AND id < $3)) ORDER BY post_time DESC, id DESC LIMIT 1)
    UNION ALL
    (SELECT slug FROM posts WHERE language = $1 AND status = 'publish'
      AND (post_time > $2 OR (post_time = $2 AND id > $3)) ORDER BY post_time ASC, id ASC LIMIT 1)`,
  recordChanges:
    "INSERT INTO content_changes (tags, removal) SELECT * FROM unnest($1::text[], $2::boolean[])",
  pruneChanges: `DELETE FROM content_changes
    WHERE seq <= (SELECT max(seq) FROM content_changes) - ${KEPT_CHANGES}`,
  // Batched writes (see PostgresWriteTarget): one statement per table per batch.
  reserveIds: `SELECT nextval(pg_get_serial_sequence('posts', 'id')) AS id FROM generate_series(1, $1)`,
  insertPosts: `INSERT INTO posts (id, language, id_num, status, post_time, title, slug, feature_image_url, content,
      excerpt, translation_key, person_id, work, reference, audio_url)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[],
      $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::text[])`,
  linkTerms: `INSERT INTO post_terms (post_id, term_id)
    SELECT * FROM unnest($1::bigint[], $2::bigint[]) ON CONFLICT DO NOTHING`,
  // With its post's language (LANGUAGE_MARKER), looked up by its key (a subquery for each row, whatever
  // the statistics of an import's one transaction say).
  indexPosts: `INSERT INTO search_documents (post_id, document)
    SELECT d.id, d.document || array_to_tsvector(ARRAY['${LANGUAGE_MARKER}' || (SELECT language FROM posts WHERE id = d.id)])
    FROM unnest($1::bigint[], $2::tsvector[]) AS d(id, document)
    ON CONFLICT (post_id) DO UPDATE SET document = excluded.document`,
  postKeys: `SELECT language, slug, id_num AS "idNum", translation_key AS "translationKey" FROM posts`,
  termKeys: "SELECT kind, slug FROM terms",
  upsertPage: `INSERT INTO pages (slug, title, content) VALUES ($1, $2, $3)
    ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
} as const;

type Name = keyof typeof SQL;

/** Posts held back and written in one batch; also flushed past BATCH_CHARS characters of content. */
const BATCH_POSTS = 1000;
const BATCH_CHARS = 8_000_000;
/**
 * Posts looked up one at a time before the target reads the database's keys
 * and batches: a small write (a sync of a few posts) never reads them all.
 */
const BULK_AFTER = 200;

/** Keys that may be in the database (loaded once, then grown by every write; never shrunk). */
interface KnownKeys {
  slugs: Set<string>;
  idNums: Set<string>;
  groups: Set<string>;
  terms: Set<string>;
}

interface Batch {
  /** One array per column of insertPosts. */
  posts: unknown[][];
  count: number;
  chars: number;
  links: [number[], number[]];
  /** New words, in order of first use (their ids grow in that order, as SQLite's do). */
  words: string[];
  /** The last document given for each post. */
  docs: Map<number, string>;
}

const emptyBatch = (): Batch => ({
  posts: Array.from({ length: 15 }, () => []),
  count: 0,
  chars: 0,
  links: [[], []],
  words: [],
  docs: new Map(),
});

/**
 * The write target of PostgreSQL. A large import would spend its time on
 * round trips (about eight statements per post, ~600 posts/s), so after its
 * first BULK_AFTER posts the target reads the database's keys (language and
 * slug, language and idNum, translation group, term) and then answers "no
 * such post / term" from them without asking; new posts take ids reserved
 * from the sequence (in order: newest = highest id), and their rows, term
 * links, words and search documents wait in a batch written with one
 * statement per table (unnest of arrays) every BATCH_POSTS posts. Every other
 * read, and every other write, first writes the batch: whatever the rules
 * read is what a statement-at-a-time target would read. A full batch is sent
 * and the next one built while the database writes it (two at most in
 * memory). The batch is written at the latest by the rules' finish() (it
 * reads findParked), inside the caller's transaction, so a failure anywhere
 * still rolls everything back.
 * A statement added here that reads or writes posts must go through #now();
 * one that changes a post, its links or a term's name must also forget what
 * expectPosts read of it (#forget).
 */
export class PostgresWriteTarget implements WriteTarget {
  readonly #client: pg.PoolClient | pg.Client;
  /** Words known to be in search_words or the batch (words are never removed in a write). */
  readonly #knownWords = new Set<string>();
  #batch = emptyBatch();
  #keys: KnownKeys | null = null;
  #lookups = 0;
  /** Ids reserved for new posts, the lowest last. */
  #reserved: number[] = [];
  /** The next ids, asked for before these run out. */
  #reserving: Promise<{ ids: number[] } | { error: unknown }> | null = null;
  /** Posts read by expectPosts, by key (null: none stored); each answers findPost once, until a write touches it. */
  readonly #ahead = new Map<string, StoredPost | null>();
  /** Their terms, by post id: postTerms' answer until a write touches the post's links or a term's name. */
  readonly #aheadTerms = new Map<number, { kind: TermKind; name: string; slug: string }[]>();
  /** The key of each post in #ahead, by id. */
  readonly #aheadKeys = new Map<number, string>();
  #writing: Promise<void> = Promise.resolve();
  #failed: { error: unknown } | null = null;
  /** Posts this target inserted. */
  #inserted = 0;
  readonly #mayDeferIndexes: boolean;
  /** The indexes and foreign keys a first load dropped, until finishLoad() builds them. */
  #deferred: DeferredIndexes | null = null;

  /**
   * `deferIndexes`: a large write into a database holding no other post
   * (a first import), with no other client connected to it, drops the
   * indexes only the site reads and the foreign keys of the loaded tables,
   * and finishLoad() builds them again before the commit (decision 092).
   */
  constructor(client: pg.PoolClient | pg.Client, options: { deferIndexes?: boolean } = {}) {
    this.#client = client;
    this.#mayDeferIndexes = options.deferIndexes === true;
  }

  /** Writes the held rows and builds what a first load deferred: called once the rules are finished, before the commit. */
  async finishLoad(): Promise<void> {
    await this.flush();
    const deferred = this.#deferred;
    if (deferred === null) return;
    this.#deferred = null;
    await buildDeferredIndexes(this.#client, deferred);
  }

  async #run<R extends pg.QueryResultRow>(name: Name, values: unknown[]): Promise<R[]> {
    const result = await this.#client.query<R>({ name: `sukti_w_${name}`, text: SQL[name], values });
    return result.rows;
  }

  /** A statement run after the batch is written. */
  async #now<R extends pg.QueryResultRow>(name: Name, values: unknown[]): Promise<R[]> {
    await this.flush();
    return this.#run<R>(name, values);
  }

  /** Posts were changed beside this target (sync's rename): the keys read once are read again when needed. */
  postsChangedOutside(): void {
    this.#keys = null;
    this.#lookups = 0;
    this.#forgetAll();
  }

  #forgetAll(): void {
    this.#ahead.clear();
    this.#aheadTerms.clear();
    this.#aheadKeys.clear();
  }

  /** A write touched the post: what expectPosts read of it is no longer its state. */
  #forget(id: number): void {
    const key = this.#aheadKeys.get(id);
    if (key !== undefined) this.#ahead.delete(key);
    this.#aheadKeys.delete(id);
    this.#aheadTerms.delete(id);
  }

  /**
   * Reads the posts the rules will write next (WriteTarget.expectPosts) and
   * their terms, two statements for them all. Only keys that may be stored
   * are read: once the target holds the database's keys (a large write), a
   * new post costs nothing here, and nothing is read (nor the batch written)
   * for a chunk of new posts.
   */
  async expectPosts(posts: readonly { language: Language; slug: string }[]): Promise<void> {
    // The last run's posts are written: what was read of them is let go (a run's worth is held).
    this.#forgetAll();
    const keys = await this.#known(posts.length);
    const wanted = posts.filter((post) => keys === null || keys.slugs.has(`${post.language}\n${post.slug}`));
    if (wanted.length === 0) return;
    await this.flush();
    const rows = await this.#run<StoredPost & { language: string; slug: string }>("postsAhead", [
      wanted.map((post) => post.language),
      wanted.map((post) => post.slug),
    ]);
    for (const post of wanted) this.#ahead.set(`${post.language}\n${post.slug}`, null);
    for (const { language, slug, ...stored } of rows) {
      const key = `${language}\n${slug}`;
      this.#ahead.set(key, stored);
      this.#aheadKeys.set(stored.id, key);
      this.#aheadTerms.set(stored.id, []);
    }
    if (rows.length === 0) return;
    const links = await this.#run<{ postId: number; kind: TermKind; name: string; slug: string }>(
      "termsAhead",
      [rows.map((row) => row.id)],
    );
    for (const { postId, ...term } of links) this.#aheadTerms.get(postId)?.push(term);
  }

  /** Writes the held rows: posts, their term links, new words (then their trigrams and skeletons), documents. */
  async flush(): Promise<void> {
    await this.#startWriting();
    await this.#written();
  }

  /**
   * Sends the batch and returns at once (the next batch is built while the
   * database writes this one), after the previous batch is written: at most
   * two batches are held. Statements on one client run in the order sent.
   */
  async #startWriting(): Promise<void> {
    const batch = this.#batch;
    if (batch.count === 0 && batch.links[0].length === 0 && batch.words.length === 0 && batch.docs.size === 0)
      return;
    this.#batch = emptyBatch();
    await this.#written();
    this.#writing = this.#write(batch).catch((error: unknown) => {
      this.#failed ??= { error };
    });
  }

  /** Waits for the batch being written; its failure is thrown here (the transaction is then aborted). */
  async #written(): Promise<void> {
    await this.#writing;
    if (this.#failed) throw this.#failed.error;
  }

  async #write(batch: Batch): Promise<void> {
    if (batch.count > 0) await this.#run("insertPosts", batch.posts);
    if (batch.links[0].length > 0) await this.#run("linkTerms", batch.links);
    if (batch.words.length > 0) await this.#writeWords(batch.words);
    if (batch.docs.size > 0)
      await this.#run("indexPosts", [[...batch.docs.keys()], [...batch.docs.values()]]);
  }

  /** After BULK_AFTER post lookups (`count` more now): the database's keys, read once (after the batch is written). */
  async #known(count = 1): Promise<KnownKeys | null> {
    if (this.#keys !== null) return this.#keys;
    this.#lookups += count;
    if (this.#lookups <= BULK_AFTER) return null;
    await this.flush();
    const keys: KnownKeys = { slugs: new Set(), idNums: new Set(), groups: new Set(), terms: new Set() };
    const posts = await this.#run<{
      language: string;
      slug: string;
      idNum: number;
      translationKey: string | null;
    }>("postKeys", []);
    for (const post of posts) this.#addKeys(keys, post);
    // Every post stored is one this write inserted: a first load, whose rows are most of what the indexes will hold.
    if (
      this.#mayDeferIndexes &&
      this.#deferred === null &&
      posts.length === this.#inserted &&
      !(await othersConnected(this.#client))
    )
      this.#deferred = await dropDeferredIndexes(this.#client);
    for (const term of await this.#run<{ kind: string; slug: string }>("termKeys", []))
      keys.terms.add(`${term.kind}\n${term.slug}`);
    this.#keys = keys;
    return keys;
  }

  #addKeys(
    keys: KnownKeys | null,
    post: { language: string; slug: string; idNum: number; translationKey: string | null },
  ): void {
    if (keys === null) return;
    keys.slugs.add(`${post.language}\n${post.slug}`);
    keys.idNums.add(`${post.language}\n${post.idNum}`);
    if (post.translationKey !== null) keys.groups.add(`${post.translationKey}\n${post.language}`);
  }

  /**
   * The next id reserved for a new post. The next ids are asked for while
   * half of these are left: asked for only once they are all taken, the
   * question would wait behind the batch being written, and the writer
   * with it.
   */
  async #reservedId(): Promise<number> {
    if (this.#reserved.length < BATCH_POSTS / 2 && this.#reserving === null) {
      this.#reserving = this.#run<{ id: number }>("reserveIds", [BATCH_POSTS]).then(
        (rows) => ({ ids: rows.map((row) => Number(row.id)) }),
        (error: unknown) => ({ error }),
      );
    }
    if (this.#reserved.length === 0 && this.#reserving !== null) {
      const reserved = await this.#reserving;
      this.#reserving = null;
      if ("error" in reserved) throw reserved.error;
      // Popped from the end: the lowest first, so newer posts get higher ids.
      this.#reserved = reserved.ids.reverse();
    }
    const id = this.#reserved.pop();
    if (id === undefined) throw new Error("PostgreSQL reserveIds returned no id");
    return id;
  }

  /** The id an INSERT … RETURNING id gave back. */
  async #insertedId(name: Name, values: unknown[]): Promise<number> {
    const [inserted] = await this.#now<{ id: number }>(name, values);
    if (inserted === undefined) throw new Error(`PostgreSQL ${name} returned no id`);
    return inserted.id;
  }

  async findPost(language: Language, slug: string): Promise<StoredPost | null> {
    const key = `${language}\n${slug}`;
    const ahead = this.#ahead.get(key);
    if (ahead !== undefined) {
      this.#ahead.delete(key);
      return ahead;
    }
    const keys = await this.#known();
    if (keys !== null && !keys.slugs.has(`${language}\n${slug}`)) return null;
    return (await this.#now<StoredPost>("findPost", [language, slug]))[0] ?? null;
  }

  async findByIdNum(language: Language, idNum: number) {
    if (this.#keys !== null && !this.#keys.idNums.has(`${language}\n${idNum}`)) return null;
    return (await this.#now<{ id: number; slug: string }>("findByIdNum", [language, idNum]))[0] ?? null;
  }

  async insertPost(row: PostWriteRow): Promise<number> {
    this.#ahead.delete(`${row.language}\n${row.slug}`);
    const values = [
      row.language,
      row.idNum,
      row.status,
      row.postTime,
      row.title,
      row.slug,
      row.featureImageUrl,
      row.content,
      row.excerpt,
      row.translationKey,
      row.personId,
      row.work,
      row.reference,
      row.audioUrl,
    ];
    if (this.#keys === null) {
      const inserted = await this.#insertedId("insertPost", values);
      this.#inserted++;
      return inserted;
    }
    const id = await this.#reservedId();
    this.#inserted++;
    this.#addKeys(this.#keys, row);
    const batch = this.#batch;
    for (const [i, value] of [id, ...values].entries()) batch.posts[i]?.push(value);
    batch.count++;
    batch.chars += row.content.length;
    if (batch.count >= BATCH_POSTS || batch.chars >= BATCH_CHARS) await this.#startWriting();
    return id;
  }

  async updatePost(id: number, row: PostWriteRow): Promise<void> {
    this.#forget(id);
    this.#addKeys(this.#keys, row);
    await this.#now("updatePost", [
      id,
      row.language,
      row.idNum,
      row.status,
      row.postTime,
      row.title,
      row.slug,
      row.featureImageUrl,
      row.content,
      row.excerpt,
      row.translationKey,
      row.personId,
      row.work,
      row.reference,
      row.audioUrl,
    ]);
  }

  async setStatus(id: number, status: PostStatus): Promise<void> {
    this.#forget(id);
    await this.#now("setStatus", [id, status]);
  }

  async park(id: number): Promise<void> {
    this.#forget(id);
    await this.#now("park", [id]);
  }

  async findParked() {
    return (await this.#now<{ language: string; slug: string }>("findParked", []))[0] ?? null;
  }

  async postTerms(postId: number) {
    const ahead = this.#aheadTerms.get(postId);
    if (ahead !== undefined) return ahead;
    return this.#now<{ kind: TermKind; name: string; slug: string }>("postTerms", [postId]);
  }

  async clearTerms(postId: number): Promise<void> {
    this.#forget(postId);
    await this.#now("clearTerms", [postId]);
  }

  async linkTerm(postId: number, termId: number): Promise<void> {
    this.#forget(postId);
    this.#batch.links[0].push(postId);
    this.#batch.links[1].push(termId);
  }

  async findTerm(kind: TermKind, slug: string) {
    if (this.#keys !== null && !this.#keys.terms.has(`${kind}\n${slug}`)) return null;
    return (await this.#now<{ id: number; name: string }>("findTerm", [kind, slug]))[0] ?? null;
  }

  /** Terms refer to nothing held in the batch: inserted at once, without writing it. */
  async insertTerm(kind: TermKind, name: string, slug: string): Promise<number> {
    this.#keys?.terms.add(`${kind}\n${slug}`);
    const [inserted] = await this.#run<{ id: number }>("insertTerm", [kind, name, slug]);
    if (inserted === undefined) throw new Error("PostgreSQL insertTerm returned no id");
    return inserted.id;
  }

  async termPublished(termId: number): Promise<boolean> {
    return (await this.#now<{ published: boolean }>("termPublished", [termId]))[0]?.published === true;
  }

  async renameTerm(termId: number, name: string): Promise<void> {
    // Every post's terms read ahead may name it: read them again.
    this.#aheadTerms.clear();
    await this.#now("renameTerm", [termId, name]);
  }

  async addWords(words: readonly string[]): Promise<void> {
    for (const word of words) {
      if (this.#knownWords.has(word)) continue;
      this.#knownWords.add(word);
      this.#batch.words.push(word);
    }
  }

  async #writeWords(words: readonly string[]): Promise<void> {
    const added = await this.#run<{ id: number; word: string }>("addWords", [words]);
    const trigrams: [string[], number[]] = [[], []];
    const skeletons: [string[], number[]] = [[], []];
    for (const { id, word } of added) {
      if (!isDevanagariWord(word)) continue;
      for (const trigram of wordTrigrams(word)) {
        trigrams[0].push(trigram);
        trigrams[1].push(id);
      }
      for (const skeleton of wordSkeletons(word)) {
        skeletons[0].push(skeleton);
        skeletons[1].push(id);
      }
    }
    if (trigrams[0].length > 0) await this.#run("addTrigrams", trigrams);
    if (skeletons[0].length > 0) await this.#run("addSkeletons", skeletons);
  }

  async findPage(slug: string) {
    return (await this.#now<{ title: string; content: string }>("findPage", [slug]))[0] ?? null;
  }

  async upsertPage(page: { slug: string; title: string; content: string }): Promise<void> {
    await this.#now("upsertPage", [page.slug, page.title, page.content]);
  }

  async indexPost(postId: number, doc: SearchDocument): Promise<void> {
    // Words first, as indexPost always did: ids in order of first use.
    await this.addWords(doc.words);
    this.#batch.docs.set(postId, documentVector(doc));
  }

  async unindexPost(postId: number): Promise<void> {
    await this.#now("unindexPost", [postId]);
  }

  async findTranslation(translationKey: string, language: Language) {
    if (this.#keys !== null && !this.#keys.groups.has(`${translationKey}\n${language}`)) return null;
    return (
      (await this.#now<{ id: number; slug: string }>("findTranslation", [translationKey, language]))[0] ??
      null
    );
  }

  async clearTranslation(postId: number): Promise<void> {
    this.#forget(postId);
    await this.#now("clearTranslation", [postId]);
  }

  async findPersonBySlug(slug: string) {
    return storedPerson((await this.#now<PersonRow>("findPersonBySlug", [slug]))[0]);
  }

  async findPersonByKey(key: string) {
    return storedPerson((await this.#now<PersonRow>("findPersonByKey", [key]))[0]);
  }

  async insertPerson(slug: string, names: PersonNames): Promise<number> {
    return this.#insertedId("insertPerson", [slug, names.english, names.hindi, names.marathi]);
  }

  async updatePerson(id: number, slug: string, names: PersonNames): Promise<void> {
    await this.#now("updatePerson", [id, slug, names.english, names.hindi, names.marathi]);
  }

  async setPersonAbout(id: number, about: PersonNames): Promise<void> {
    await this.#now("setPersonAbout", [id, about.english, about.hindi, about.marathi]);
  }

  async addPersonKeys(personId: number, keys: readonly string[]): Promise<void> {
    await this.#now("addPersonKeys", [personId, keys]);
  }

  async personPosts(personId: number): Promise<PersonPost[]> {
    return this.#now<PersonPost>("personPosts", [personId]);
  }

  async setPostPerson(postId: number, personId: number): Promise<void> {
    this.#forget(postId);
    await this.#now("setPostPerson", [postId, personId]);
  }

  async personById(id: number) {
    return storedPerson((await this.#run<PersonRow>("personById", [id]))[0]);
  }

  async neighbours(language: Language, postTime: number, postId: number): Promise<string[]> {
    // Without writing the batch first: a held post between them is new and named anyway, so the
    // written posts found past it are at worst one page too many refreshed, never one too few.
    return (await this.#run<{ slug: string }>("neighbours", [language, postTime, postId])).map(
      (row) => row.slug,
    );
  }

  async recordChanges(changes: readonly ContentChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#now("recordChanges", [changes.map((c) => c.tags.join(" ")), changes.map((c) => c.removal)]);
    await this.#run("pruneChanges", []);
  }
}

type PersonRow = {
  id: number;
  slug: string;
  aboutEnglish: string;
  aboutHindi: string;
  aboutMarathi: string;
} & PersonNames;

function storedPerson(row: PersonRow | undefined): StoredPerson | null {
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    names: { english: row.english, hindi: row.hindi, marathi: row.marathi },
    about: { english: row.aboutEnglish, hindi: row.aboutHindi, marathi: row.aboutMarathi },
  };
}
