// How PostgreSQL's search finds its matches (decision 100): a count walks the
// newest documents, then asks the GIN index for the older matches; the
// lexemes' frequencies from PostgreSQL's statistics tell it when to walk; a
// search's skeleton ranges go in one statement. Each answer is checked
// against the plain statement it replaces, on a corpus of 2,500 posts.
import { readFileSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { LexemeStatistics } from "#app/data/postgres/lexeme-frequencies.server.ts";
import { migratePostgres } from "#app/data/postgres/migrate.server.ts";
import { createPool } from "#app/data/postgres/pool.server.ts";
import { densityBound, PostgresSearchBackend, tsqueryOf } from "#app/data/postgres/search.server.ts";
import { projectRoot } from "#app/data/project-root.server.ts";
import { both, combine, inColumn, type Match, termMatch, without } from "#app/search/query-model.ts";
import { generateCorpus } from "#cli/generate.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { writeContentPostgres } from "#tests/support/postgres-writes.ts";

const word = (w: string) => termMatch({ words: [w], prefix: null });
const words = (...ws: string[]) => termMatch({ words: ws, prefix: null });

test("a match's density is at most its parts' sum (OR), its rarest part (AND), what a NOT keeps", () => {
  const shares: Record<string, number> = { a: 0.5, b: 0.25, c: 0.125, "t:a": 0.0625 };
  const share = (lexeme: string) => shares[lexeme] ?? 0.01;
  expect(densityBound(word("a"), share)).toBe(0.5);
  expect(densityBound(words("a", "b"), share)).toBe(0.75);
  expect(densityBound(words("a", "b", "c", "a", "b"), share)).toBe(1);
  expect(densityBound(combine([word("a"), word("c")], "all"), share)).toBe(0.125);
  expect(densityBound(combine([word("b"), word("c")], "any"), share)).toBe(0.375);
  expect(densityBound(without(word("a"), word("b")), share)).toBe(0.5);
  expect(densityBound(both(word("b"), word("c")), share)).toBe(0.125);
  // A column's words are its marked lexemes; a lexeme the statistics do not list, their floor.
  expect(densityBound(inColumn("title", word("a")), share)).toBe(0.0625);
  expect(densityBound(both(word("a"), inColumn("title", words("a", "zz"))), share)).toBe(0.0725);
  // A prefix may be any lexeme: no bound.
  expect(densityBound(termMatch({ words: ["c"], prefix: "c" }), share)).toBe(1);
});

describe.skipIf(!postgresAvailable())("PostgreSQL search's walk, statistics and batched lookups", () => {
  let server: TestPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    server = await sharedPostgres();
    pool = createPool(await server.createDatabase("search_walk"));
    await migratePostgres(pool);
    await writeContentPostgres(pool, { posts: generateCorpus({ count: 2500, seed: 5 }), pages: [] });
    await pool.query("ANALYZE search_documents");
  });

  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  const MATCHES: [string, Match][] = [
    ["a common word", words("love", "प्रेम")],
    ["a word", word("truth")],
    ["two words", combine([word("love"), word("peace")], "all")],
    ["a title tier", both(word("love"), inColumn("title", words("love", "प्रेम")))],
    ["the rest of a tier", without(word("love"), inColumn("title", word("love")))],
    ["a word no post holds", word("zzzqqq")],
  ];

  async function matching(match: Match): Promise<number> {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*) AS n FROM search_documents WHERE document @@ $1::tsquery",
      [tsqueryOf(match)],
    );
    return rows[0]!.n;
  }

  test("a count walked, then asked of the index, is the plain count at every budget and limit", async () => {
    const { rows } = await pool.query<{ n: number }>("SELECT count(*) AS n FROM search_documents");
    const documents = rows[0]!.n;
    expect(documents).toBeGreaterThan(2000);
    let throughTheIndex = 0;
    for (const [label, match] of MATCHES) {
      const all = await matching(match);
      for (const budget of [0, 1, 37, 400, documents - 1, documents, documents + 10]) {
        // No statistics: a count with a limit walks its whole budget first.
        const backend = new PostgresSearchBackend(pool, undefined, {
          countWalk: budget,
        });
        for (const limit of [1, 24, 301, 1001, undefined]) {
          const expected = limit === undefined ? all : Math.min(all, limit);
          expect(await backend.count(match, limit), `${label}, budget ${budget}, limit ${limit}`).toBe(
            expected,
          );
        }
      }
      // Some counts end in the index's older matches: the walk's budget ran out short of the limit.
      const { rows: walked } = await pool.query<{ n: number }>(
        `SELECT count(*) AS n FROM (SELECT document FROM search_documents ORDER BY post_id DESC LIMIT 400) r
          WHERE document @@ $1::tsquery`,
        [tsqueryOf(match)],
      );
      if (walked[0]!.n < Math.min(all, 1001)) throughTheIndex++;
    }
    expect(throughTheIndex).toBeGreaterThanOrEqual(4);
  });

  test("every document holds its post's language, once, and the migration gives it to documents without", async () => {
    const wrong = async () =>
      (
        await pool.query<{ n: number }>(
          `SELECT count(*) AS n FROM search_documents d JOIN posts p ON p.id = d.post_id
            WHERE NOT d.document @@ quote_literal('l:' || p.language)::tsquery
              OR cardinality(array(SELECT l FROM unnest(tsvector_to_array(d.document)) l WHERE l LIKE 'l:%')) <> 1`,
        )
      ).rows[0]!.n;
    expect(await wrong()).toBe(0);
    // A post written again (another language's post under its translation key, its text changed) keeps it.
    const [post] = generateCorpus({ count: 1, seed: 5 });
    await writeContentPostgres(pool, {
      posts: [{ ...post!, content: `${post!.content}<p>again</p>` }],
      pages: [],
    });
    expect(await wrong()).toBe(0);
    // Documents written before decision 101 had none: the migration adds it.
    await pool.query(`UPDATE search_documents d SET document = ts_delete(d.document, 'l:' || p.language)
      FROM posts p WHERE p.id = d.post_id AND p.id % 3 = 0`);
    expect(await wrong()).toBeGreaterThan(100);
    const migration = readFileSync(
      path.join(projectRoot(), "db/postgres/migrations/20261210000000_search_documents_language.sql"),
      "utf8",
    );
    await pool.query(migration);
    expect(await wrong()).toBe(0);
  });

  test("in one language, the newest matches walked then asked of the index are the plain statement's", async () => {
    const { rows } = await pool.query<{ n: number }>("SELECT count(*) AS n FROM search_documents");
    const documents = rows[0]!.n;
    const tests = [word("peace"), inColumn("title", word("love")), inColumn("tags", words("love", "प्रेम"))];
    // The newest document a walk of 400 does not reach.
    const pastTheWalk = (
      await pool.query<{ id: number }>(
        "SELECT post_id AS id FROM search_documents ORDER BY post_id DESC OFFSET 400 LIMIT 1",
      )
    ).rows[0]!.id;
    let throughTheIndex = 0;
    for (const language of ["english", "hindi"] as const) {
      for (const [label, match] of MATCHES) {
        const plain = async (limit: number) =>
          (
            await pool.query<{ id: number }>(
              `SELECT d.post_id AS id FROM search_documents d JOIN posts p ON p.id = d.post_id
                WHERE d.document @@ $1::tsquery AND p.language = $2 ORDER BY d.post_id DESC LIMIT $3`,
              [tsqueryOf(match), language, limit],
            )
          ).rows.map((row) => row.id);
        const passes = async (id: number) =>
          Promise.all(
            tests.map(
              async (test) =>
                (
                  await pool.query<{ ok: boolean }>(
                    "SELECT document @@ $1::tsquery AS ok FROM search_documents WHERE post_id = $2",
                    [tsqueryOf(test), id],
                  )
                ).rows[0]!.ok,
            ),
          );
        for (const budget of [0, 1, 37, 400, documents + 10]) {
          const backend = new PostgresSearchBackend(pool, language, { newestWalk: budget });
          for (const limit of [1, 24, 301]) {
            const expected = await plain(limit);
            const what = `${label} in ${language}, budget ${budget}, limit ${limit}`;
            expect(await backend.newest(match, limit), what).toEqual(expected);
            const tested = await backend.newestTested(match, limit, tests);
            expect(
              tested.map((row) => row.id),
              what,
            ).toEqual(expected);
            for (const row of tested.slice(0, 3))
              expect(row.passed, `${what}: ${row.id}`).toEqual(await passes(row.id));
            if (budget === 400 && limit === 301 && expected.length > 0 && expected.at(-1)! <= pastTheWalk)
              throughTheIndex++;
          }
        }
      }
    }
    // Some windows reach past the walk's budget, into the index's older matches.
    expect(throughTheIndex).toBeGreaterThanOrEqual(4);
  });

  test("the statistics give each lexeme its share of the documents", async () => {
    const frequencies = await new LexemeStatistics(pool).frequencies();
    expect(frequencies).not.toBeNull();
    const { rows } = await pool.query<{ n: number }>("SELECT count(*) AS n FROM search_documents");
    for (const lexeme of ["love", "truth", "peace", "t:love"]) {
      const share = (await matching(word(lexeme))) / rows[0]!.n;
      expect(share, lexeme).toBeGreaterThan(0.01);
      // ANALYZE samples at most 30,000 rows: here it reads every one.
      expect(Math.abs(frequencies!.of(lexeme) - share), lexeme).toBeLessThan(0.01);
    }
    expect(frequencies!.of("zzzqqq")).toBeLessThan(0.01);
  });

  test("a table never analysed has no statistics: the count walks, and is right", async () => {
    const empty = createPool(await server.createDatabase("search_walk_empty"));
    try {
      await migratePostgres(empty);
      expect(await new LexemeStatistics(empty).frequencies()).toBeNull();
    } finally {
      await empty.end();
    }
  });

  test("skeleton ranges asked at once are each what its own statement gives", async () => {
    const alone = async (from: string, to: string, limit: number) =>
      (
        await pool.query<{ word: string; exact: boolean }>(
          `SELECT w.word, min(length(s.skeleton)) = length($1) AS exact
            FROM search_skeletons s JOIN search_words w ON w.id = s.word_id
            WHERE s.skeleton >= $1 AND s.skeleton < $2
            GROUP BY w.id ORDER BY min(length(s.skeleton)), w.id LIMIT $3`,
          [from, to, limit],
        )
      ).rows;
    const { rows } = await pool.query<{ skeleton: string }>(
      "SELECT DISTINCT substr(skeleton, 1, 2) AS skeleton FROM search_skeletons ORDER BY 1 LIMIT 12",
    );
    const ranges = rows.map(({ skeleton }, i): [string, string, number] => [
      skeleton,
      `${skeleton}~`,
      3 + (i % 4) * 10,
    ]);
    ranges.push(["zzzz", "zzzz~", 40], [rows[0]!.skeleton, `${rows[0]!.skeleton}~`, 1]);
    const backend = new PostgresSearchBackend(pool);
    const together = await Promise.all(
      ranges.map(([from, to, limit]) => backend.skeletonRange(from, to, limit)),
    );
    let found = 0;
    for (const [i, [from, to, limit]] of ranges.entries()) {
      const expected = await alone(from, to, limit);
      found += expected.length;
      expect(together[i], from).toEqual(expected);
    }
    expect(found).toBeGreaterThan(20);
  });
});
