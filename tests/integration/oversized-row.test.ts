// Bounded reads (decision 044): whatever the database holds, no request
// can exhaust a worker. A 30 MB post is written into the database directly
// (SQL, past any import limit: a row written by hand or by an older version),
// then the server runs with `npm start`'s Node flags (a 192 MB heap) and its
// page, feed, search, share image, lists and sitemaps are asked for again and
// again: every answer is a page (200, or the site's own error page), and the
// one server process is still the one that started. docs/decisions/044.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { rebuildSearchIndex } from "#app/data/sqlite/search.server.ts";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { DEMO_DB_ENV, type RunningServer, startServer } from "#tests/support/server.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The Node flags of `npm start` (package.json), so the heap is the one production has. */
function startFlags(): string[] {
  const start: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const flags = start.split(/\s+/).filter((word) => word.startsWith("--"));
  expect(flags).toContain("--max-old-space-size=192");
  return flags;
}

/** A word no demo post has: the search that must find the oversized post. */
const WORD = "zyxoversized";
const MB = 1024 * 1024;

/** ~`bytes` of post HTML: paragraphs of words, with the search word in the first one. */
function hugeHtml(bytes: number): string {
  const paragraph = `<p>${WORD} the river keeps its <em>course</em> &amp; the stone its place; ${"ocean wave light ".repeat(30)}</p>\n`;
  return paragraph.repeat(Math.ceil(bytes / paragraph.length));
}

/** The oversized fields: 24 MB of text, a 5 MB excerpt, a 1 MB title, a 1 MB tag name, person name and line. */
const HUGE = {
  content: hugeHtml(24 * MB),
  excerpt: `${WORD} ${"a long excerpt ".repeat((5 * MB) / 15)}`,
  title: `${WORD} ${"title ".repeat(MB / 6)}`,
  name: `Name ${"very long ".repeat(MB / 10)}`,
};

interface Target {
  language: string;
  slug: string;
  personSlug: string;
  tagSlug: string;
}

/** The requests a visitor, a feed reader and a crawler make that touch the post, and a few others. */
async function addresses(server: RunningServer, target: Target): Promise<string[]> {
  const page = await fetch(`${server.url}/${target.language}/${target.slug}`);
  const html = await page.text();
  const shareImage = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  const paths = [
    `/${target.language}/${target.slug}`,
    `/post/${target.slug}`,
    `/${target.language}/feed.xml`,
    `/search/${WORD}`,
    `/search/ocean%20wave`,
    `/${target.language}/home`,
    "/",
    "/sitemap.xml",
    `/sitemaps/${target.language}-1.xml`,
    "/tags",
    `/tag/${target.tagSlug}`,
    "/people",
    `/people/${target.personSlug}`,
    `/people/${target.personSlug}/feed.xml`,
  ];
  if (shareImage) paths.push(new URL(shareImage).pathname);
  return paths;
}

/** Each address `rounds` times, all of a round at once: every answer a page, the process the same. */
async function hammer(server: RunningServer, target: Target, rounds = 20) {
  const paths = await addresses(server, target);
  expect(paths.some((p) => p.startsWith("/share/"))).toBe(true);
  const pid = server.child.pid;
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      paths.map(async (pathname) => {
        try {
          const response = await fetch(`${server.url}${pathname}`);
          const body = await response.arrayBuffer();
          const type = response.headers.get("content-type") ?? "";
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status !== 200) {
            // The site's own error page, never a stack trace.
            const text = Buffer.from(body).toString("utf8");
            if (response.status !== 500 || !type.startsWith("text/html") || /\bat .+\.js:\d+/.test(text))
              failures.push(`${pathname}: ${response.status} ${text.slice(0, 200)}`);
          } else if (body.byteLength === 0) failures.push(`${pathname}: an empty 200`);
        } catch (error) {
          failures.push(`${pathname}: ${(error as Error).cause ?? error}`);
        }
      }),
    );
  }
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  console.log(
    `oversized row: ${paths.length} addresses × ${rounds}, statuses ${JSON.stringify(Object.fromEntries(statuses))}; server RSS ${Math.round(kb("VmRSS") / 1024)} MB, peak ${Math.round(kb("VmHWM") / 1024)} MB`,
  );
  expect(failures).toEqual([]);
  expect(server.child.exitCode).toBeNull();
  expect(server.child.pid).toBe(pid);
  expect(server.output()).not.toMatch(/heap limit|out of memory/i);
  return paths;
}

/** What every answer about the post must still be: its page shows its start, cut with a note. */
async function checkPost(server: RunningServer, target: Target) {
  const page = await (await fetch(`${server.url}/${target.language}/${target.slug}`)).text();
  expect(page).toContain(`${WORD} the river keeps its <em>course</em> &amp; the stone`);
  expect(page).toContain("This post is too long to show in full here; the rest is left out.");
  expect(page.length).toBeLessThan(2 * MB);
  const feed = await (await fetch(`${server.url}/${target.language}/feed.xml`)).text();
  expect(feed).toContain(`/${target.language}/${target.slug}</link>`);
  expect(feed).toContain("too long to show in full");
  expect(feed.length).toBeLessThan(4 * MB);
  const search = await (await fetch(`${server.url}/search/${WORD}`)).text();
  expect(search).toContain(`href="/${target.language}/${target.slug}"`);
}

describe("a 30 MB post written into SQLite directly", () => {
  let server: RunningServer | undefined;
  let dir: string;
  let target: Target;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-oversized-"));
    const dbPath = path.join(dir, "sukti.db");
    const demo = process.env[DEMO_DB_ENV];
    if (!demo)
      throw new Error(
        `${DEMO_DB_ENV} is not set: run through vitest (tests/support/demo-database-global.ts)`,
      );
    copyFileSync(demo, dbPath);
    const db = new Database(dbPath);
    try {
      // The newest English post with a person and a tag: on the home, in the feed, in the person's list.
      const row = db
        .prepare(
          `SELECT p.id, p.language, p.slug, pe.id AS personId, pe.slug AS personSlug,
             (SELECT t.id FROM post_terms pt JOIN terms t ON t.id = pt.term_id
              WHERE pt.post_id = p.id AND t.kind = 'tag' LIMIT 1) AS tagId
           FROM posts p JOIN people pe ON pe.id = p.person_id
           WHERE p.language = 'english' AND p.status = 'publish'
             AND EXISTS (SELECT 1 FROM post_terms pt JOIN terms t ON t.id = pt.term_id
                         WHERE pt.post_id = p.id AND t.kind = 'tag')
           ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
        )
        .get() as {
        id: number;
        language: string;
        slug: string;
        personId: number;
        personSlug: string;
        tagId: number;
      };
      db.prepare("UPDATE posts SET content = ?, excerpt = ?, title = ? WHERE id = ?").run(
        HUGE.content,
        HUGE.excerpt,
        HUGE.title,
        row.id,
      );
      // Their line too (decision 066): /people and their page read it cut.
      db.prepare("UPDATE people SET name_english = ?, about_english = ? WHERE id = ?").run(
        HUGE.name,
        HUGE.name,
        row.personId,
      );
      db.prepare("UPDATE terms SET name = ? WHERE id = ?").run(HUGE.name, row.tagId);
      const tagSlug = db.prepare("SELECT slug FROM terms WHERE id = ?").pluck().get(row.tagId) as string;
      // The search index built from the posts by the store's own code, the oversized one included.
      rebuildSearchIndex(db);
      target = { language: row.language, slug: row.slug, personSlug: row.personSlug, tagSlug };
    } finally {
      db.close();
    }
    server = await startServer({ dbPath, nodeArgs: startFlags() });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("its page, feed, search, share image, lists and sitemaps answer 20 times each; the worker lives", async () => {
    if (!server) throw new Error("no server");
    await hammer(server, target);
    await checkPost(server, target);
  });

  test("a post time no Date can hold is held to the latest possible one: its page and lists render", async () => {
    if (!server) throw new Error("no server");
    const db = new Database(server.dbPath);
    const slug = db
      .prepare(
        `SELECT slug FROM posts WHERE language = 'english' AND status = 'publish' AND slug <> ?
         ORDER BY post_time LIMIT 1`,
      )
      .pluck()
      .get(target.slug) as string;
    // Past ±8.64e15 ms: new Date(…).toISOString() throws on it.
    db.prepare("UPDATE posts SET post_time = 1e15 WHERE language = 'english' AND slug = ?").run(slug);
    db.close();
    const page = await fetch(`${server.url}/english/${slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("5138-");
    for (const path of ["/english/home", "/english/feed.xml", "/sitemap.xml", "/"]) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
    }
  });

  test("a page whose render throws answers the site's 500 page; the worker lives and serves the rest", async () => {
    if (!server) throw new Error("no server");
    const pid = server.child.pid;
    // The people table gone (a botched hand migration): a post's page, which reads its person, throws.
    const db = new Database(server.dbPath);
    const slug = db
      .prepare(
        `SELECT slug FROM posts WHERE language = 'hindi' AND status = 'publish' AND slug <> ?
         ORDER BY post_time LIMIT 1`,
      )
      .pluck()
      .get(target.slug) as string;
    db.exec("ALTER TABLE people RENAME TO people_gone");
    db.close();
    for (let i = 0; i < 5; i++) {
      const broken = await fetch(`${server.url}/hindi/${encodeURIComponent(slug)}`);
      expect(broken.status).toBe(500);
      const text = await broken.text();
      expect(text).not.toMatch(/TypeError|RangeError|\bat \S+ \(/);
      expect((await fetch(`${server.url}/tags`)).status).toBe(200);
      expect((await fetch(`${server.url}/english/home`)).status).toBe(200);
    }
    expect(server.child.exitCode).toBeNull();
    expect(server.child.pid).toBe(pid);
    const again = new Database(server.dbPath);
    again.exec("ALTER TABLE people_gone RENAME TO people");
    again.close();
  });
});

describe.skipIf(!postgresAvailable())("a 30 MB post written into PostgreSQL directly", () => {
  let postgres: TestPostgres;
  let server: RunningServer | undefined;
  let target: Target;

  beforeAll(async () => {
    postgres = await sharedPostgres();
    const url = await postgres.createDatabase("oversized");
    // The server seeds the empty database with the demo content, then stops.
    const seeding = await startServer({ env: { DATABASE_URL: url } });
    await seeding.stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT p.id, p.language, p.slug, pe.id AS "personId", pe.slug AS "personSlug",
           (SELECT t.id FROM post_terms pt JOIN terms t ON t.id = pt.term_id
            WHERE pt.post_id = p.id AND t.kind = 'tag' LIMIT 1) AS "tagId"
         FROM posts p JOIN people pe ON pe.id = p.person_id
         WHERE p.language = 'english' AND p.status = 'publish'
           AND EXISTS (SELECT 1 FROM post_terms pt JOIN terms t ON t.id = pt.term_id
                       WHERE pt.post_id = p.id AND t.kind = 'tag')
         ORDER BY p.post_time DESC, p.id DESC LIMIT 1`,
      );
      const row = rows[0];
      await client.query("UPDATE posts SET content = $1, excerpt = $2, title = $3 WHERE id = $4", [
        HUGE.content,
        HUGE.excerpt,
        HUGE.title,
        row.id,
      ]);
      await client.query("UPDATE people SET name_english = $1, about_english = $1 WHERE id = $2", [
        HUGE.name,
        row.personId,
      ]);
      await client.query("UPDATE terms SET name = $1 WHERE id = $2", [HUGE.name, row.tagId]);
      // Its search document gains the word, as the writer's documentVector would put it, and the
      // word table its word, as the writer would (a search asks it which words some post holds).
      await client.query(
        `UPDATE search_documents SET document = document || $1::tsvector WHERE post_id = $2`,
        [`'${WORD}' 't:${WORD}' 'ocean' 'wave'`, row.id],
      );
      await client.query(
        "INSERT INTO search_words (word) VALUES ($1), ('ocean'), ('wave') ON CONFLICT DO NOTHING",
        [WORD],
      );
      const tag = await client.query("SELECT slug FROM terms WHERE id = $1", [row.tagId]);
      target = {
        language: row.language,
        slug: row.slug,
        personSlug: row.personSlug,
        tagSlug: tag.rows[0].slug,
      };
    } finally {
      await client.end();
    }
    server = await startServer({ env: { DATABASE_URL: url }, nodeArgs: startFlags() });
  });
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
  });

  test("its page, feed, search, share image, lists and sitemaps answer 20 times each; the worker lives", async () => {
    if (!server) throw new Error("no server");
    await hammer(server, target);
    await checkPost(server, target);
  });
});
