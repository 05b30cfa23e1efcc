// PostgreSQL stopped while `sukti import` writes to it. The
// command must end as it does on SQLite: one line on stderr, a non-zero exit
// code, the database as it was; not an unhandled "error" event from pg with
// a raw stack. A real server (tests/support/postgres.ts, its own: it is
// stopped mid-test) and the command as its own process (bin/sukti.js).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "#tests/support/postgres.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

describe.skipIf(!postgresAvailable())("PostgreSQL gone mid-import", () => {
  let postgres: TestPostgres | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-pg-lost-"));
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function snapshot(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const posts = await client.query(
        "SELECT language, id_num, slug, title, content FROM posts ORDER BY id",
      );
      const counts = await client.query(
        "SELECT (SELECT count(*) FROM terms)::int AS terms, (SELECT count(*) FROM search_documents)::int AS documents, (SELECT count(*) FROM search_words)::int AS words",
      );
      return { posts: posts.rows, counts: counts.rows[0] };
    } finally {
      await client.end();
    }
  }

  test("one line on stderr, a non-zero exit code, and the database unchanged", async () => {
    const server = postgres as TestPostgres;
    const url = await server.createDatabase("import_lost");
    // A database holding a post before the import.
    const first = path.join(dir, "first.ndjson");
    writeFileSync(
      first,
      JSON.stringify({
        idNum: 900_000,
        language: "english",
        status: "publish",
        postTime: 1_700_000_000,
        title: "Already here",
        slug: "already-here",
        content: "<p>Already here</p>",
        tags: ["kept"],
      }),
    );
    const seeded = await runSukti(["import", first], { DATABASE_URL: url, SUKTI_DEBUG: "" });
    expect(seeded.status, seeded.stderr).toBe(0);
    const before = await snapshot(url);

    // Big enough that the import is still writing when the server stops (progress lines show when).
    const corpus = path.join(dir, "corpus.ndjson");
    const generated = await runSukti(["generate", "--count", "20000", "--out", corpus]);
    expect(generated.status, generated.stderr).toBe(0);

    const child = spawn(process.execPath, [path.join(ROOT, "bin/sukti.js"), "import", corpus], {
      cwd: dir,
      env: { ...process.env, DATABASE_URL: url, SUKTI_DEBUG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void exited.then((code) => {
      exitCode = code;
    });
    try {
      // Writing has begun (a progress line of the second pass): stop the server under it.
      const deadline = Date.now() + READY_MS;
      while (!/^writing: \d+%/m.test(stderr) && exitCode === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(stderr, "the import never reached its writing phase").toMatch(/^writing: \d+%/m);
      await server.pause();
      const code = await exited;
      expect(code, stderr).not.toBe(0);
      expect(code).not.toBeNull();
    } finally {
      child.kill("SIGKILL");
      await server.resume();
    }

    const progress = /^(validating|writing): \d+% \(|^validated [\d,]+ records/;
    const lines = stderr.split("\n").filter((line) => line !== "" && !progress.test(line));
    expect(lines, stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^sukti: lost the database postgres:\/\/.*; nothing was imported, the database was not changed$/,
    );
    expect(stderr).not.toMatch(/node_modules|\n\s+at /);
    expect(stdout).toBe("");
    expect(await snapshot(url)).toEqual(before);
  });
});
