import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANGUAGES } from "#app/content/languages.ts";
import { seededRandom } from "#app/content/sampling.ts";
import { readQueries } from "#app/data/sql/read-queries.ts";
import { walkByTime } from "#app/data/sql/read-store.ts";
import { migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SQLITE } from "#app/data/sqlite/dialect.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { generateCorpus } from "#cli/generate.ts";
import { postRecord } from "#tests/support/records.ts";

// Every read the site makes must be served by an index: a read that scans
// posts grows with the site (the home gallery once took 67 ms at 100,000 posts).
let dir: string;
let db: Database.Database;
const executed: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-plans-"));
  const file = path.join(dir, "plans.db");
  const setup = openDatabase(`file:${file}`).db;
  migrate(setup);
  writeContent(setup, { posts: generateCorpus({ count: 1500, seed: 3 }), pages: [] });
  // A tag large enough to be walked, on posts older than every other: the walk falls back to the sort.
  writeContent(setup, {
    posts: Array.from({ length: 150 }, (_, i) =>
      postRecord({
        idNum: 900_000 + i,
        slug: `old-bunch-${i}`,
        postTime: 1_000_000 + i,
        tags: ["old-bunch"],
      }),
    ),
    pages: [],
  });
  setup.close();
  db = new Database(file, { verbose: (sql) => executed.push(String(sql)) });
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

test("no store read scans the posts table", async () => {
  const store = new SqliteContentStore(db);
  const website = await store.getWebsite();
  const latest = await store.latestPost();
  if (!latest) throw new Error("no posts");
  for (const language of LANGUAGES) {
    await store.samplePosts(language, [1, 2, 3, 40, 41, 42], 3);
    await store.listPosts({ language }, 1, 24);
    await store.listPosts({ language }, 5, 24);
    await store.countPosts(language);
    await store.postAt(language, 17);
    await store.randomPost(language, seededRandom(language.length));
  }
  // Random draws: seeks on an idNum, or (all missing) a count and an offset, each of one language and of all.
  await store.randomPost(null, seededRandom(1));
  await store.randomPost(null, () => 0.999_999);
  await store.randomPost("hindi", () => 0.999_999);
  await store.getPost(latest.language, latest.slug);
  await store.getPostAnyLanguage(latest.slug);
  await store.adjacentPosts(latest.language, latest.slug);
  await store.relatedPosts(latest.language, latest.slug, 4);
  const [tag] = await store.listTags();
  if (tag) await store.listPosts({ tag: tag.slug }, 1, 24);
  // A filter on results (decision 065): each match's post is sought by its id, never a walk through a language.
  for (const text of ["love", "prem", "ज्ञान"]) {
    await store.searchPosts(text, 1, 24, "hindi");
    await store.searchPosts(text, 20, 24, "marathi");
  }
  expect(website.maxIdEng).toBeGreaterThan(0);

  const scans: string[] = [];
  const reads = executed.filter((sql) => /^\s*(SELECT|WITH)/i.test(sql) && /\bposts\b/.test(sql));
  expect(reads.length).toBeGreaterThan(15);
  for (const sql of reads) {
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
    for (const { detail } of plan) {
      if (/^SCAN (p|posts)\b/.test(detail) && !/USING (COVERING )?INDEX/.test(detail)) {
        scans.push(`${detail}\n  in: ${sql.replace(/\s+/g, " ").slice(0, 200)}`);
      }
    }
  }
  expect(scans).toEqual([]);
});

/** The plan details of the statements one read runs. */
async function plansOf(read: () => Promise<unknown>): Promise<string> {
  executed.length = 0;
  await read();
  return executed
    .filter((sql) => /^\s*(SELECT|WITH)/i.test(sql))
    .flatMap((sql) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail),
    )
    .join("\n");
}

test("each read seeks the index made for it", async () => {
  const store = new SqliteContentStore(db);
  const latest = (await store.latestPost())!;
  // SPEC §7.2: one seek per drawn id, not a walk through the language.
  expect(await plansOf(() => store.samplePosts("hindi", [1, 2, 3, 40, 41, 42], 3))).toContain(
    "posts_language_id_num (language=? AND id_num=?)",
  );
  // A shared collection (decision 050): one seek per pair, in the pairs' order.
  expect(
    await plansOf(() =>
      store.collectionPosts([
        { language: "hindi", idNum: 3 },
        { language: "english", idNum: 40 },
      ]),
    ),
  ).toMatch(/SCAN wanted[^\n]*\nSEARCH p USING INDEX posts_language_id_num \(language=\? AND id_num=\?\)/);
  // Each max is one seek on the published posts' partial index: drafts are never walked.
  expect(
    (await plansOf(() => store.getWebsite())).match(/posts_language_published_id_num \(language=\?\)/g),
  ).toHaveLength(3);
  expect(await plansOf(() => store.latestPost())).toContain("posts_published_time");
  expect(await plansOf(() => store.getPost(latest.language, latest.slug))).toContain(
    "posts_language_slug (language=? AND slug=?)",
  );
  expect(await plansOf(() => store.listPosts({ language: "marathi" }, 3, 24))).toContain(
    "posts_language_published_time (language=?)",
  );
  const related = await plansOf(() => store.relatedPosts(latest.language, latest.slug, 4));
  expect(related).toContain("SEARCH p USING INTEGER PRIMARY KEY (rowid=?)");
  // Each candidate's status from the published ids' index, not its row (its text with it).
  expect(related).toContain("SEARCH c USING COVERING INDEX posts_published_id (id=? AND rowid=?)");
  expect(await plansOf(() => store.adjacentPosts(latest.language, latest.slug))).toMatch(
    /posts_language_published_time \(language=\? AND post_time[<>]\?\)/,
  );
  // A term's page (decision 081): a large tag walks the published posts newest first, each one
  // seek of post_terms' key; a small one reads its own links and sorts them.
  const sizes = new Map<string, number>();
  for (const tag of await store.listTags()) sizes.set(tag.slug, (sizes.get(tag.slug) ?? 0) + tag.count);
  const bySize = [...sizes].sort((a, b) => b[1] - a[1]);
  const [large, small] = [bySize[0]!, bySize.at(-1)!];
  expect(large[1] ** 2).toBeGreaterThan(25 * 1500);
  expect(small[1] ** 2).toBeLessThan(25 * 1000);
  const walked = await plansOf(() => store.listPosts({ tag: large[0] }, 1, 24));
  expect(walked).toMatch(
    /SEARCH p USING INDEX posts_published_time \(post_time>\?\)[\s\S]*SEARCH pt USING PRIMARY KEY \(post_id=\? AND term_id=\?\)/,
  );
  expect(walked).not.toContain("TEMP B-TREE");
  expect(walked).not.toContain("post_terms_term");
  // A tag whose posts are all older than the rest: the walk stops at twice its expected length, then sorts.
  expect(walkByTime(150, 1650, 25)).not.toBeNull();
  const bunched = await plansOf(() => store.listPosts({ tag: "old-bunch" }, 1, 24));
  expect(bunched).toMatch(
    /posts_published_time[\s\S]*SEARCH pt USING COVERING INDEX post_terms_term \(term_id=\?\)/,
  );
  expect((await store.listPosts({ tag: "old-bunch" }, 1, 24)).posts.map((post) => post.slug)).toEqual(
    Array.from({ length: 24 }, (_, i) => `old-bunch-${149 - i}`),
  );
  expect(await plansOf(() => store.listPosts({ tag: small[0] }, 1, 24))).toMatch(
    /SEARCH pt USING COVERING INDEX post_terms_term \(term_id=\?\)\nSEARCH q USING INTEGER PRIMARY KEY/,
  );
  // Either way, the same posts in the same order, on any page.
  const queries = readQueries(SQLITE);
  for (const [slug] of [large, small, bySize[Math.floor(bySize.length / 2)]!, ["old-bunch"]]) {
    const { id } = db.prepare("SELECT id FROM terms WHERE kind = 'tag' AND slug = ?").get(slug) as {
      id: number;
    };
    for (const offset of [0, 24, 240]) {
      const sorted = db.prepare(queries.listTerm).all({ 1: id, 2: 25, 3: offset });
      if (offset === 0) expect(sorted.length).toBeGreaterThan(0);
      expect(
        db.prepare(queries.listTermByTime).all({ 1: id, 2: 25, 3: offset, 4: Number.MIN_SAFE_INTEGER, 5: 0 }),
        `${slug} at ${offset}`,
      ).toEqual(sorted);
    }
  }
  // A romanised word that matches nothing is read one letter off: thousands of skeletons, each a seek.
  // A filter on results: the index's matches first, each post sought by its id (not the match run per post).
  expect(await plansOf(() => store.searchPosts("love", 1, 24, "hindi"))).toMatch(
    /SCAN search_index VIRTUAL TABLE[^\n]*\nSEARCH p USING COVERING INDEX posts_id_language \(id=\? AND language=\?/,
  );
  const near = await plansOf(() => store.searchPosts("zndagii", 1, 24));
  expect(near).toContain("SEARCH s USING PRIMARY KEY (skeleton=?)");
  expect(near).not.toMatch(/^SCAN s\b/m);
});
