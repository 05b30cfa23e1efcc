import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, test } from "vitest";
import { type CliResult, runSukti } from "#tests/support/cli.ts";

// `sukti` run as a user runs it: a child process, with DATABASE_URL, checked
// by exit code, output and the database file itself.

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "tests/fixtures");

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-cli-"));
  dbPath = path.join(dir, "sukti.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `sukti …` on this test's database, in this process (tests/support/cli.ts). */
function sukti(...args: string[]): Promise<CliResult> {
  return runSukti(args, { DATABASE_URL: `file:${dbPath}`, SUKTI_DEBUG: "" });
}

/** `sukti …` as its own process (bin/sukti.js), for what only a real process shows: exit codes, a concurrent writer. */
function suktiProcess(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [path.join(ROOT, "bin/sukti.js"), ...args], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: `file:${dbPath}`, SUKTI_DEBUG: "" },
    encoding: "utf8",
  });
}

function expectOk(result: CliResult | SpawnSyncReturns<string>): string {
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** Exit 1, no stack trace, and every expected fragment in stderr. */
function expectRejected(result: CliResult | SpawnSyncReturns<string>, ...fragments: string[]): void {
  expect(result.status, result.stdout + result.stderr).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  for (const fragment of fragments) expect(result.stderr).toContain(fragment);
}

/** Deletes the database with its WAL and shared-memory files, so the next command starts afresh. */
function removeDb(): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${dbPath}${suffix}`, { force: true });
}

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function db() {
  return new Database(dbPath, { readonly: true, fileMustExist: true });
}

function query<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T[] {
  const handle = db();
  try {
    return handle.prepare(sql).all(...params) as T[];
  } finally {
    handle.close();
  }
}

/** The database as bytes (main file and WAL) and as rows, to prove a failure changed nothing. */
function snapshot() {
  // An absent WAL and an empty one are the same database; a WAL with frames is compared byte for byte.
  const hash = (file: string) =>
    existsSync(file) && statSync(file).size > 0
      ? createHash("sha256").update(readFileSync(file)).digest("hex")
      : null;
  const tables = ["posts", "terms", "post_terms", "pages"];
  return {
    file: hash(dbPath),
    wal: hash(`${dbPath}-wal`),
    rows: Object.fromEntries(tables.map((t) => [t, query(`SELECT * FROM ${t} ORDER BY 1, 2`)])),
  };
}

const WXR = path.join(FIXTURES, "wordpress-export.xml");
const wxrText = () => readFileSync(WXR, "utf8");

test("imports WordPress's export: posts, pages, drafts, Devanagari slugs, featured images, terms", async () => {
  const out = expectOk(await sukti("import", WXR));
  expect(out).toContain("imported");
  expect(out).toContain("posts: 8 created, 0 updated, 0 unchanged");
  expect(out).toContain("pages: 1 created, 0 updated, 0 unchanged");
  expect(out).toContain(
    "skipped: 4 (2 attachment (used for featured images); 1 page with status draft; 1 post_type nav_menu_item)",
  );
  // The password-protected post is stored, unpublished (decision 054).
  expect(out).toContain("not published: 4 (2 draft; 1 password-protected; 1 pending)");
  const posts = query<Record<string, string | number>>(
    "SELECT language, id_num, status, post_time, title, slug, feature_image_url, excerpt FROM posts ORDER BY id_num",
  );
  expect(posts.map((p) => [p.id_num, p.language, p.status, p.slug])).toEqual([
    [12, "hindi", "publish", "प्रेम-गली-अति-साँकरी"],
    [13, "marathi", "publish", "तुका-म्हणे"],
    [14, "english", "publish", "arise-awake"],
    [15, "hindi", "draft", "मन-चंगा-तो-कठौती-में-गंगा"],
    [16, "english", "draft", "notes-for-a-talk"],
    [17, "english", "pending", "notes-for-a-talk-2"],
    [18, "english", "publish", "be-the-change"],
    [19, "english", "private", "members-only"],
  ]);
  // The attachment of post 13 comes after it in the file.
  expect(posts[0]!.feature_image_url).toBe(
    "https://santvani.example.org/wp-content/uploads/2023/05/kabir-card.jpg",
  );
  expect(posts[1]!.feature_image_url).toBe(
    "https://santvani.example.org/wp-content/uploads/2023/06/tukaram-card.jpg",
  );
  expect(posts[0]!.post_time).toBe(Date.UTC(2023, 4, 6, 4, 12) / 1000);
  // Draft: zero GMT date, so wp:post_date 2024-03-10 09:30 in Asia/Kolkata (UTC+5:30).
  expect(posts[3]!.post_time).toBe(Date.UTC(2024, 2, 10, 4, 0) / 1000);
  expect(posts[1]!.excerpt).toBe("वृक्षवल्ली आम्हा सोयरी वनचरें।");
  expect(posts[2]!.excerpt).toBe("Arise, awake & stop not till the goal is reached.");
  const terms = query<{ slug: string; kind: string; name: string }>(
    `SELECT p.slug, t.kind, t.name FROM post_terms pt JOIN posts p ON p.id = pt.post_id
     JOIN terms t ON t.id = pt.term_id ORDER BY p.id_num, t.kind, t.name`,
  );
  expect(terms.map((t) => `${t.slug} ${t.kind}:${t.name}`)).toEqual([
    "प्रेम-गली-अति-साँकरी category:दोहे",
    "प्रेम-गली-अति-साँकरी tag:प्रेम",
    "तुका-म्हणे tag:निसर्ग",
    "तुका-म्हणे tag:प्रेम",
    "arise-awake category:Teachings",
    "arise-awake tag:Courage",
    "arise-awake tag:Faith & Hope",
  ]);
  const [kabir] = query<{ content: string }>("SELECT content FROM posts WHERE id_num = 12");
  expect(kabir!.content).toContain("<p>प्रेम गली अति साँकरी, तामें दो न समाहिं।<br />");
  expect(kabir!.content).not.toContain("script");
  const [vivekananda] = query<{ content: string }>("SELECT content FROM posts WHERE id_num = 14");
  expect(vivekananda!.content).toContain("<ul>\n<li>a <strong>heart</strong> to feel,</li>");
  expect(query("SELECT slug, title FROM pages")).toEqual([
    { slug: "privacy-policy", title: "Privacy Policy" },
  ]);
  // Published posts only: the Hindi draft at 15 is not counted (decision 003).
  expect(query("SELECT * FROM website")).toEqual([{ max_id_eng: 18, max_id_hin: 12, max_id_mr: 13 }]);

  const before = snapshot();
  expect(expectOk(await sukti("import", WXR))).toContain("posts: 0 created, 0 updated, 8 unchanged");
  expect(snapshot()).toEqual(before);
});

test("--language decides posts that name no language; the channel's <language> is the last resort", async () => {
  expectOk(await sukti("import", WXR, "--language", "marathi"));
  expect(query("SELECT language FROM posts WHERE id_num = 18")).toEqual([{ language: "marathi" }]);
  expect(query("SELECT language FROM posts WHERE id_num = 12")).toEqual([{ language: "hindi" }]);
});

test("imports JSON (an export of the posts collection), NDJSON and every documented example", async () => {
  const out = expectOk(await sukti("import", path.join(FIXTURES, "original-export.json")));
  expect(out).toContain("posts: 4 created");
  expect(query("SELECT language, id_num, status, post_time FROM posts ORDER BY id_num")).toEqual([
    { language: "english", id_num: 101, status: "publish", post_time: 1672531200 },
    { language: "english", id_num: 102, status: "publish", post_time: 1672617600 },
    { language: "hindi", id_num: 201, status: "publish", post_time: 1672704000 },
    { language: "marathi", id_num: 301, status: "private", post_time: 1672790400 },
  ]);
  expect(query("SELECT name FROM terms WHERE kind = 'tag' ORDER BY name").map((t) => t.name)).toEqual([
    "Karma",
    "Meditation",
    "Peace",
    "आत्मचिंतन",
    "करुणा",
  ]);
  expect(expectOk(await sukti("import", path.join(FIXTURES, "posts.ndjson")))).toContain("posts: 4 created");
  expect(query("SELECT count(*) AS n FROM posts")).toEqual([{ n: 8 }]);
  removeDb();
  for (const example of ["posts.json", "posts.ndjson", "wordpress-export.xml"]) {
    expectOk(await sukti("import", path.join(ROOT, "examples", example)));
  }
  expect(query("SELECT count(*) AS n FROM posts")).toEqual([{ n: 8 }]);
});

test("each invalid file is rejected whole, naming the record and field, and the database is unchanged", async () => {
  expectOk(await sukti("import", path.join(FIXTURES, "posts.ndjson")));
  const before = snapshot();
  const good = JSON.parse(readFileSync(path.join(FIXTURES, "posts.ndjson"), "utf8").split("\n")[0]!);
  const line = (overrides: Record<string, unknown>) => JSON.stringify({ ...good, ...overrides });
  const cases: [string, string, string[]][] = [
    [
      "missing.ndjson",
      `${line({ slug: "fresh", idNum: 50 })}\n${line({ slug: "x", idNum: 51, title: undefined })}\n`,
      ['line 2 [idNum 51, slug "x"]: title: is missing'],
    ],
    [
      "language.json",
      JSON.stringify({ posts: [{ ...good, slug: "y", idNum: 52, language: "german" }] }),
      ['posts[0] (line 1) [idNum 52, slug "y"]: language: unknown language "german"'],
    ],
    [
      "idnum.ndjson",
      line({ slug: "z", idNum: "twelve" }),
      ['line 1 [idNum twelve, slug "z"]: idNum: must be a number, not "twelve"'],
    ],
    [
      "duplicate.json",
      JSON.stringify([
        { ...good, slug: "first", idNum: 60 },
        { ...good, slug: "second", idNum: 60 },
      ]),
      ['[1] (line 1) [english "second", idNum 60]: idNum: english idNum 60 is also [0] (line 1) ("first")'],
    ],
    [
      "reserved.ndjson",
      line({ slug: "feed.xml", idNum: 61 }),
      ['line 1 [idNum 61, slug "feed.xml"]: slug: "feed.xml" is reserved by a route'],
    ],
    ["broken.json", `[${line({ slug: "w", idNum: 62 })},\n{"idNum": 63,`, ["invalid JSON at line 2"]],
    [
      "conflict.ndjson",
      line({ slug: "other", idNum: 1 }),
      ['idNum: english idNum 1 is held in the database by post "silence", which this file does not include'],
    ],
    ["unparsable.xml", wxrText().slice(0, 9000), ["invalid XML at line"]],
    [
      "idnum.xml",
      wxrText().replace("<wp:post_id>14</wp:post_id>", "<wp:post_id>fourteen</wp:post_id>"),
      ['item 4 (wp:post_id fourteen) [slug "arise-awake"]: idNum: must be a number, not "fourteen"'],
    ],
    [
      "reserved.xml",
      wxrText().replace("<![CDATA[be-the-change]]>", "<![CDATA[home]]>"),
      ['item 8 (wp:post_id 18) [slug "home"]: slug: "home" is reserved by a route'],
    ],
  ];
  for (const [name, text, fragments] of cases) {
    const result = await sukti("import", write(name, text));
    expectRejected(result, ...fragments, "was rejected", "the database was not changed");
    expect(snapshot(), name).toEqual(before);
  }
});

test("--dry-run validates and reports without writing", async () => {
  expectOk(await sukti("import", path.join(FIXTURES, "posts.ndjson")));
  const before = snapshot();
  const out = expectOk(await sukti("import", WXR, "--dry-run"));
  expect(out).toContain("dry run");
  expect(out).toContain("posts: 8 would be created, 0 would be updated, 0 unchanged");
  expect(snapshot()).toEqual(before);
  expectRejected(
    await sukti("import", write("bad.ndjson", '{"idNum": 1}'), "--dry-run"),
    "line 1 [idNum 1]: language: is missing",
  );
  expect(snapshot()).toEqual(before);
  removeDb();
  expectOk(await sukti("import", WXR, "--dry-run"));
  expect(existsSync(dbPath)).toBe(false);
});

test("seed loads the demo into an empty database and refuses one with other content unless --force", async () => {
  expect(expectOk(await sukti("seed"))).toMatch(/posts: \d+ created, 0 updated, 0 unchanged/);
  const count = query<{ n: number }>("SELECT count(*) AS n FROM posts")[0]!.n;
  expect(count).toBeGreaterThan(100);
  expect(expectOk(await sukti("seed"))).toContain(`posts: 0 created, 0 updated, ${count} unchanged`);
  removeDb();
  expectOk(await sukti("import", path.join(FIXTURES, "posts.ndjson")));
  const before = snapshot();
  const refused = await sukti("seed");
  expectRejected(refused, "pages that are not demo content", "--force");
  expect(refused.stderr).toMatch(/already holds [1-4] posts and 0 pages/);
  expect(snapshot()).toEqual(before);
  expectRejected(await sukti("seed", "--force"), "is held in the database by post");
  expect(snapshot()).toEqual(before);
});

test("generate writes the same corpus for the same seed, in JSON or NDJSON, and it imports", async () => {
  const a = path.join(dir, "a.ndjson");
  const b = path.join(dir, "b.ndjson");
  expectOk(await sukti("generate", "--count", "300", "--seed", "42", "--out", a));
  expectOk(await sukti("generate", "--count", "300", "--seed", "42", "--out", b));
  expect(readFileSync(a, "utf8")).toBe(readFileSync(b, "utf8"));
  const lines = readFileSync(a, "utf8").trim().split("\n");
  expect(lines).toHaveLength(300);
  expect(new Set(lines.map((l) => JSON.parse(l).language))).toEqual(new Set(["english", "hindi", "marathi"]));
  const json = JSON.parse(
    expectOk(await sukti("generate", "--count", "5", "--seed", "42", "--format", "json")),
  );
  const ndjson = expectOk(await sukti("generate", "--count", "5", "--seed", "42", "--format", "ndjson"));
  expect(
    ndjson
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l)),
  ).toEqual(json);
  expect(expectOk(await sukti("import", a))).toContain("posts: 300 created");
});

test("usage mistakes are one line and exit 2; help exits 0", async () => {
  for (const args of [
    ["import"],
    ["import", "a", "b"],
    ["import", "x.json", "--bogus"],
    ["frobnicate"],
    ["generate"],
    ["import", "x", "--format", "csv"],
    ["import", "x", "--language", "german"],
  ]) {
    const result = await sukti(...args);
    expect(result.status, args.join(" ")).toBe(2);
    expect(result.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
  }
  expect(expectOk(await sukti("import", "--help"))).toContain("--dry-run");
  expect(await sukti("import", path.join(dir, "nope.json"))).toMatchObject({
    status: 1,
    stderr: `sukti: cannot read ${path.join(dir, "nope.json")}: no such file\n`,
  });
  // The same through a real process: its exit code and nothing but the one line.
  const usage = suktiProcess("import", "a", "b");
  expect(usage.status).toBe(2);
  expect(usage.stderr.trim().split("\n")).toHaveLength(1);
  expect(expectOk(suktiProcess("--help"))).toContain("sukti import FILE");
  const missing = suktiProcess("import", "nope.json");
  expect(missing.status).toBe(1);
  expect(missing.stderr).toBe("sukti: cannot read nope.json: no such file\n");
  const pg = spawnSync(process.execPath, [path.join(ROOT, "bin/sukti.js"), "seed"], {
    env: { ...process.env, DATABASE_URL: "postgres://x" },
    encoding: "utf8",
  });
  // PostgreSQL is supported: an unreachable server is one line, exit 1.
  expect(pg.status).toBe(1);
  expect(pg.stderr.trim().split("\n")).toHaveLength(1);
});

test("a reader during an import sees the old content or the new, never part of it", async () => {
  expectOk(
    await sukti(
      "import",
      write(
        "one.ndjson",
        JSON.stringify({
          ...JSON.parse(readFileSync(path.join(FIXTURES, "posts.ndjson"), "utf8").split("\n")[0]!),
          idNum: 999_999,
        }),
      ),
    ),
  );
  const corpus = path.join(dir, "corpus.ndjson");
  expectOk(await sukti("generate", "--count", "3000", "--out", corpus));
  const reader = db();
  const count = reader.prepare("SELECT count(*) FROM posts").pluck();
  const seen = new Set<number>();
  const child = spawn(process.execPath, [path.join(ROOT, "bin/sukti.js"), "import", corpus], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: `file:${dbPath}` },
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let done = false;
  void exited.then(() => (done = true));
  while (!done) {
    seen.add(count.get() as number);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  expect(await exited).toBe(0);
  seen.add(count.get() as number);
  reader.close();
  expect([...seen].sort((a, b) => a - b)).toEqual([1, 3001]);
});
