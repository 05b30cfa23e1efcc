// Decision 035: `npx sukti import|seed|generate` against PostgreSQL, with the
// guarantees they have on SQLite: the whole file checked first, one
// transaction, nothing changed on rejection, idempotent re-import. Run as a
// user runs them (a child process with DATABASE_URL); checked by exit code,
// output and the database itself.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CliResult, runSukti } from "#tests/support/cli.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures");
const available = postgresAvailable();

describe.skipIf(!available)("sukti on PostgreSQL", () => {
  let postgres: TestPostgres;
  let dir: string;

  beforeAll(async () => {
    postgres = await sharedPostgres();
    dir = mkdtempSync(path.join(tmpdir(), "sukti-cli-pg-"));
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `sukti …` on `url`, in this process (tests/support/cli.ts). */
  const sukti = (url: string, ...args: string[]): Promise<CliResult> =>
    runSukti(args, { DATABASE_URL: url, SUKTI_DEBUG: "" });
  /** …and as its own process, for the one case where a real exit matters (a database that is down). */
  const suktiProcess = (url: string, ...args: string[]): SpawnSyncReturns<string> =>
    spawnSync(process.execPath, [path.join(ROOT, "bin/sukti.js"), ...args], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: url, SUKTI_DEBUG: "" },
      encoding: "utf8",
    });

  /** Every post and page, as rows: what "nothing changed" compares. */
  async function snapshot(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const posts = await client.query(
        "SELECT language, id_num, status, post_time, title, slug, content, excerpt FROM posts ORDER BY language, slug",
      );
      const terms = await client.query(
        "SELECT p.slug, t.kind, t.slug AS term FROM post_terms pt JOIN posts p ON p.id = pt.post_id JOIN terms t ON t.id = pt.term_id ORDER BY 1, 2, 3",
      );
      const pages = await client.query("SELECT slug, title, content FROM pages ORDER BY slug");
      const documents = await client.query("SELECT count(*)::int AS n FROM search_documents");
      return { posts: posts.rows, terms: terms.rows, pages: pages.rows, documents: documents.rows[0].n };
    } finally {
      await client.end();
    }
  }

  test("imports WordPress, JSON and NDJSON; a second run changes nothing", async () => {
    for (const [i, file] of ["wordpress-export.xml", "original-export.json", "posts.ndjson"].entries()) {
      const url = await postgres.createDatabase(`cli_import_${i}`);
      const first = await sukti(url, "import", path.join(FIXTURES, file), "--language", "hindi");
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/posts: [\d,]+ created/);
      const before = await snapshot(url);
      const again = await sukti(url, "import", path.join(FIXTURES, file), "--language", "hindi");
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/posts: 0 created, 0 updated, [\d,]+ unchanged/);
      expect(await snapshot(url)).toEqual(before);
    }
  });

  test("an invalid file is rejected whole, naming the record; a dry run writes nothing", async () => {
    const url = await postgres.createDatabase("cli_reject");
    expect((await sukti(url, "seed")).status).toBe(0);
    const before = await snapshot(url);
    const file = path.join(dir, "bad.json");
    const good = { idNum: 990_002, language: "english", status: "publish", postTime: 1_700_000_000 };
    writeFileSync(
      file,
      JSON.stringify({
        posts: [
          { ...good, title: "Fine", slug: "fine-one", content: "<p>fine</p>" },
          // No title field at all (a blank one would be made from the content, decision 054).
          { ...good, idNum: 990_003, slug: "broken-one", content: "<p>x</p>" },
        ],
      }),
    );
    const rejected = await sukti(url, "import", file);
    expect(rejected.status).toBe(1);
    expect(rejected.stderr).toContain("broken-one");
    expect(rejected.stderr).toContain("the database was not changed");
    expect(rejected.stderr).not.toMatch(/^\s+at /m);
    expect(await snapshot(url)).toEqual(before);

    const dry = path.join(dir, "dry.json");
    writeFileSync(
      dry,
      JSON.stringify({
        posts: [{ ...good, idNum: 990_001, title: "Dry", slug: "dry-one", content: "<p>d</p>" }],
      }),
    );
    const dryRun = await sukti(url, "import", dry, "--dry-run");
    expect(dryRun.status, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain("1 would be created");
    expect(await snapshot(url)).toEqual(before);
  });

  test("a dry run on an empty database reports what it would create and leaves the database empty", async () => {
    const url = await postgres.createDatabase("cli_dry_empty");
    const tables = async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
        );
        return rows.map((row) => row.name);
      } finally {
        await client.end();
      }
    };
    expect(await tables()).toEqual([]);
    const dryRun = await sukti(
      url,
      "import",
      path.join(FIXTURES, "posts.ndjson"),
      "--language",
      "hindi",
      "--dry-run",
    );
    expect(dryRun.status, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toMatch(/[1-9][\d,]* would be created/);
    expect(await tables()).toEqual([]);
    // The real run afterwards migrates and writes.
    const real = await sukti(url, "import", path.join(FIXTURES, "posts.ndjson"), "--language", "hindi");
    expect(real.status, real.stderr).toBe(0);
    expect(await tables()).toContain("posts");
  });

  test("seed fills an empty database once and refuses one with other content unless --force", async () => {
    const url = await postgres.createDatabase("cli_seed");
    const seeded = await sukti(url, "seed");
    expect(seeded.status, seeded.stderr).toBe(0);
    const once = await snapshot(url);
    expect(once.posts.length).toBeGreaterThan(100);
    expect((await sukti(url, "seed")).stdout).toMatch(/0 created, 0 updated/);
    const other = path.join(dir, "other.json");
    writeFileSync(
      other,
      JSON.stringify({
        posts: [
          {
            idNum: 5000,
            language: "english",
            status: "publish",
            postTime: 1,
            title: "Mine",
            slug: "mine",
            content: "<p>m</p>",
          },
        ],
      }),
    );
    expect((await sukti(url, "import", other)).status).toBe(0);
    const refused = await sukti(url, "seed");
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("--force");
    expect((await sukti(url, "seed", "--force")).status).toBe(0);
  });

  test("generate's corpus imports; a database that is down is one line, without the password", async () => {
    const url = await postgres.createDatabase("cli_generate");
    const corpus = path.join(dir, "corpus.ndjson");
    expect((await sukti(url, "generate", "--count", "300", "--out", corpus)).status).toBe(0);
    const imported = await sukti(url, "import", corpus);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("300 created");

    const down = suktiProcess("postgres://sukti:hunter2@127.0.0.1:1/nowhere", "import", corpus);
    expect(down.status).toBe(1);
    expect(down.stderr.trim().split("\n")).toHaveLength(1);
    expect(down.stderr).not.toContain("hunter2");
  });
});
