// Bulk loading of generated content into PostgreSQL, for tests and benchmarks.
import type pg from "pg";
import { slugify } from "#app/content/slugs.ts";
import { documentVector } from "#app/data/postgres/write-target.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import {
  isDevanagariWord,
  searchDocument,
  termWords,
  wordSkeletons,
  wordTrigrams,
} from "#app/data/search-document.ts";
import { generatePosts } from "#cli/generate.ts";

const BATCH = 2000;

/** One array per column of posts, in the INSERT's order (id first). */
type PostColumns = [
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
  unknown[],
];

/**
 * Writes cli/generate.ts's corpus into an EMPTY, migrated database with a few
 * statements per 2,000 posts: the rows the writer would write (search
 * documents, vocabulary, trigrams, skeletons), without its per-post checks. For query plan tests and
 * benchmarks at 100,000 posts; `sukti import` goes through the content writer
 * (content-writes.server.ts) instead.
 * `vocabulary` adds that many made-up words to the word table: the corpus has
 * a few hundred distinct words where a real site of this size has tens of
 * thousands, and the lookups should be planned as on a real site.
 */
export async function loadGeneratedCorpus(
  pool: pg.Pool,
  options: { count: number; seed?: number; vocabulary?: number },
): Promise<void> {
  const terms = new Map<string, { id: number; kind: string; name: string; slug: string }>();
  // Every word to write, with its id, in the order they came (the database starts empty).
  const words = new Map<string, number>();
  const addWords = (list: readonly string[]) => {
    for (const word of list) if (!words.has(word)) words.set(word, words.size + 1);
  };
  const emptyBatch = () => ({
    posts: [[], [], [], [], [], [], [], [], [], []] as PostColumns,
    links: [[], []] as [number[], number[]],
    docs: [[], []] as [number[], string[]],
  });
  const flush = async (b: ReturnType<typeof emptyBatch>) => {
    if (b.posts[0].length === 0) return;
    await pool.query(
      `INSERT INTO posts (id, language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::text[], $7::text[],
         $8::text[], $9::text[], $10::text[])`,
      b.posts,
    );
    const termRows = [...terms.values()];
    await pool.query(
      `INSERT INTO terms (id, kind, name, slug) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT DO NOTHING`,
      [
        termRows.map((t) => t.id),
        termRows.map((t) => t.kind),
        termRows.map((t) => t.name),
        termRows.map((t) => t.slug),
      ],
    );
    await pool.query(
      "INSERT INTO post_terms (post_id, term_id) SELECT * FROM unnest($1::bigint[], $2::bigint[]) ON CONFLICT DO NOTHING",
      b.links,
    );
    await pool.query(
      "INSERT INTO search_documents (post_id, document) SELECT * FROM unnest($1::bigint[], $2::tsvector[])",
      b.docs,
    );
  };

  // Rows go in without secondary indexes and foreign keys, which are made
  // again once at the end (one sort, one check each: far cheaper than row by row).
  const deferred = await dropDeferrable(pool, LOADED_TABLES);
  let batch = emptyBatch();
  let id = 0;
  for (const post of generatePosts({ count: options.count, seed: options.seed ?? 1 })) {
    id++;
    const content = sanitizePostHtml(post.content);
    const row = [
      id,
      post.language,
      post.idNum,
      post.status,
      post.postTime,
      post.title,
      post.slug,
      post.featureImageUrl,
      content,
      post.excerpt,
    ];
    for (const [i, column] of batch.posts.entries()) column.push(row[i]);
    const names: string[] = [];
    const linked = new Set<number>();
    for (const [kind, list] of [
      ["tag", post.tags],
      ["category", post.categories],
    ] as const) {
      for (const name of list) {
        const slug = slugify(name);
        const key = `${kind}\n${slug}`;
        let term = terms.get(key);
        if (!term) {
          term = { id: terms.size + 1, kind, name, slug };
          terms.set(key, term);
        }
        // A term's words join the vocabulary with its first published post (decision 048).
        if (post.status === "publish") addWords(termWords(term.name));
        if (linked.has(term.id)) continue;
        linked.add(term.id);
        batch.links[0].push(id);
        batch.links[1].push(term.id);
        names.push(term.name);
      }
    }
    if (post.status === "publish") {
      const doc = searchDocument({
        title: post.title,
        content: post.content,
        excerpt: post.excerpt,
        termNames: names,
      });
      batch.docs[0].push(id);
      batch.docs[1].push(documentVector(doc));
      addWords(doc.words);
    }
    if (batch.posts[0].length >= BATCH) {
      await flush(batch);
      batch = emptyBatch();
    }
  }
  await flush(batch);
  if (options.vocabulary) addWords(syntheticWords(options.vocabulary));

  const newWords = [...words];
  for (let from = 0; from < newWords.length; from += 20_000) {
    const slice = newWords.slice(from, from + 20_000);
    await pool.query("INSERT INTO search_words (id, word) SELECT * FROM unnest($1::bigint[], $2::text[])", [
      slice.map(([, wordId]) => wordId),
      slice.map(([word]) => word),
    ]);
  }
  const trigrams: [string[], number[]] = [[], []];
  const skeletons: [string[], number[]] = [[], []];
  for (const [word, wordId] of newWords) {
    if (!isDevanagariWord(word)) continue;
    for (const skeleton of wordSkeletons(word)) {
      skeletons[0].push(skeleton);
      skeletons[1].push(wordId);
    }
    for (const trigram of wordTrigrams(word)) {
      trigrams[0].push(trigram);
      trigrams[1].push(wordId);
    }
  }
  await pool.query(
    "INSERT INTO search_word_trigrams (trigram, word_id) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING",
    trigrams,
  );
  await pool.query(
    "INSERT INTO search_skeletons (skeleton, word_id) SELECT * FROM unnest($1::text[], $2::bigint[]) ON CONFLICT DO NOTHING",
    skeletons,
  );
  for (const table of ["posts", "terms", "search_words"]) {
    await pool.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
    );
  }
  for (const statement of deferred) await pool.query(statement);
  await pool.query("UPDATE content_version SET version = version + 1 WHERE id = 1");
  await pool.query("VACUUM ANALYZE");
}

/** The tables loadGeneratedCorpus fills. */
const LOADED_TABLES = ["posts", "post_terms", "search_documents", "search_word_trigrams", "search_skeletons"];

/**
 * Drops the foreign keys of `tables` and their indexes that back no
 * constraint; returns the statements that make them again (indexes first).
 */
async function dropDeferrable(pool: pg.Pool, tables: readonly string[]): Promise<string[]> {
  const { rows: keys } = await pool.query<{ table: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition
     FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY($1::text[])`,
    [tables],
  );
  const { rows: indexes } = await pool.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i WHERE i.indrelid::regclass::text = ANY($1::text[])
     AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const key of keys) await pool.query(`ALTER TABLE ${key.table} DROP CONSTRAINT ${key.name}`);
  for (const index of indexes) await pool.query(`DROP INDEX ${index.name}`);
  return [
    ...indexes.map((index) => index.definition),
    ...keys.map((key) => `ALTER TABLE ${key.table} ADD CONSTRAINT ${key.name} ${key.definition}`),
  ];
}

/** Deterministic made-up words: Devanagari syllables, one in four Latin letters. */
function syntheticWords(count: number): string[] {
  const consonants = [..."कखगघचछजझटठडढतथदधनपफबभमयरलवशषसह"];
  const signs = ["", "ा", "ि", "ी", "ु", "ू", "े", "ै", "ो", "ौ", "ं", "्र"];
  const latin = [..."abcdefghijklmnopqrstuvwxyz"];
  let state = 12345;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const pick = (list: readonly string[]) => {
    const item = list[next(list.length)];
    if (item === undefined) throw new Error("syntheticWords: picked past the end of a list");
    return item;
  };
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    let word = "";
    if (i % 4 === 3) for (let j = 3 + next(6); j > 0; j--) word += pick(latin);
    else for (let j = 2 + next(3); j > 0; j--) word += pick(consonants) + pick(signs);
    made.push(word);
  }
  return made;
}
