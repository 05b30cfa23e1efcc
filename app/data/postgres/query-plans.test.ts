// Every read the site makes, search included, must be served by an index at
// 100,000 posts (as app/data/query-plans.server.test.ts pins for SQLite). The
// corpus is cli/generate.ts's, written by the production writer with the
// indexes built once at the end (tests/support/postgres-corpus.ts), then
// ANALYZEd: the plans are the planner's own choice.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LANGUAGES } from "#app/content/languages.ts";
import { seededRandom } from "#app/content/sampling.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { loadGeneratedCorpus } from "#tests/support/postgres-corpus.ts";

const available = postgresAvailable();
const COUNT = 100_000;

/** A pool that records the statements it runs. */
function recording(pool: pg.Pool) {
  const executed: { text: string; values: unknown[] }[] = [];
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  (pool as unknown as { query: typeof query }).query = (config: unknown, values?: unknown) => {
    if (typeof config === "object" && config !== null && "text" in config) {
      const { text, values: v } = config as { text: string; values?: unknown[] };
      executed.push({ text, values: v ?? [] });
    }
    return query(config, values);
  };
  return executed;
}

describe.skipIf(!available)("PostgreSQL query plans at 100,000 posts", () => {
  let server: TestPostgres;
  let pool: pg.Pool;
  let plain: pg.Pool;
  let store: PostgresContentStore;
  let executed: { text: string; values: unknown[] }[];

  beforeAll(async () => {
    server = await sharedPostgres();
    const url = await server.createDatabase("plans");
    plain = createPool(url, { max: 2 });
    await migratePostgres(plain);
    await loadGeneratedCorpus(plain, { count: COUNT, seed: 7, vocabulary: 60_000 });
    pool = createPool(url);
    executed = recording(pool);
    store = new PostgresContentStore(pool);
  });

  afterAll(async () => {
    await store?.close();
    await plain?.end();
    await server?.stop();
  });

  async function explain(text: string, values: unknown[]): Promise<string> {
    const { rows } = await plain.query(`EXPLAIN ${text}`, values);
    return rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
  }

  /** The plans of the statements one read runs. */
  async function plansOf(read: () => Promise<unknown>): Promise<string> {
    executed.length = 0;
    await read();
    const plans: string[] = [];
    for (const { text, values } of [...executed]) plans.push(await explain(text, values));
    return plans.join("\n---\n");
  }

  const BIG_TABLES =
    /Seq Scan on (posts|post_terms|search_documents|search_words|search_word_trigrams|search_skeletons)\b.*rows=(\d+)/g;
  /**
   * A sequential scan that is not the best plan: one expected to keep less
   * than a fifth of the table. Counting a search that half the corpus matches
   * ("love" with its other-language words, decision 037) reads half the table
   * whatever the plan, and a scan is then the cheapest way.
   */
  const needlessScan = (plans: string) =>
    [...plans.matchAll(BIG_TABLES)].find((match) => Number(match[2]) < COUNT / 5)?.[0];

  test("the corpus is loaded", async () => {
    const { rows } = await plain.query("SELECT count(*) AS n FROM posts");
    expect(rows[0].n).toBe(COUNT);
  });

  test("no read scans a large table", async () => {
    const latest = (await store.latestPost())!;
    const [tag] = await store.listTags();
    const reads: [string, () => Promise<unknown>][] = [
      ["getWebsite", () => store.getWebsite()],
      ["latestPost", () => store.latestPost()],
      ["getPost", () => store.getPost(latest.language, latest.slug)],
      ["getPostAnyLanguage", () => store.getPostAnyLanguage(latest.slug)],
      ["adjacentPosts", () => store.adjacentPosts(latest.language, latest.slug)],
      ["relatedPosts", () => store.relatedPosts(latest.language, latest.slug, 4)],
      ["getTerm", () => store.getTerm("tag", tag!.slug)],
      ["listPosts tag", () => store.listPosts({ tag: tag!.slug }, 1, 24)],
      ["listPages", () => store.listPages()],
      ["getPage", () => store.getPage("privacy-policy")],
    ];
    for (const language of LANGUAGES) {
      reads.push([`samplePosts ${language}`, () => store.samplePosts(language, [1, 2, 3, 40, 41, 42], 3)]);
      reads.push([
        `collectionPosts ${language}`,
        () => store.collectionPosts([1, 2, 3, 40, 41, 42].map((idNum) => ({ language, idNum }))),
      ]);
      reads.push([`listPosts ${language} 1`, () => store.listPosts({ language }, 1, 24)]);
      reads.push([`listPosts ${language} 5`, () => store.listPosts({ language }, 5, 24)]);
      reads.push([`postAt ${language}`, () => store.postAt(language, 17)]);
      reads.push([`randomPost ${language}`, () => store.randomPost(language, seededRandom(3))]);
      reads.push([`listSitemapPosts ${language}`, () => store.listSitemapPosts(language, 0, 1000)]);
      reads.push([`listFeedPosts ${language}`, () => store.listFeedPosts({ language }, 20)]);
    }
    reads.push(["randomPost any", () => store.randomPost(null, seededRandom(4))]);
    for (const text of [
      "love",
      "truth peace",
      "lov",
      "prem",
      "bhakti",
      "man",
      "प्रेम",
      "ज्ञान",
      "ईश्",
      "zzzqqq",
      "love zzzqqq",
      // Words that match nothing, read one letter off (thousands of skeletons looked up).
      "zndagii",
      "ultimatam",
    ]) {
      reads.push([`search ${text}`, () => store.searchPosts(text, 1, 24)]);
      reads.push([`search ${text} page 20`, () => store.searchPosts(text, 20, 24)]);
      // A filter on results (decision 065): the same matches, each one's post read by its id.
      reads.push([`search ${text} in hindi`, () => store.searchPosts(text, 1, 24, "hindi")]);
      reads.push([`search ${text} in marathi page 20`, () => store.searchPosts(text, 20, 24, "marathi")]);
    }
    const scans: string[] = [];
    for (const [label, read] of reads) {
      const plans = await plansOf(read);
      expect(plans, label).not.toBe("");
      const found = needlessScan(plans);
      if (found) scans.push(`${label}: ${found}\n${plans}`);
    }
    expect(scans).toEqual([]);
  });

  test("each read seeks the index made for it", async () => {
    const latest = (await store.latestPost())!;
    expect(await plansOf(() => store.samplePosts("hindi", [1, 2, 3, 40, 41, 42], 3))).toMatch(
      /Index Scan using posts_language_(published_)?id_num on posts p[^\n]*\n\s+Index Cond: \(\(language = 'hindi'::text\) AND \(id_num = drawn\.id_num\)\)/,
    );
    // A shared collection (decision 050): one seek per pair.
    expect(
      await plansOf(() =>
        store.collectionPosts([
          { language: "hindi", idNum: 3 },
          { language: "english", idNum: 40 },
        ]),
      ),
    ).toMatch(
      /Index Scan using posts_language_(published_)?id_num on posts p[^\n]*\n\s+Index Cond: \(\(language = wanted\.language\) AND \(id_num = wanted\.id_num\)\)/,
    );
    // Each max is the last entry of the published posts' partial index: drafts are never walked.
    expect(await plansOf(() => store.getWebsite())).toMatch(
      /(Index Only Scan Backward using posts_language_published_id_num on posts[^\n]*\n\s+Index Cond: \(\(language = '\w+'::text\) AND \(id_num IS NOT NULL\)\)[\s\S]*){3}/,
    );
    expect(await plansOf(() => store.latestPost())).toContain("Index Scan using posts_published_time");
    // Either slug index is one seek (slugs are nearly unique across languages).
    expect(await plansOf(() => store.getPost(latest.language, latest.slug))).toMatch(
      /Index Scan using posts_(language_)?slug on posts p[^\n]*\n\s+Index Cond: \(.*slug = /,
    );
    // The page's ids come from the language's index alone, then one seek each.
    expect(await plansOf(() => store.listPosts({ language: "marathi" }, 3, 24))).toMatch(
      /Index Only Scan using posts_language_published_time on posts[^\n]*\n\s+Index Cond: \(language = 'marathi'::text\)/,
    );
    // A large tag's page walks the published posts newest first, each one's link one seek (decision 081).
    const sizes = new Map<string, number>();
    for (const tag of await store.listTags()) sizes.set(tag.slug, (sizes.get(tag.slug) ?? 0) + tag.count);
    const [large] = [...sizes].sort((a, b) => b[1] - a[1])[0]!;
    const walked = await plansOf(() => store.listPosts({ tag: large }, 1, 24));
    expect(walked).toMatch(
      /Index Scan using posts_published_time on posts p[^\n]*\n\s+Index Cond: \(ROW\(post_time, id\) >= /,
    );
    expect(walked).toMatch(/Index Only Scan using post_terms_(pkey|term) on post_terms pt/);
    expect(await plansOf(() => store.adjacentPosts(latest.language, latest.slug))).toMatch(
      /posts_language_published_time[^\n]*\n\s+Index Cond: \(\(language = '\w+'::text\) AND \(ROW\(post_time, id\) [<>]/,
    );
    // Candidates: at most 60 seeks either side of the post in each of its tags; then one seek per candidate.
    const related = await plansOf(() => store.relatedPosts(latest.language, latest.slug, 4));
    expect(related).toMatch(/Index Only Scan (Backward )?using post_terms_(term|pkey) on post_terms o/);
    expect(related).toMatch(
      /Index Scan using posts_(pkey|published_id) on posts p[^\n]*\n\s+Index Cond: \(id = candidate\.id\)/,
    );
    // Search: the word lookups seek their btrees; matching uses the GIN index
    // or walks the primary key newest first; the ranking tests seek ids.
    const prefix = await plansOf(() => store.searchPosts("lov", 1, 24));
    expect(prefix).toContain("search_words_word_key");
    expect(prefix).toContain("Bitmap Index Scan on search_documents_document");
    expect(await plansOf(() => store.searchPosts("ज्ञान", 1, 24))).toContain("search_word_trigrams_pkey");
    expect(await plansOf(() => store.searchPosts("prem", 1, 24))).toContain("search_skeletons_pkey");
    // The one-letter-off lookup (thousands of skeletons) goes through an index of search_skeletons.
    const near = (await plansOf(() => store.searchPosts("zndagii", 1, 24)))
      .split("\n---\n")
      .find((plan) => plan.includes("skeleton = ANY"));
    expect(near).toMatch(/Index (Only )?Scan using search_skeletons_(pkey|word) on search_skeletons s/);
    expect(near).not.toContain("Seq Scan");
    const common = await plansOf(() => store.searchPosts("love peace", 1, 24));
    expect(common).toMatch(/Index (Only )?Scan using search_documents_pkey/);
    // In one language (decision 101), the language is a lexeme of the match: the count and the tiers
    // ask the GIN index for both at once or walk the newest documents, and never read posts.
    const inHindi = await plansOf(() => store.searchPosts("love", 1, 24, "hindi"));
    expect(inHindi).toContain("'l:hindi'");
    const matching = inHindi.split("\n---\n").filter((plan) => plan.includes("CTE matches"));
    expect(matching.length).toBeGreaterThanOrEqual(2);
    for (const plan of matching) {
      expect(plan).not.toMatch(/ on posts\b/);
      expect(plan).toMatch(
        /Bitmap Index Scan on search_documents_document|Index Scan Backward using search_documents_pkey/,
      );
    }
  });
});
