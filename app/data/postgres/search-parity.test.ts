// Search parity where the demo content does not reach: a generated corpus of
// 2,500 posts (common words in thousands of posts: the ranking window of 300
// and the older matches after it) and posts with many words sharing a prefix,
// an infix or a skeleton (the 64-word prefix list and the 40-word expansion
// limits), and long posts (their words asked of the index, their snippets'
// text read in two parts). SQLite through its writer, PostgreSQL through the shared one.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LANGUAGES } from "#app/content/languages.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { generateCorpus } from "#cli/generate.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { loadGeneratedCorpus } from "#tests/support/postgres-corpus.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";

const available = postgresAvailable();

const CONSONANTS = [..."कखगघचछजझटठडढतथदधनपफबभमयरलवशसह"];

/** Posts whose words share a prefix, an infix or a skeleton, more than the lookups list. */
function crowdedPosts(): PostRecord[] {
  const posts: PostRecord[] = [];
  for (let i = 0; i < 90; i++) {
    const c = CONSONANTS[i % CONSONANTS.length]!;
    const v = ["", "ा", "ि", "ो"][Math.floor(i / CONSONANTS.length)]!;
    posts.push({
      language: "hindi",
      idNum: 5000 + i,
      status: i % 7 === 3 ? "draft" : "publish",
      postTime: 1_900_000_000 + i * 60,
      title: `प्रेम${c}${v} और ज्ञान`,
      slug: `crowded-${i}`,
      featureImageUrl: "",
      content: `<p>zeta${String(i).padStart(3, "0")} आत्म${c}${v}ज्ञान${c} प्रेम${c}${v}ी love ${i % 2 ? "truth" : "peace"}</p>`,
      excerpt: i % 5 === 0 ? "ज्ञानी प्रेमी" : "",
      tags: i % 3 === 0 ? ["प्रेम", `zeta tag ${i % 4}`] : ["Love"],
      categories: [],
    });
  }
  return posts;
}

/**
 * Long posts (~20 kB of text each, 800 kB in all): their words asked of the
 * index rather than read (SQLite's testedAmong), and hits whose only match
 * lies past the text's first 4,096 characters (their rest read apart: postTexts).
 */
function longPosts(): PostRecord[] {
  const filler = ["river", "stone", "lamp", "quiet", "नदी", "दीप", "शांत", "mountain", "breath"];
  return Array.from({ length: 40 }, (_, i): PostRecord => {
    let text = "";
    for (let n = 0; text.length < 20_000; n++)
      text += `<p>${filler[(i + n) % filler.length]} ${filler[(n * 7) % filler.length]} ${n}</p>\n`;
    return {
      language: i % 3 === 0 ? "hindi" : "english",
      idNum: 7000 + i,
      status: i % 9 === 4 ? "draft" : "publish",
      postTime: 1_950_000_000 + i * 60,
      title: i % 5 === 0 ? `Omega ${i}` : `Long ${i}`,
      slug: `long-${i}`,
      featureImageUrl: "",
      content: `${i % 4 === 0 ? "<p>omega early</p>\n" : ""}${text}<p>omega${i} finale ${i % 2 ? "truth" : "peace"}</p>`,
      excerpt: i % 6 === 0 ? "an omega excerpt" : "",
      tags: i % 7 === 0 ? ["Finale"] : [],
      categories: [],
    };
  });
}

const QUERIES = [
  "omega",
  "finale",
  "omega finale",
  "finale truth",
  "omega peace quiet",
  "love",
  "peace",
  "truth",
  "the",
  "a",
  "love peace",
  "truth love zzzqqq",
  "lov",
  "zeta",
  "zeta0",
  "zeta05",
  "prem",
  "premi",
  "prema",
  "gyan",
  "gyaan",
  "atma",
  "atm",
  "प्रेम",
  "प्रे",
  "ज्ञान",
  "्ञान",
  "ञान",
  "आत्म",
  "ज्ञानी",
  "ईश्वर",
  "ishwar",
  "भक्ति",
  "bhakti",
  "man",
  "mann",
  "मन",
  "sant",
  "संत",
  "tag",
  "zeta tag",
  // One letter off a word of the corpus (तुलसीदास, तुकाराम, अहंकार), alone and with a word that matches.
  "tulsdas",
  "tuklaram",
  "ahmkar",
  "tulsdas love",
  "zndagii",
];

describe.skipIf(!available)("search parity on a larger corpus", () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  let db: Db;
  let sqlite: SqliteContentStore;
  let postgres: PostgresContentStore;

  beforeAll(async () => {
    const content = {
      posts: [...generateCorpus({ count: 2500, seed: 11 }), ...crowdedPosts(), ...longPosts()],
      pages: [],
    };
    server = await sharedPostgres();
    pool = createPool(await server.createDatabase("parity"));
    await migratePostgres(pool);
    await writeContentPostgres(pool, content);
    postgres = new PostgresContentStore(pool);
    db = openDatabase(":memory:").db;
    migrate(db);
    writeContent(db, content);
    sqlite = new SqliteContentStore(db);
  });

  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    await server?.stop();
  });

  test("the corpus reaches the limits", async () => {
    expect((await sqlite.searchPosts("love", 1, 24)).total).toBeGreaterThan(300);
    const words = db
      .prepare("SELECT count(*) FROM search_words WHERE word >= 'zeta' AND word < 'zetb'")
      .pluck();
    expect(words.get()).toBeGreaterThan(64);
  });

  test("every query, on early and late pages, gives what SQLite gives", async () => {
    for (const text of QUERIES) {
      const first = await sqlite.searchPosts(text, 1, 24);
      const pages = [1, 2, 13, 14, Math.ceil(first.total / 24), Math.ceil(first.total / 24) + 1];
      for (const page of [...new Set(pages)].filter((p) => p >= 1)) {
        const expected = page === 1 ? first : await sqlite.searchPosts(text, page, 24);
        expect.soft(await postgres.searchPosts(text, page, 24), `${text} page ${page}`).toEqual(expected);
      }
    }
  });

  /**
   * The statements of one search, each's issue and answer on one clock. `holdCount`: the
   * count's answer is held back this long (ms), as a slow count would be.
   */
  async function traced(text: string, holdCount = 0) {
    const statements: { text: string; issued: number; answered: number }[] = [];
    const query = pool.query.bind(pool);
    let clock = 0;
    pool.query = ((config: string | pg.QueryConfig, values?: unknown[]) => {
      const statement = {
        text: typeof config === "string" ? config : config.text,
        issued: clock++,
        answered: Number.POSITIVE_INFINITY,
      };
      statements.push(statement);
      let result = query(config as pg.QueryConfig, values);
      if (holdCount > 0 && statement.text.includes("count(*)"))
        result = result.then(
          (answer) => new Promise((resolve) => setTimeout(() => resolve(answer), holdCount)),
        );
      const answered = () => {
        statement.answered = clock++;
      };
      result.then(answered, answered);
      return result;
    }) as typeof pool.query;
    try {
      await postgres.searchPosts(text, 1, 24);
    } finally {
      pool.query = query;
    }
    return statements;
  }

  /** Rounds: a round is the statements issued while an earlier one is unanswered. */
  function roundsOf(statements: readonly { issued: number; answered: number }[]): number {
    let count = 0;
    let busyUntil = -1;
    for (const { issued, answered } of statements) {
      if (issued > busyUntil) count++;
      busyUntil = Math.max(busyUntil, answered);
    }
    return count;
  }

  test("a search's round trips: the count beside the first tier, a tier's window with its ranking tests", async () => {
    const statements = await traced("love");
    // Its expansions; the count and the first tier's newest matches with their tests; the posts, terms and translations.
    expect(roundsOf(statements)).toBe(3);
    const count = statements.find(({ text }) => text.includes("count(*)"));
    const tier = statements.find(({ text }) => text.includes("string_agg"));
    expect(tier!.issued).toBeLessThan(count!.answered);
    expect(statements.filter(({ text }) => text.includes("document::text"))).toEqual([]);
  });

  test("a first tier that leaves the page short: the next is asked when it answers, not after the count", async () => {
    // "zeta": no title holds a word beginning with it, so the first tier (its titles) is empty and the next fills the page.
    const statements = await traced("zeta", 4000);
    const count = statements.find(({ text }) => text.includes("count(*)"));
    const tiers = statements.filter(({ text }) => text.includes("string_agg"));
    expect(tiers.length).toBeGreaterThanOrEqual(2);
    // Every tier the page needed was asked (and answered) while the count was held back (4 s: room for a busy machine).
    for (const tier of tiers) expect(tier.answered).toBeLessThan(count!.answered);
    // The same page as without the hold.
    expect(await postgres.searchPosts("zeta", 1, 24)).toEqual(await sqlite.searchPosts("zeta", 1, 24));
  });

  test("a filter on results (decision 065): each language's own matches, as SQLite gives them", async () => {
    for (const text of ["love", "prem", "प्रेम", "ज्ञान", "zeta", "truth love zzzqqq", "tulsdas", "zzzqqq"]) {
      const all = await sqlite.searchPosts(text, 1, 24);
      let sum = 0;
      for (const language of LANGUAGES) {
        const first = await sqlite.searchPosts(text, 1, 24, language);
        sum += first.totalCapped ? Number.POSITIVE_INFINITY : first.total;
        const last = Math.ceil(first.total / 24);
        for (const page of [...new Set([1, 2, 14, last, last + 1])].filter((p) => p >= 1)) {
          const expected = page === 1 ? first : await sqlite.searchPosts(text, page, 24, language);
          // Filtered in the database, before the ranking: a page holds only that language and is full when more follow.
          expect
            .soft(
              expected.posts.every((hit) => hit.language === language),
              `${text} ${language}`,
            )
            .toBe(true);
          if (expected.hasNext) expect.soft(expected.posts, `${text} ${language} ${page}`).toHaveLength(24);
          expect
            .soft(await postgres.searchPosts(text, page, 24, language), `${text} ${language} page ${page}`)
            .toEqual(expected);
        }
      }
      // The languages' counts add up to the whole (when none stopped at its bound).
      if (!all.totalCapped && Number.isFinite(sum)) expect.soft(sum, text).toBe(all.total);
    }
  });

  test("the corpus loader (plan tests, benchmarks) writes the rows the writer writes", async () => {
    const dump = async (url: string) => {
      const p = createPool(url, { max: 2 });
      try {
        const tables = {
          posts:
            "SELECT id, language, id_num, status, post_time, title, slug, feature_image_url, content, excerpt FROM posts",
          terms: "SELECT * FROM terms",
          post_terms: "SELECT * FROM post_terms",
          search_documents: "SELECT * FROM search_documents",
          search_words: "SELECT * FROM search_words",
          search_word_trigrams: "SELECT * FROM search_word_trigrams",
          search_skeletons: "SELECT * FROM search_skeletons",
        };
        const out: Record<string, string> = {};
        for (const [name, sql] of Object.entries(tables)) {
          const { rows } = await p.query(
            `SELECT count(*) AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM (${sql}) t`,
          );
          out[name] = `${rows[0].n} ${rows[0].h}`;
        }
        return out;
      } finally {
        await p.end();
      }
    };
    const written = await server.createDatabase("written");
    const loaded = await server.createDatabase("loaded");
    const [writtenPool, loadedPool] = [createPool(written, { max: 2 }), createPool(loaded, { max: 2 })];
    try {
      await migratePostgres(writtenPool);
      await migratePostgres(loadedPool);
      await writeContentPostgres(writtenPool, { posts: generateCorpus({ count: 400, seed: 5 }), pages: [] });
      await loadGeneratedCorpus(loadedPool, { count: 400, seed: 5 });
    } finally {
      await writtenPool.end();
      await loadedPool.end();
    }
    const expected = await dump(written);
    expect(Number(expected.search_words!.split(" ")[0])).toBeGreaterThan(100);
    expect(await dump(loaded)).toEqual(expected);
  });
});
