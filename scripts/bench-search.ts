// `npm run bench:search [-- --count N] [-- --http]`: search on a generated
// corpus (cli/generate.ts) of N posts (default 100,000) in the three
// languages. Prints the time to write the corpus without and with the search
// index (kept by the writer), the time to build the index from scratch, the
// database size, and the server-side time (wall and CPU) of 30
// representative queries through the real SqliteContentStore.searchPosts,
// against a baseline measured in the same run: what a post page reads.
// With --http it also serves the database with the built server (run
// `npm run build` first) and compares whole results pages with post pages.
// Figures only: nothing here asserts a timing.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { postPath } from "#app/content/languages.ts";
import type { PostRecord } from "#app/content/schemas.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { PostgresContentStore } from "#app/data/postgres/reads.server.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { rebuildSearchIndex } from "#app/data/sqlite/search.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { generatePosts } from "#cli/generate.ts";
import { postgresAvailable, startPostgres } from "#tests/support/postgres.ts";
import { loadGeneratedCorpus } from "#tests/support/postgres-corpus.ts";
import { startServer } from "#tests/support/server.ts";

const QUERIES: [kind: string, text: string][] = [
  ["english", "love"],
  ["english", "truth"],
  ["english", "the mind"],
  ["english", "quiet heart"],
  ["english", "silence"],
  ["english", "river of time"],
  ["english", "kindness"],
  ["english", "pati"],
  ["english", "Vivekananda"],
  ["english", "humility peace"],
  ["devanagari", "प्रेम"],
  ["devanagari", "मन"],
  ["devanagari", "ज्ञान"],
  ["devanagari", "शान्ति"],
  ["devanagari", "बाज़ार"],
  ["devanagari", "हृदय"],
  ["devanagari", "सच्चे मन से"],
  ["devanagari", "विठ्ठल"],
  ["romanised", "prem"],
  ["romanised", "shanti"],
  ["romanised", "gyan"],
  ["romanised", "dnyan"],
  ["romanised", "ishwar"],
  ["romanised", "zindagi"],
  ["romanised", "bhakti"],
  ["romanised", "kabir"],
  // Romanised words one letter off a corpus word (तुलसीदास, तुकाराम, अहंकार): read one letter off.
  ["one-off", "tulsdas"],
  ["one-off", "tuklaram"],
  ["one-off", "ahmkar"],
  ["one-letter", "a"],
  ["one-letter", "क"],
  ["no-hit", "xyzzyq"],
  ["no-hit", "ज़ज़ज़"],
];
const RUNS = 15;

function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Writes the corpus in batches of 5,000, as an import would; returns the seconds spent writing. */
async function writeCorpus(db: Db, count: number, keep?: PostRecord[]): Promise<number> {
  let batch: PostRecord[] = [];
  let ms = 0;
  const flush = async () => {
    const posts = batch;
    batch = [];
    ms += await time(() => writeContent(db, { posts, pages: [] }));
  };
  for (const post of generatePosts({ count, seed: 1 })) {
    if (keep && post.status === "publish" && keep.length < 2000) keep.push(post);
    batch.push(post);
    if (batch.length === 5000) await flush();
  }
  await flush();
  return ms / 1000;
}

async function bench(count: number, http: boolean, postgres: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-bench-search-"));
  const dbPath = path.join(dir, "bench.db");
  try {
    console.log(`corpus: ${count.toLocaleString("en")} generated posts (cli/generate.ts, seed 1)`);
    console.log(
      `node ${process.version}, ${new Date().toISOString().slice(0, 10)}, load average ${loadavg()[0]!.toFixed(2)}\n`,
    );

    // Baseline: the same writes without search. The writer keeps the index
    // only where search_documents exists (app/data/sqlite/write-target.server.ts),
    // so dropping it and the index over it (with its triggers) leaves plain writes.
    const plain = openDatabase(`file:${path.join(dir, "plain.db")}`).db;
    migrate(plain);
    for (const name of plain
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'search%'")
      .pluck()
      .all() as string[]) {
      plain.exec(`DROP TRIGGER ${name}`);
    }
    plain.exec("DROP TABLE search_index; DROP TABLE search_documents;");
    const plainSeconds = await writeCorpus(plain, count);
    plain.close();

    const { db } = openDatabase(`file:${dbPath}`);
    migrate(db);
    const published: PostRecord[] = [];
    const writeSeconds = await writeCorpus(db, count, published);
    const counts = db
      .prepare("SELECT language, count(*) AS n FROM posts WHERE status = 'publish' GROUP BY language")
      .all() as { language: string; n: number }[];
    const meanLength = db.prepare("SELECT avg(length(content)) FROM posts").pluck().get() as number;
    console.log(
      `published: ${counts.map((c) => `${c.language} ${c.n.toLocaleString("en")}`).join(", ")}; mean content ${Math.round(meanLength)} characters of HTML`,
    );
    console.log(
      `write without search: ${plainSeconds.toFixed(1)} s; with the search index kept by the writer: ${writeSeconds.toFixed(1)} s (indexing adds ${(writeSeconds - plainSeconds).toFixed(1)} s)`,
    );
    const rebuildMs = await time(() => rebuildSearchIndex(db));
    console.log(`index build from scratch (rebuildSearchIndex): ${(rebuildMs / 1000).toFixed(1)} s`);

    db.pragma("wal_checkpoint(TRUNCATE)");
    const sizes = db
      .prepare(
        `SELECT CASE WHEN name LIKE 'search%' THEN 'search' ELSE 'rest' END AS part, sum(pgsize) AS bytes
         FROM dbstat GROUP BY part`,
      )
      .all() as { part: string; bytes: number }[];
    const words = db.prepare("SELECT count(*) FROM search_words").pluck().get() as number;
    const plainSize = statSync(path.join(dir, "plain.db")).size;
    console.log(
      `database: ${mb(statSync(dbPath).size)}, of which search ${mb(sizes.find((s) => s.part === "search")?.bytes ?? 0)} (the same posts without search: ${mb(plainSize)}); ${words.toLocaleString("en")} distinct words indexed\n`,
    );

    const store = new SqliteContentStore(db);
    // Baselines: a post's read (getPost), and everything a post page's loader
    // reads (the post, its neighbours, related posts).
    const getPostTimes: number[] = [];
    const postPageTimes: number[] = [];
    const postPage = async (post: PostRecord) => {
      await store.getPost(post.language, post.slug);
      await store.adjacentPosts(post.language, post.slug);
      await store.relatedPosts(post.language, post.slug, 4);
    };
    for (let i = 0; i < 50; i++) await postPage(published[i]!);
    for (let i = 0; i < RUNS * QUERIES.length; i++) {
      const post = published[i % published.length]!;
      getPostTimes.push(await time(() => store.getPost(post.language, post.slug)));
      postPageTimes.push(await time(() => postPage(post)));
    }

    const searchMedian = await timeSearches("SQLite", (text) => store.searchPosts(text, 1, 24));
    const baselineMedian = median(postPageTimes);
    console.log(
      `baseline getPost: median ${ms(median(getPostTimes))}; a post page's reads (getPost, adjacentPosts, relatedPosts): median ${ms(baselineMedian)}, p95 ${ms(percentile(postPageTimes, 0.95))}`,
    );
    console.log(
      `ratio: search median / post page reads median = ${(searchMedian / baselineMedian).toFixed(2)}x (/ getPost alone ${(searchMedian / median(getPostTimes)).toFixed(0)}x)`,
    );
    await store.close();

    await benchLongPosts(dir);
    if (postgres) await benchPostgres(count, searchMedian);
    if (http) await benchHttp(dbPath, published);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Posts in each corpus of benchLongPosts, and the length their texts are made up to. */
const LONG_POSTS = { count: 1_500, length: 52_000 };

/**
 * Long posts (a site of discourses, not quotes): the same generated posts
 * twice, as generated (~370 characters) and each text made up to ~52 kB with
 * the texts of others, both searched in the same rounds (the short corpus is
 * the baseline). What a search reads of each post's text shows here.
 */
async function benchLongPosts(dir: string): Promise<void> {
  const stores: Record<"short" | "long", SqliteContentStore> = {} as never;
  for (const kind of ["short", "long"] as const) {
    const { db } = openDatabase(`file:${path.join(dir, `${kind}.db`)}`);
    migrate(db);
    const posts = [...generatePosts({ count: LONG_POSTS.count, seed: 1 })];
    if (kind === "long") {
      const texts = posts.map((post) => post.content);
      for (const [i, post] of posts.entries())
        for (let k = 1; post.content.length < LONG_POSTS.length; k++)
          post.content += texts[(i + k * 7) % texts.length];
    }
    await writeContent(db, { posts, pages: [] });
    stores[kind] = new SqliteContentStore(db);
  }
  const wall = new Map<string, { short: number[]; long: number[] }>();
  for (let round = 0; round < 3 + RUNS; round++) {
    for (const [, text] of QUERIES) {
      const times = wall.get(text) ?? { short: [], long: [] };
      wall.set(text, times);
      for (const kind of round % 2 === 0 ? (["short", "long"] as const) : (["long", "short"] as const)) {
        const took = await time(() => stores[kind].searchPosts(text, 1, 24));
        // The first three rounds warm up.
        if (round >= 3) times[kind].push(took);
      }
    }
  }
  await stores.short.close();
  await stores.long.close();
  const perQuery = [...wall.entries()].map(([text, times]) => ({
    text,
    short: median(times.short),
    long: median(times.long),
  }));
  const slowest = [...perQuery].sort((a, b) => b.long / b.short - a.long / a.short).slice(0, 5);
  const all = {
    short: [...wall.values()].flatMap((t) => t.short),
    long: [...wall.values()].flatMap((t) => t.long),
  };
  console.log(
    `\nlong posts: ${LONG_POSTS.count.toLocaleString("en")} posts with texts of ~${LONG_POSTS.length / 1000} kB against the same posts as generated, ${QUERIES.length} queries × ${RUNS} rounds, load average ${loadavg()[0]!.toFixed(2)}:`,
  );
  console.log(
    `median ${ms(median(all.long))} (short ${ms(median(all.short))}, ${(median(all.long) / median(all.short)).toFixed(2)}x), p95 ${ms(percentile(all.long, 0.95))} (short ${ms(percentile(all.short, 0.95))}); the most slowed: ${slowest.map((q) => `${q.text} ${ms(q.long)} (short ${ms(q.short)})`).join(", ")}`,
  );
}

type Search = (text: string) => Promise<{ total: number; totalCapped: boolean }>;

/**
 * Warms up (JIT, page cache), then measures in rounds over all queries so
 * that garbage collection and other processes fall on every query alike.
 * CPU time (this process only) is printed beside wall time: on a shared
 * machine it is the steadier figure. Returns the median of all searches.
 */
async function timeSearches(label: string, search: Search): Promise<number> {
  // "1000+": the first page counts matches up to COUNT_LIMIT (app/search/search.ts).
  const hitCounts = new Map<string, string>();
  for (const [, text] of QUERIES) {
    const { total, totalCapped } = await search(text);
    hitCounts.set(text, `${total}${totalCapped ? "+" : ""}`);
  }
  for (let round = 0; round < 3; round++) for (const [, text] of QUERIES) await search(text);
  const wall = new Map<string, number[]>(QUERIES.map(([, text]) => [text, []]));
  const cpu = new Map<string, number[]>(QUERIES.map(([, text]) => [text, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const [, text] of QUERIES) {
      const before = process.cpuUsage();
      wall.get(text)!.push(await time(() => search(text)));
      const used = process.cpuUsage(before);
      cpu.get(text)!.push((used.user + used.system) / 1000);
    }
  }
  console.log(`${label}, load average ${loadavg()[0]!.toFixed(2)}:`);
  console.log(
    `${"kind".padEnd(11)} ${"query".padEnd(16)} ${"hits".padStart(7)} ${"median".padStart(10)} ${"p95".padStart(10)} ${"cpu median".padStart(11)}`,
  );
  for (const [kind, text] of QUERIES) {
    const times = wall.get(text)!;
    console.log(
      `${kind.padEnd(11)} ${text.padEnd(16)} ${hitCounts.get(text)!.padStart(7)} ${ms(median(times)).padStart(10)} ${ms(percentile(times, 0.95)).padStart(10)} ${ms(median(cpu.get(text)!)).padStart(11)}`,
    );
  }
  const all = [...wall.values()].flat();
  const allCpu = [...cpu.values()].flat();
  const perQuery = [...wall.values()].map(median);
  console.log(
    `\n${label} search, ${QUERIES.length} queries × ${RUNS} rounds, page 1 of 24: median ${ms(median(all))}, p95 ${ms(percentile(all, 0.95))} (wall); median ${ms(median(allCpu))}, p95 ${ms(percentile(allCpu, 0.95))} (cpu, this process)`,
  );
  console.log(
    `per-query medians: median ${ms(median(perQuery))}, p95 ${ms(percentile(perQuery, 0.95))}, slowest ${ms(Math.max(...perQuery))}`,
  );
  return median(all);
}

/**
 * --store postgres: the same corpus (seed 1) loaded (tests/support/postgres-corpus.ts) into a throwaway
 * PostgreSQL server (tests/support/postgres.ts), the same queries through
 * PostgresContentStore.searchPosts, against SQLite's median of this run.
 */
async function benchPostgres(count: number, sqliteMedian: number): Promise<void> {
  if (!postgresAvailable()) return;
  const server = await startPostgres();
  try {
    const url = await server.createDatabase("bench_search");
    const loader = createPool(url, { max: 2 });
    await migratePostgres(loader);
    const loadMs = await time(() => loadGeneratedCorpus(loader, { count, seed: 1 }));
    await loader.end();
    console.log(`\nPostgreSQL: corpus loaded in ${(loadMs / 1000).toFixed(1)} s`);
    const pool = createPool(url);
    const store = new PostgresContentStore(pool);
    try {
      const postgresMedian = await timeSearches("PostgreSQL", (text) => store.searchPosts(text, 1, 24));
      console.log(
        `ratio: PostgreSQL search median / SQLite search median (same run) = ${(postgresMedian / sqliteMedian).toFixed(2)}x`,
      );
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
  }
}

/** Whole pages from the built server: a results page against a post page. */
async function benchHttp(dbPath: string, published: PostRecord[]): Promise<void> {
  if (!existsSync(path.resolve(import.meta.dirname, "..", "build", "server"))) {
    console.log("\n--http: no build/ (run npm run build first)");
    return;
  }
  const server = await startServer({ dbPath, env: { SUKTI_RANDOM_SEED: "", SEARCH_LIMITS: "off" } });
  const { url } = server;
  try {
    const get = async (pathname: string) => {
      const started = performance.now();
      const response = await fetch(`${url}${pathname}`);
      await response.text();
      if (response.status !== 200) throw new Error(`${pathname}: ${response.status}`);
      return performance.now() - started;
    };
    // server/app.ts keeps rendered pages in memory (not search pages): a query
    // string of its own makes each post page a fresh render, like a search page.
    let n = 0;
    const postPaths = published.slice(0, 50).map((post) => postPath(post.language, post.slug));
    const fresh = (pathname: string) => `${pathname}?bench=${n++}`;
    const searchPaths = QUERIES.filter(([kind]) => kind !== "no-hit").map(
      ([, text]) => `/search/${encodeURIComponent(text)}`,
    );
    for (const p of [...postPaths.slice(0, 10), ...searchPaths]) await get(fresh(p));
    const posts: number[] = [];
    const cachedPosts: number[] = [];
    const searches: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const p of postPaths.slice(0, searchPaths.length)) {
        posts.push(await get(fresh(p)));
        cachedPosts.push(await get(p));
      }
      for (const p of searchPaths) searches.push(await get(p));
    }
    console.log(
      `\nHTTP, whole page, rendered: post page median ${ms(median(posts))}, p95 ${ms(percentile(posts, 0.95))}; results page median ${ms(median(searches))}, p95 ${ms(percentile(searches, 0.95))}`,
    );
    console.log(`(a post page from the server's page cache: median ${ms(median(cachedPosts))})`);
    console.log(
      `ratio: results page / post page, both rendered = ${(median(searches) / median(posts)).toFixed(2)}x (median)`,
    );
  } finally {
    await server.stop();
  }
}

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "100000" },
    http: { type: "boolean", default: false },
    store: { type: "string" },
  },
});
if (values.store !== undefined && values.store !== "postgres") {
  console.error("bench:search: --store takes postgres (measured beside SQLite in the same run)");
  process.exit(2);
}
await bench(Number(values.count), values.http ?? false, values.store === "postgres");
