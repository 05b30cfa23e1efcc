// WriteTarget over one PostgreSQL client inside the caller's transaction.
import type pg from "pg";
import type { Language } from "#app/content/languages.ts";
import type { PostStatus, TermKind } from "#app/content/model.ts";
import type { PersonNames } from "#app/content/people.ts";
import type { ContentChange } from "#app/data/cache-tags.ts";
import {
  PARKED_ID_NUM_BASE,
  type PersonPost,
  type PostRow,
  type StoredPerson,
  type StoredPost,
  type WriteTarget,
} from "#app/data/content-writer.ts";
import {
  isDevanagariWord,
  type SearchDocument,
  wordSkeletons,
  wordTrigrams,
} from "#app/data/search-document.ts";

/** Longest lexeme PostgreSQL stores (bytes); a longer folded word stays out of the document. */
const MAX_LEXEME_BYTES = 2040;

/**
 * Lexeme prefixes of the words of one column. Folded words are letters,
 * marks and digits only, so "t:…" can never be a word of the text.
 */
export const COLUMN_MARKERS = { title: "t:", tags: "g:" } as const;

/**
 * A post's search document as a tsvector literal without positions: every
 * word of title, tags and body once, plus the title words again as "t:word"
 * and the tag words as "g:word". A query restricted to the title asks for
 * "t:word": no weights, so the GIN index answers without rechecking rows.
 */
export function documentVector(doc: Pick<SearchDocument, "title" | "tags" | "body">): string {
  const lexemes = new Set<string>();
  const add = (text: string, marker: string) => {
    if (text === "") return;
    for (const word of text.split(" ")) {
      if (word !== "" && Buffer.byteLength(word) <= MAX_LEXEME_BYTES) lexemes.add(marker + word);
    }
  };
  add(doc.title, "");
  add(doc.tags, "");
  add(doc.body, "");
  add(doc.title, COLUMN_MARKERS.title);
  add(doc.tags, COLUMN_MARKERS.tags);
  return [...lexemes].map((word) => `'${word.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`).join(" ");
}

/** content_changes keeps this many rows; a server further behind drops every page (decision 057). */
export const KEPT_CHANGES = 1000;

const PERSON_COLUMNS = `people.id, people.slug, name_english AS "english", name_hindi AS "hindi",
  name_marathi AS "marathi"`;

const SQL = {
  findPost: `SELECT id, id_num AS "idNum", status, post_time AS "postTime", title,
      feature_image_url AS "featureImageUrl", audio_url AS "audioUrl", content, excerpt,
      translation_key AS "translationKey",
      person_id AS "personId", work, reference
    FROM posts WHERE language = $1 AND slug = $2`,
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
  indexPost: `INSERT INTO search_documents (post_id, document) VALUES ($1, $2::tsvector)
    ON CONFLICT (post_id) DO UPDATE SET document = excluded.document`,
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
  upsertPage: `INSERT INTO pages (slug, title, content) VALUES ($1, $2, $3)
    ON CONFLICT (slug) DO UPDATE SET title = excluded.title, content = excluded.content`,
} as const;

type Name = keyof typeof SQL;

export class PostgresWriteTarget implements WriteTarget {
  readonly #client: pg.PoolClient | pg.Client;
  /** Words known to be in search_words (words are never removed in a write). */
  readonly #knownWords = new Set<string>();

  constructor(client: pg.PoolClient | pg.Client) {
    this.#client = client;
  }

  async #run<R extends pg.QueryResultRow>(name: Name, values: unknown[]): Promise<R[]> {
    const result = await this.#client.query<R>({ name: `sukti_w_${name}`, text: SQL[name], values });
    return result.rows;
  }

  /** The id an INSERT … RETURNING id gave back. */
  async #insertedId(name: Name, values: unknown[]): Promise<number> {
    const [inserted] = await this.#run<{ id: number }>(name, values);
    if (inserted === undefined) throw new Error(`PostgreSQL ${name} returned no id`);
    return inserted.id;
  }

  async findPost(language: Language, slug: string): Promise<StoredPost | null> {
    return (await this.#run<StoredPost>("findPost", [language, slug]))[0] ?? null;
  }

  async findByIdNum(language: Language, idNum: number) {
    return (await this.#run<{ id: number; slug: string }>("findByIdNum", [language, idNum]))[0] ?? null;
  }

  async insertPost(row: PostRow): Promise<number> {
    return this.#insertedId("insertPost", [
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

  async updatePost(id: number, row: PostRow): Promise<void> {
    await this.#run("updatePost", [
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
    await this.#run("setStatus", [id, status]);
  }

  async park(id: number): Promise<void> {
    await this.#run("park", [id]);
  }

  async findParked() {
    return (await this.#run<{ language: string; slug: string }>("findParked", []))[0] ?? null;
  }

  async postTerms(postId: number) {
    return this.#run<{ kind: TermKind; name: string; slug: string }>("postTerms", [postId]);
  }

  async clearTerms(postId: number): Promise<void> {
    await this.#run("clearTerms", [postId]);
  }

  async linkTerm(postId: number, termId: number): Promise<void> {
    await this.#run("linkTerm", [postId, termId]);
  }

  async findTerm(kind: TermKind, slug: string) {
    return (await this.#run<{ id: number; name: string }>("findTerm", [kind, slug]))[0] ?? null;
  }

  async insertTerm(kind: TermKind, name: string, slug: string): Promise<number> {
    return this.#insertedId("insertTerm", [kind, name, slug]);
  }

  async termPublished(termId: number): Promise<boolean> {
    return (await this.#run<{ published: boolean }>("termPublished", [termId]))[0]?.published === true;
  }

  async renameTerm(termId: number, name: string): Promise<void> {
    await this.#run("renameTerm", [termId, name]);
  }

  async addWords(words: readonly string[]): Promise<void> {
    const unknown = words.filter((word) => !this.#knownWords.has(word));
    if (unknown.length === 0) return;
    const added = await this.#run<{ id: number; word: string }>("addWords", [unknown]);
    for (const word of unknown) this.#knownWords.add(word);
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
    return (await this.#run<{ title: string; content: string }>("findPage", [slug]))[0] ?? null;
  }

  async upsertPage(page: { slug: string; title: string; content: string }): Promise<void> {
    await this.#run("upsertPage", [page.slug, page.title, page.content]);
  }

  async indexPost(postId: number, doc: SearchDocument): Promise<void> {
    await this.#run("indexPost", [postId, documentVector(doc)]);
    await this.addWords(doc.words);
  }

  async unindexPost(postId: number): Promise<void> {
    await this.#run("unindexPost", [postId]);
  }

  async findTranslation(translationKey: string, language: Language) {
    return (
      (await this.#run<{ id: number; slug: string }>("findTranslation", [translationKey, language]))[0] ??
      null
    );
  }

  async clearTranslation(postId: number): Promise<void> {
    await this.#run("clearTranslation", [postId]);
  }

  async findPersonBySlug(slug: string) {
    return storedPerson((await this.#run<PersonRow>("findPersonBySlug", [slug]))[0]);
  }

  async findPersonByKey(key: string) {
    return storedPerson((await this.#run<PersonRow>("findPersonByKey", [key]))[0]);
  }

  async insertPerson(slug: string, names: PersonNames): Promise<number> {
    return this.#insertedId("insertPerson", [slug, names.english, names.hindi, names.marathi]);
  }

  async updatePerson(id: number, slug: string, names: PersonNames): Promise<void> {
    await this.#run("updatePerson", [id, slug, names.english, names.hindi, names.marathi]);
  }

  async addPersonKeys(personId: number, keys: readonly string[]): Promise<void> {
    await this.#run("addPersonKeys", [personId, keys]);
  }

  async personPosts(personId: number): Promise<PersonPost[]> {
    return this.#run<PersonPost>("personPosts", [personId]);
  }

  async setPostPerson(postId: number, personId: number): Promise<void> {
    await this.#run("setPostPerson", [postId, personId]);
  }

  async personById(id: number) {
    return storedPerson((await this.#run<PersonRow>("personById", [id]))[0]);
  }

  async neighbours(language: Language, postTime: number, postId: number): Promise<string[]> {
    return (await this.#run<{ slug: string }>("neighbours", [language, postTime, postId])).map(
      (row) => row.slug,
    );
  }

  async recordChanges(changes: readonly ContentChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.#run("recordChanges", [changes.map((c) => c.tags.join(" ")), changes.map((c) => c.removal)]);
    await this.#run("pruneChanges", []);
  }
}

type PersonRow = { id: number; slug: string } & PersonNames;

function storedPerson(row: PersonRow | undefined): StoredPerson | null {
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    names: { english: row.english, hindi: row.hindi, marathi: row.marathi },
  };
}
