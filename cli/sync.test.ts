// `sukti sync` (decision 053) against recorded REST answers of a
// WordPress site served by a local stub (tests/support/wp-rest-stub.ts: the
// REMOTE site is the stand-in; our client, mapping, writer and SQLite are real).
// PostgreSQL: cli/sync-postgres.test.ts. A real WordPress: tests/integration/wordpress-sync.test.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { UserError } from "#cli/errors.ts";
import { type SyncOptions, syncSite } from "#cli/sync.ts";
import { runSukti } from "#tests/support/cli.ts";
import { PNG, startWpStub, type WpStub } from "#tests/support/wp-rest-stub.ts";

// Runs over loopback HTTP and a real database: generous on a busy machine (nothing here asserts on time).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let dir: string;
let dbFile: string;
let imageDir: string;
let site: WpStub;
const stubs: WpStub[] = [];

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-sync-"));
  dbFile = path.join(dir, "sukti.db");
  imageDir = path.join(dir, "images");
  site = await startWpStub();
  stubs.push(site);
});
afterEach(async () => {
  for (const stub of stubs.splice(0)) await stub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Fast retries for the fault tests; the CLI's own are seconds apart. */
const FAST = { backoffMs: 20, maxBackoffMs: 50, timeoutMs: 1_000, log: () => {} };

function sync(args: string[] = []) {
  return runSukti(["sync", site.url, "--language-category", "marathi=marathi-quotes", ...args], {
    DATABASE_URL: `file:${dbFile}`,
    SYNCED_IMAGE_DIR: imageDir,
  });
}

function options(extra: Partial<SyncOptions> = {}): SyncOptions {
  return {
    siteUrl: site.url,
    databaseUrl: `file:${dbFile}`,
    imageDir,
    languageCategories: { marathi: "marathi-quotes" },
    client: FAST,
    ...extra,
  };
}

function query<T>(sql: string): T[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Every table sync touches, as rows: equal before and after means nothing was written. */
function snapshot() {
  return [
    "SELECT * FROM posts ORDER BY id",
    "SELECT * FROM terms ORDER BY id",
    "SELECT * FROM post_terms ORDER BY post_id, term_id",
    "SELECT * FROM people ORDER BY id",
    "SELECT post_id, title, body FROM search_documents ORDER BY post_id",
    "SELECT * FROM sync_sources",
    "SELECT * FROM sync_posts ORDER BY wp_id",
  ].map((sql) => query(sql));
}

interface Row {
  id: number;
  language: string;
  idNum: number;
  slug: string;
  title: string;
  status: string;
  featureImageUrl: string;
  translationKey: string | null;
  excerpt: string;
}

function posts(): Row[] {
  return query<Row>(
    `SELECT id, language, id_num AS idNum, slug, title, status, feature_image_url AS featureImageUrl,
       translation_key AS translationKey, excerpt FROM posts ORDER BY id_num, language`,
  );
}

function post(idNum: number): Record<string, unknown> {
  const found = site.posts.find((p) => p.id === idNum);
  if (!found) throw new Error(`no post ${idNum}`);
  return found;
}

test("a first sync writes the site's posts, their languages, image and person; a second says nothing changed and writes nothing", async () => {
  const first = await sync();
  expect(first.stderr, first.stderr).toBe("");
  expect(first.status).toBe(0);
  const [summary, ...rest] = first.stdout.trim().split("\n");
  expect(summary).toMatch(
    new RegExp(
      `^sync ${site.url.replaceAll(".", "\\.")}: 4 created, 0 updated, 0 unpublished, 0 unchanged, 1 skipped in .*sukti\\.db; 1 image downloaded$`,
    ),
  );
  expect(rest).toEqual([
    'skipped: post 14 "be-still": language unknown: no Polylang or WPML language, no language category, and no --language',
  ]);
  const rows = posts();
  expect(rows.map((r) => [r.idNum, r.language, r.slug, r.title, r.status])).toEqual([
    [11, "english", "the-river-and-its-waves", "The river & its waves", "publish"],
    [12, "hindi", "दरिया-और-लहर", "दरिया और लहर", "publish"],
    [13, "marathi", "नदी", "नदी आणि लाटा", "publish"],
    [15, "marathi", "संत", "संत", "publish"],
  ]);
  // Polylang's group, by its lowest post id; a WordPress-made excerpt ("… […]") is none.
  expect(rows[1]?.translationKey).toBe("wp-11");
  expect(rows[0]?.excerpt).toBe("");
  expect(rows[2]?.excerpt).toBe("नदी आणि लाटा.");
  // The featured image, downloaded into SYNCED_IMAGE_DIR, served at /images/synced/.
  const image = rows[0]?.featureImageUrl ?? "";
  expect(image).toMatch(/^\/images\/synced\/127\.0\.0\.1_\d+\/101-[0-9a-f]{12}\.png$/);
  expect(readFileSync(path.join(imageDir, image.replace("/images/synced/", "")))).toEqual(PNG);
  // Categories that told the language are not kept; the author is the person; tags as for import.
  const terms = query<{ slug: string; name: string; kind: string }>(
    `SELECT t.kind, t.name, t.slug FROM post_terms pt JOIN terms t ON t.id = pt.term_id
     JOIN posts p ON p.id = pt.post_id WHERE p.id_num = 11 ORDER BY t.kind, t.slug`,
  );
  expect(terms.map((t) => `${t.kind}:${t.name}`)).toEqual(["category:Wisdom", "tag:Faith"]);
  expect(query<{ name: string }>("SELECT name_english AS name FROM people ORDER BY id")).toEqual([
    { name: "Kabir Das" },
    { name: "" },
  ]);
  expect(query<{ n: number }>("SELECT count(*) AS n FROM search_documents")[0]?.n).toBe(4);

  const before = snapshot();
  site.requests.length = 0;
  const second = await sync();
  expect(second.status).toBe(0);
  expect(second.stdout.split("\n")[0]).toBe(`sync ${site.url}: nothing changed (4 unchanged, 1 skipped)`);
  expect(snapshot()).toEqual(before);
  // Incremental: modified_after asked, the image not fetched again.
  expect(site.requests.some((r) => r.includes("modified_after="))).toBe(true);
  expect(site.requests.some((r) => r.includes("river.png"))).toBe(false);
});

test("an edit of title and slug updates the same post; a changed featured image is downloaded", async () => {
  await sync();
  const [before] = posts();
  Object.assign(post(11), {
    slug: "the-river-is-its-waves",
    title: { rendered: "The river is its waves" },
    modified_gmt: "2026-11-20T10:00:00",
    featured_media: 102,
  });
  const embedded = post(11)._embedded as { "wp:featuredmedia": Record<string, unknown>[] };
  embedded["wp:featuredmedia"] = [
    {
      id: 102,
      media_type: "image",
      mime_type: "image/png",
      source_url: `${site.url}/wp-content/uploads/2026/11/sea.png`,
    },
  ];
  site.files.set("/wp-content/uploads/2026/11/sea.png", { type: "image/png", body: PNG });
  const result = await sync();
  expect(result.stdout.split("\n")[0]).toMatch(
    /: 0 created, 1 updated, 0 unpublished, 3 unchanged, 1 skipped .*; 1 image downloaded$/,
  );
  const [after] = posts();
  expect(after?.id).toBe(before?.id);
  expect(after?.slug).toBe("the-river-is-its-waves");
  expect(after?.title).toBe("The river is its waves");
  expect(after?.featureImageUrl).toMatch(/\/102-[0-9a-f]{12}\.png$/);
  expect(query("SELECT 1 FROM posts WHERE slug = 'the-river-and-its-waves'")).toEqual([]);
});

test("a post gone from the published list (trashed, drafted, deleted) is unpublished within one run", async () => {
  await sync();
  post(13).status = "trash";
  site.posts.splice(site.posts.indexOf(post(15)), 1);
  const result = await sync();
  expect(result.stdout.split("\n")[0]).toMatch(
    /: 0 created, 0 updated, 2 unpublished, 2 unchanged, 1 skipped /,
  );
  const rows = posts();
  expect(rows.filter((r) => r.status === "publish").map((r) => r.idNum)).toEqual([11, 12]);
  expect(rows.filter((r) => r.status === "draft").map((r) => r.idNum)).toEqual([13, 15]);
  expect(query<{ n: number }>("SELECT count(*) AS n FROM search_documents")[0]?.n).toBe(2);
  // Back on the site: published again.
  post(13).status = "publish";
  const again = await sync();
  expect(again.stdout.split("\n")[0]).toMatch(
    /: 0 created, 1 updated, 0 unpublished, 2 unchanged, 1 skipped /,
  );
});

test("--language gives a post nothing else names its language; a full read with --full", async () => {
  const result = await sync(["--language", "english", "--full"]);
  expect(result.stdout.split("\n")[0]).toMatch(/: 5 created, .* 0 skipped /);
  expect(posts().find((r) => r.idNum === 14)?.language).toBe("english");
});

test("--dry-run reads everything, says what would change and writes nothing", async () => {
  const fresh = await sync(["--dry-run"]);
  expect(fresh.status).toBe(0);
  expect(fresh.stdout.split("\n")[0]).toBe(
    `dry run of sync ${site.url}: would be 4 created, 0 updated, 0 unpublished; 0 unchanged, 1 skipped; nothing was written`,
  );
  expect(existsSync(dbFile)).toBe(false);
  expect(existsSync(imageDir)).toBe(false);
  await sync();
  const before = snapshot();
  post(12).status = "draft";
  const dry = await sync(["--dry-run"]);
  expect(dry.stdout.split("\n")[0]).toMatch(
    /would be 0 created, 0 updated, 1 unpublished; 3 unchanged, 1 skipped/,
  );
  expect(snapshot()).toEqual(before);
});

describe("retries", () => {
  test("429 with Retry-After, then success", async () => {
    site.faults.push({ match: /\/wp\/v2\/posts\?.*_embed/, status: 429, headers: { "Retry-After": "1" } });
    const lines: string[] = [];
    const report = await syncSite(options({ client: { ...FAST, log: (line) => lines.push(line) } }));
    expect(report.created).toBe(4);
    expect(report.retries).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/HTTP 429; retrying in 1 s$/);
  });

  test("500 then success, and a request that never answers then success", async () => {
    site.faults.push({ match: /_fields=id/, status: 500 }, { match: /_embed/, hang: true });
    const lines: string[] = [];
    const report = await syncSite(options({ client: { ...FAST, log: (line) => lines.push(line) } }));
    expect(report.created).toBe(4);
    expect(lines.map((line) => line.replace(/^.*: (HTTP 500|timed out after 1 s); .*$/, "$1"))).toEqual([
      "HTTP 500",
      "timed out after 1 s",
    ]);
  });

  test("giving up after N failures leaves the database as it was", async () => {
    await syncSite(options());
    const before = snapshot();
    post(11).title = { rendered: "Changed" };
    post(11).modified_gmt = "2026-11-21T00:00:00";
    for (let i = 0; i < 3; i++) site.faults.push({ match: /_embed/, status: 503 });
    const error = await syncSite(options({ client: { ...FAST, attempts: 3 } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(
      /^sync http:\/\/127\.0\.0\.1:\d+: GET .*: HTTP 503, 3 attempts failed; the database was not changed$/,
    );
    expect(snapshot()).toEqual(before);
  });

  test("a site that is not WordPress: exit 1, one line, no database", async () => {
    site.faults.push({ match: /wp-json/, status: 404 }, { match: /rest_route/, status: 404 });
    const result = await sync();
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^sukti: sync .*shows no WordPress REST API .*; the database was not changed\n$/,
    );
    expect(existsSync(dbFile)).toBe(false);
  });
});

describe("featured images", () => {
  function withImage(url: string) {
    const embedded = post(11)._embedded as { "wp:featuredmedia": Record<string, unknown>[] };
    (embedded["wp:featuredmedia"][0] as Record<string, unknown>).source_url = url;
  }

  test("refused from another host unless named with --media-host", async () => {
    const media = await startWpStub({ fixture: false });
    stubs.push(media);
    media.files.set("/river.png", { type: "image/png", body: PNG });
    withImage(`${media.url}/river.png`);
    const refused = await syncSite(options({ dryRun: false }));
    expect(refused.warnings).toEqual([
      expect.stringMatching(
        /^post 11 "the-river-and-its-waves": featured image .* is on another host .*--media-host/,
      ),
    ]);
    expect(posts()[0]?.featureImageUrl).toBe("");
    expect(media.requests).toEqual([]);
    const allowed = await syncSite(options({ mediaHosts: [media.host], full: true }));
    expect(allowed.warnings).toEqual([]);
    expect(posts()[0]?.featureImageUrl).toMatch(/^\/images\/synced\/127\.0\.0\.1_\d+\/101-/);
  });

  test("a redirect to another host is not followed", async () => {
    const other = await startWpStub({ fixture: false });
    stubs.push(other);
    other.files.set("/x.png", { type: "image/png", body: PNG });
    site.files.set("/wp-content/uploads/2026/11/river.png", {
      type: "",
      body: Buffer.alloc(0),
      redirect: `${other.url}/x.png`,
    });
    const report = await syncSite(options());
    expect(report.warnings[0]).toMatch(/redirected to .*another host; not followed; the post has no image$/);
    expect(other.requests).toEqual([]);
  });

  test("a wrong type (header or bytes) and a file over 20 MB are refused", async () => {
    site.files.set("/wp-content/uploads/2026/11/river.png", {
      type: "text/html",
      body: Buffer.from("<html>"),
    });
    expect((await syncSite(options())).warnings[0]).toMatch(/is text\/html, not a raster image/);
    site.files.set("/wp-content/uploads/2026/11/river.png", {
      type: "image/png",
      body: Buffer.from("<svg onload=alert(1)>"),
    });
    expect((await syncSite(options({ full: true }))).warnings[0]).toMatch(
      /its bytes are not a JPEG, PNG, GIF, WebP or AVIF image/,
    );
    const large = Buffer.alloc(21 * 1024 * 1024);
    PNG.copy(large);
    site.files.set("/wp-content/uploads/2026/11/river.png", { type: "image/png", body: large });
    expect((await syncSite(options({ full: true }))).warnings[0]).toMatch(/larger than 20 MB/);
    expect(posts()[0]?.featureImageUrl).toBe("");
    expect(existsSync(imageDir)).toBe(false);
  });
});

test("a site without modified_after (before WordPress 5.7) is read in full every run, and still says nothing changed", async () => {
  site.modifiedAfter = false;
  await syncSite(options());
  const before = snapshot();
  site.requests.length = 0;
  const report = await syncSite(options());
  expect(report.fullRead).toBe(true);
  expect(report.created + report.updated + report.unpublished).toBe(0);
  expect(site.requests.some((r) => r.includes("modified_after"))).toBe(false);
  // A full read is counted in the source's state: the only row that changed.
  const after = snapshot();
  expect(after.slice(0, 5)).toEqual(before.slice(0, 5));
});

test("--every keeps syncing until SIGTERM, which stops it between runs (bin/sukti.js, its own process)", async () => {
  const child = spawn(
    process.execPath,
    [
      path.resolve(import.meta.dirname, "../bin/sukti.js"),
      "sync",
      site.url,
      "--every",
      "1s",
      "--language",
      "hindi",
    ],
    { env: { ...process.env, DATABASE_URL: `file:${dbFile}`, SYNCED_IMAGE_DIR: imageDir }, stdio: "pipe" },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    // Two runs: the first writes, the second finds nothing changed.
    while (!stdout.includes("nothing changed")) {
      if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  } finally {
    child.kill("SIGKILL");
  }
  const lines = stdout.trim().split("\n");
  expect(lines[0]).toMatch(/: 5 created, 0 updated, 0 unpublished, 0 unchanged, 0 skipped /);
  expect(lines).toContain(`sync ${site.url}: nothing changed (5 unchanged, 0 skipped)`);
  expect(stderr).toBe("sukti: sync stopped\n");
});

test("a site without pretty permalinks is read at /?rest_route=/", async () => {
  site.pretty = false;
  const report = await syncSite(options());
  expect(report.created).toBe(4);
  expect(site.requests.filter((r) => r.startsWith("/?rest_route=")).length).toBeGreaterThan(2);
  expect(site.requests).toContain("/wp-json/");
});

test("a post moved to another language's category leaves the old language and is written in the new", async () => {
  await syncSite(options());
  const moved = post(15);
  const embedded = moved._embedded as { "wp:term": Record<string, unknown>[][] };
  embedded["wp:term"] = [[{ id: 12, name: "हिंदी", slug: "hindi", taxonomy: "category" }], []];
  moved.modified_gmt = "2026-11-25T00:00:00";
  const report = await syncSite(options());
  expect([report.created, report.updated, report.unpublished]).toEqual([1, 0, 1]);
  const rows = posts().filter((r) => r.idNum === 15);
  expect(rows.map((r) => [r.language, r.status])).toEqual([
    ["hindi", "publish"],
    ["marathi", "draft"],
  ]);
  // And nothing changed after.
  const again = await syncSite(options());
  expect(again.created + again.updated + again.unpublished).toBe(0);
});

test("a post the list missed (a deletion shifted its page) is asked for by id, not unpublished", async () => {
  await syncSite(options());
  const before = snapshot();
  site.shiftedOut.add(13);
  const report = await syncSite(options());
  expect(report.unpublished).toBe(0);
  expect(site.requests.some((r) => /include=13\b/.test(decodeURIComponent(r)))).toBe(true);
  expect(snapshot()).toEqual(before);
});

// The stub once said the port it first tried, taken by another process on
// this shared machine, and a sync here met that process's connection resets.
test("the stub site answers on the port it gives, when the first port it tries is taken", async () => {
  const taken = 26_000;
  const blocker = createServer();
  const held = await new Promise<boolean>((resolve) => {
    blocker.once("error", () => resolve(false)); // Already held by someone else: taken all the same.
    blocker.listen(taken, "127.0.0.1", () => resolve(true));
  });
  const random = Math.random;
  // The first port tried is the taken one (20,000 + 0.5 × 12,000); the next ones at random.
  const spy = vi
    .spyOn(Math, "random")
    .mockImplementationOnce(() => 0.5)
    .mockImplementation(random);
  try {
    const other = await startWpStub();
    stubs.push(other);
    expect(new URL(other.url).port).not.toBe(String(taken));
    const answer = await fetch(`${other.url}/wp-json/`);
    expect(answer.status).toBe(200);
    await answer.body?.cancel();
  } finally {
    spy.mockRestore();
    if (held) await new Promise((resolve) => blocker.close(resolve));
  }
});
