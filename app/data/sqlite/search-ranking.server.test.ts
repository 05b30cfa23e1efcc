// The ranking of a search window runs the match expressions' tests in our
// code (holdsAlternative over the indexed words, app/search/document-match.ts; rank.ts rankWindow);
// here every level of every query word is run both ways, through FTS5 on the
// real index and through holdsAlternative on the same posts' indexed text,
// and the two must select the same posts. A search with few matches tests each
// tier's match the same way (rank.ts rankedMatches): it must list what the
// tiers asked of FTS5 one by one list.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { PostRecord } from "#app/content/schemas.ts";
import { READ_BOUNDS } from "#app/data/read-bounds.ts";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { fts5Match, SqliteSearchBackend } from "#app/data/sqlite/search.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import type { SearchBackend } from "#app/search/backend.ts";
import { holdsAlternative } from "#app/search/document-match.ts";
import { expand, readNear } from "#app/search/expand.ts";
import { wordTest } from "#app/search/highlight.ts";
import { bodySnippet, wordMatcher } from "#app/search/hits.ts";
import { parseQuery } from "#app/search/parse.ts";
import { inColumn, type MatchLevel, termAlternatives, termMatch } from "#app/search/query-model.ts";
import { kindTiers, RANK_WINDOW, rankedMatches, tierRows } from "#app/search/rank.ts";
import { search } from "#app/search/search.ts";
import { kindsOf, queryMatches, tiersOf, titleTest } from "#app/search/tiers.ts";
import { generateCorpus } from "#cli/generate.ts";

let dir: string;
let db: Db;

const TEXTS: [title: string, content: string, tags: string[]][] = [
  ["Love and its ways", "The lovely river of love", ["Love"]],
  ["Lovers", "प्रेम ही सत्य है", []],
  ["प्रेम", "मन का प्रेमी, प्रेमाने भरलेले", ["भक्ति"]],
  ["Truth", "a lover's truth, glove, clover", ["Truth"]],
  ["शांति", "शान्ति और ज्ञान, आत्मज्ञान", ["शांती"]],
  ["ज़िंदगी", "जिंदगी, दुःख, दुख, आँख", []],
  ["Kabir", "kabir says: the river does not drink its own water", ["Kabir"]],
  ["Prem", "prem premise premium", []],
  ["मन", "मना मन मनाने", ["मन"]],
  ["café", "cafe and café, naïve", []],
  // Words holding a query word inside, never at their start.
  ["Gloves", "clover fields, unloved, सुमन", ["Gloves"]],
];

const QUERIES = [
  "love",
  "lov",
  "prem",
  "प्रेम",
  "मन",
  "shanti",
  "ज्ञान",
  "zindagi",
  "kabir river",
  "cafe",
  "truth peace",
  "man",
];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-ranking-"));
  db = openDatabase(`file:${path.join(dir, "test.db")}`).db;
  migrate(db);
  const posts: PostRecord[] = TEXTS.map(([title, content, tags], i) => ({
    language: /[\u0900-\u097F]/.test(title) ? "hindi" : "english",
    idNum: i + 1,
    slug: `post-${i + 1}`,
    status: "publish",
    postTime: 1_700_000_000 + i,
    title,
    featureImageUrl: "",
    content: `<p>${content}</p>`,
    excerpt: "",
    tags,
    categories: [],
  }));
  writeContent(db, { posts, pages: [] });
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A search text's words and what each was expanded to, as search() looks them up. */
async function lookedUp(backend: SearchBackend, text: string) {
  const parsed = parseQuery(text);
  const found = await readNear(
    backend,
    parsed.terms,
    await Promise.all(parsed.terms.map((term) => expand(backend, term))),
  );
  return { parsed, found };
}

/** An in-memory database holding `posts`, written as an import writes them. */
function databaseOf(posts: PostRecord[]): Db {
  const corpus = openDatabase(":memory:").db;
  migrate(corpus);
  writeContent(corpus, { posts, pages: [] });
  return corpus;
}

/** Compares `backend`'s pages of each search with `reference`'s; returns how many posts they listed. */
async function samePages(
  reference: SearchBackend,
  backend: SearchBackend,
  texts: readonly string[],
  pages: readonly number[],
): Promise<number> {
  let compared = 0;
  for (const text of texts) {
    for (const page of pages) {
      const expected = await search(reference, text, page, 24);
      expect(await search(backend, text, page, 24), `${text} page ${page}`).toEqual(expected);
      compared += expected.posts.length;
    }
  }
  return compared;
}

/** The same backend without one of its optional abilities (as a backend that lacks it). */
function without(backend: SqliteSearchBackend, ability: "testedAmong" | "knownWords"): SearchBackend {
  return new Proxy(backend, {
    get: (target, name) => {
      if (name === ability) return undefined;
      const value = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

test("holdsAlternative selects the posts FTS5 selects, for every level, in all columns, the title and the tags", async () => {
  const backend = new SqliteSearchBackend(db);
  const ids = db.prepare("SELECT post_id FROM search_documents ORDER BY post_id").pluck().all() as number[];
  const heads = new Map((await backend.documentHeads(ids)).map((head) => [head.id, head]));
  const bodies = new Map((await backend.documentBodies(ids)).map((doc) => [doc.id, doc.body]));
  const match = db
    .prepare("SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rowid")
    .pluck();
  let compared = 0;
  for (const text of QUERIES) {
    for (const term of parseQuery(text).terms) {
      // Expansions as a search finds them, and with a prefix query instead of prefix words.
      const found = await expand(backend, term);
      for (const expansions of [found, { ...found, prefix: null }]) {
        for (const level of ["exact", "literal", "full", "wide"] as MatchLevel[]) {
          const alternative = termAlternatives(term, expansions, level);
          const expression = fts5Match(termMatch(alternative));
          for (const column of ["all", "title", "tags"] as const) {
            const viaIndex = match.all(
              column === "all" ? expression : fts5Match(inColumn(column, termMatch(alternative))),
            );
            const viaCode = ids.filter((id) => {
              const head = heads.get(id)!;
              const spaced =
                column === "all" ? ` ${head.title} ${head.tags} ${bodies.get(id)} ` : ` ${head[column]} `;
              return holdsAlternative(spaced, alternative);
            });
            expect(viaCode, `${text} / ${term.word} / ${level} / ${column}: ${expression}`).toEqual(viaIndex);
            compared++;
          }
        }
      }
    }
  }
  expect(compared).toBeGreaterThan(300);
  // The comparison is not empty on both sides.
  expect(match.all('"love"').length).toBeGreaterThan(0);
});

test("a search with few matches: its matches read once and tested here, tier by tier, list what FTS5 asked for each tier lists", async () => {
  // The posts above, and a generated corpus whose common words have tiers longer than the ranking's window.
  const corpus = databaseOf(generateCorpus({ count: 2500, seed: 5 }));
  let compared = 0;
  let longTiers = 0;
  for (const [store, texts] of [
    [db, [...QUERIES, "love प्रेम", "river truth", "prem man kabir", "lov truth zzz", "ज्ञान shanti"]],
    [corpus, ["love", "truth peace", "प्रेम", "prem", "मन", "shanti", "the", "a", "love truth प्रेम सत्य"]],
  ] as const) {
    const backend = new SqliteSearchBackend(store);
    for (const text of texts) {
      const { parsed, found } = await lookedUp(backend, text);
      for (const mode of ["all", "any"] as const) {
        const query = queryMatches(parsed.terms, found, mode);
        const matches = await backend.newest(query.wide, 1001);
        if (matches.length === 0 || matches.length > 1000) continue;
        // Each tier as the index lists it (tierRows: its newest RANK_WINDOW ranked, then older ones).
        const oneByOne: number[] = [];
        for (const tier of tiersOf(query)) {
          const { rows } = await tierRows(backend, tier, query, 0, 1001);
          if (rows.length > RANK_WINDOW) longTiers++;
          oneByOne.push(...rows);
        }
        expect(await rankedMatches(backend, query, tiersOf(query), matches), `${text} (${mode})`).toEqual(
          oneByOne,
        );
        compared++;
      }
    }
  }
  corpus.close();
  expect(compared).toBeGreaterThan(25);
  expect(longTiers).toBeGreaterThan(0);
});

test("long texts asked of the index (testedAmong) give every page that reading them gives, and a match past a text's start is its snippet", async () => {
  // 600 posts of ~3 kB (generated, each text the texts of the next few), a window's texts well over the read limit.
  const posts = generateCorpus({ count: 600, seed: 8 });
  const texts = posts.map((post) => post.content);
  for (const [i, post] of posts.entries()) {
    for (let k = 1; post.content.length < 3_000; k++) post.content += texts[(i + k * 13) % texts.length];
    // Every tenth post says a rare word only past the first 4,096 characters.
    if (i % 10 === 0) post.content += `<p>${"stillness ".repeat(500)}</p><p>zephyr finale</p>`;
    // Every seventh is filed under a word its text, made longer than a snippet's start, never says.
    if (i % 7 === 3) {
      post.tags = [...post.tags, "Quietude"];
      post.content += `<p>${"calm ".repeat(300)}</p>`;
    }
  }
  const corpus = databaseOf(posts);
  const backend = new SqliteSearchBackend(corpus);
  let asked = 0;
  const testedAmong = backend.testedAmong.bind(backend);
  backend.testedAmong = async (ids, tests) => {
    const answered = await testedAmong(ids, tests);
    asked += answered.size;
    return answered;
  };
  // The same backend with the texts always read.
  const reading = without(backend, "testedAmong");
  const compared = await samePages(
    reading,
    backend,
    ["love", "truth peace", "प्रेम", "prem", "मन", "the", "a", "love truth प्रेम सत्य", "zephyr"],
    [1, 2, 14],
  );
  expect(compared).toBeGreaterThan(300);
  expect(asked).toBeGreaterThan(1_000);
  // The rare word's snippet is cut from where it stands, read past the text's start.
  const { posts: hits } = await search(backend, "zephyr", 1, 24);
  expect(hits).toHaveLength(24);
  for (const hit of hits)
    expect(hit.snippet.filter((segment) => segment.mark).map((segment) => segment.text)).toContain("zephyr");
  // A hit by its tag alone: its text holds no match (its indexed words say so), and its snippet, made
  // from the text's start, is the one its whole text gives.
  const { parsed, found } = await lookedUp(backend, "quietude");
  const test = wordTest(wordMatcher(parsed.terms, found));
  const whole = corpus.prepare("SELECT content, excerpt FROM posts WHERE slug = ?");
  const byTag = await search(backend, "quietude", 1, 24);
  expect(byTag.posts).toHaveLength(24);
  for (const hit of byTag.posts) {
    const { content, excerpt } = whole.get(hit.slug) as { content: string; excerpt: string };
    expect(content.length).toBeGreaterThan(READ_BOUNDS.snippetStart);
    expect(hit.snippet, hit.slug).toEqual(bodySnippet(content, excerpt, test, true));
  }
  corpus.close();
});

test("a kind of few matches read once and split by its titles lists what FTS5 asked for each of its two tiers lists", async () => {
  const corpus = databaseOf(generateCorpus({ count: 2500, seed: 6 }));
  const backend = new SqliteSearchBackend(corpus);
  let split = 0;
  let many = 0;
  for (const text of [
    "love truth",
    "love प्रेम",
    "heart प्रेम peace love",
    "river truth",
    "prem man kabir",
    "mind soul",
    "सच्चे मन से",
    "शांति ज्ञान",
    "a the",
    "truth peace",
  ]) {
    const { parsed, found } = await lookedUp(backend, text);
    for (const mode of ["all", "any"] as const) {
      const query = queryMatches(parsed.terms, found, mode);
      const tiers = tiersOf(query);
      for (const [k, kind] of kindsOf(query).entries()) {
        const whole = await kindTiers(backend, query, kind, titleTest(query));
        if (whole === null) {
          many++;
          continue;
        }
        const asked = await Promise.all(
          [tiers[2 * k]!, tiers[2 * k + 1]!].map(
            async (tier) => (await tierRows(backend, tier, query, 0, RANK_WINDOW + 1)).rows,
          ),
        );
        expect(whole, `${text} (${mode}), kind ${k}`).toEqual(asked);
        if (asked[0]!.length > 0 && asked[1]!.length > 0) split++;
      }
    }
  }
  corpus.close();
  // Kinds split into two tiers both holding posts, and kinds too many to split.
  expect(split).toBeGreaterThan(3);
  expect(many).toBeGreaterThan(3);
});

test("leaving out the alternatives no post holds changes no search's pages", async () => {
  const corpus = databaseOf(generateCorpus({ count: 2500, seed: 4 }));
  const backend = new SqliteSearchBackend(corpus);
  // The same backend without knownWords: every alternative kept in the matches.
  const unfiltered = without(backend, "knownWords");
  const compared = await samePages(
    unfiltered,
    backend,
    [
      "love",
      "prem",
      "love truth प्रेम सत्य",
      "heart प्रेम peace love",
      "shanti gyan",
      "bhakti",
      "tulsdas love",
      "मन",
      "kabir river",
      "zzzq love",
    ],
    [1, 2, 9],
  );
  corpus.close();
  expect(compared).toBeGreaterThan(300);
});
