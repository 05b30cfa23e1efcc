// Decision 056: what readers read, counted without tracking. A
// scripted visit against the built server with two workers, then the exact
// counts read from the stats database after a graceful stop (each worker
// flushes on shutdown); nothing identifying stored; `sukti stats` on it; the
// beacon's refusals; a stats flush leaves cached pages cached.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, sharedPostgres } from "#tests/support/postgres.ts";
import { DEMO_DB_ENV, type RunningServer, startServer } from "#tests/support/server.ts";

const READER = "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const ENGLISH = "this-is-my-prayer-to-thee";
const ENGLISH_TITLE = "This is my prayer to thee";
const HINDI = "होइहि-सोइ-जो-राम-रचि-राखा";
const NOTHING = "zzqxvw";

let dir: string;
let dbPath: string;
let server: RunningServer;
const cookies: string[] = [];

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${url}`, {
    headers: { "User-Agent": READER, ...headers },
    redirect: "manual",
  });
  const setCookie = response.headers.get("set-cookie");
  if (setCookie) cookies.push(setCookie);
  await response.arrayBuffer();
  return response;
}

async function beacon(body: string, headers: Record<string, string> = {}, method = "POST") {
  const response = await fetch(`${server.url}/stats/beacon`, {
    method,
    headers: { "User-Agent": READER, "Content-Type": "application/json", ...headers },
    body: method === "GET" ? undefined : body,
  });
  const setCookie = response.headers.get("set-cookie");
  if (setCookie) cookies.push(setCookie);
  return { status: response.status, text: await response.text() };
}

/** A GET on a connection of its own (the workers take new connections in turn), as a bot with no user agent. */
function getAlone(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${url}`, { agent: false, headers: { "User-Agent": "" } }, (response) => {
        if (response.headers["set-cookie"]) cookies.push(String(response.headers["set-cookie"]));
        response.resume();
        response.on("end", () => resolve(response.headers["x-cache"] as string | undefined));
      })
      .on("error", reject);
  });
}

function readCounts(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT * FROM stats_counts").all() as {
      period: string;
      day: string;
      bot: number;
      kind: string;
      language: string;
      item: string;
      count: number;
      results: number | null;
    }[];
  } finally {
    db.close();
  }
}

async function until<T>(read: () => T, ok: (value: T) => boolean, ms = READY_MS): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    let value: T | undefined;
    try {
      value = read();
      if (ok(value)) return value;
    } catch {
      // Not there yet (the file is made by the first flush).
    }
    if (Date.now() > deadline) return value as T;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-stats-"));
  dbPath = path.join(dir, "sukti.db");
  const demo = process.env[DEMO_DB_ENV];
  if (demo) copyFileSync(demo, dbPath);
  server = await startServer({
    dbPath,
    env: { WEB_CONCURRENCY: "2", STATS_FLUSH_MS: "300", LOG_LEVEL: "info" },
  });
  // Both workers listening (the primary says so once): new connections then go to each in turn.
  await until(
    () => server.output(),
    (output) => output.includes('"workers":2'),
  );
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("stats after a scripted visit, two workers", () => {
  const statsFile = () => path.join(dir, "sukti-stats.db");

  test("a stats flush does not empty the page cache (the content version stays)", async () => {
    for (let i = 0; i < 6; i++) await getAlone("/tags");
    // Flushed by both workers: a row from each (their bot rows for /tags).
    await until(
      () =>
        readCounts(statsFile()).find((row) => row.kind === "page" && row.item === "tags" && row.bot === 1),
      (row) => row !== undefined && row.count === 6,
    );
    const again: (string | undefined)[] = [];
    for (let i = 0; i < 6; i++) again.push(await getAlone("/tags"));
    expect(again).toEqual(again.map(() => "HIT"));
    // The site's own file holds no stats table.
    const site = new Database(dbPath, { readonly: true });
    try {
      expect(site.prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'stats%'").all()).toEqual([]);
    } finally {
      site.close();
    }
  });

  test("the beacon refuses what it cannot take, in one line", async () => {
    const ok = JSON.stringify({ event: "copy-link", language: "english", slug: ENGLISH });
    const cases = [
      [await beacon("{not json"), 400, "the body is not valid JSON"],
      [await beacon(ok, { "Content-Type": "text/plain" }), 415, "the body must be application/json"],
      [
        await beacon(JSON.stringify({ event: "copy-link", language: "english", slug: "x".repeat(1100) })),
        413,
        "the body must be at most 1024 bytes",
      ],
      [await beacon(ok, {}, "GET"), 405, "use POST with a JSON body"],
      [await beacon(ok, {}, "PUT"), 405, "use POST with a JSON body"],
      [
        await beacon(JSON.stringify({ event: "print", language: "english", slug: ENGLISH })),
        400,
        "invalid body: event:",
      ],
      [
        await beacon(JSON.stringify({ event: "copy-link", language: "english", slug: ENGLISH, who: "me" })),
        400,
        "invalid body:",
      ],
      [
        await beacon(JSON.stringify({ event: "copy-link", language: "latin", slug: ENGLISH })),
        400,
        "invalid body: language:",
      ],
      [
        await beacon(ok, { Origin: "https://elsewhere.example" }),
        403,
        "a beacon must come from this site's pages",
      ],
    ] as const;
    for (const [answer, status, start] of cases) {
      expect(answer.status, answer.text).toBe(status);
      expect(answer.text.startsWith(start), answer.text).toBe(true);
      expect(answer.text.trimEnd().includes("\n"), answer.text).toBe(false);
    }
  });

  test("exact counts, readers and bots apart, nothing identifying; sukti stats reports them", async () => {
    const post = await get(`/english/${ENGLISH}`, { Referer: "https://News.Example.com/story?id=1" });
    expect(post.status).toBe(200);
    await get(`/english/${ENGLISH}`);
    await get(`/english/${ENGLISH}`, { Referer: `${server.url}/english/home` });
    await get(`/hindi/${encodeURIComponent(HINDI)}`, { Referer: "https://news.example.com/other" });
    // /post/{slug}: the post in its language; a site page by its slug.
    await get(`/post/${ENGLISH}`);
    const privacy = await fetch(`${server.url}/post/privacy-policy`, { headers: { "User-Agent": READER } });
    const policy = await privacy.text();
    expect(policy).toContain("<h2>What we count</h2>");
    expect(policy).toContain("no IP address, browser description or any other detail");
    // A link followed after the first page: the page's data counts as the page; a prefetch does not.
    expect((await get(`/english/${ENGLISH}.data`)).status).toBe(200);
    expect((await get("/hindi/home.data", { "Sec-Purpose": "prefetch" })).status).toBe(200);
    await get("/");
    await get("/");
    await get("/english/home");
    await get("/search/love");
    await get("/search/LOVE");
    await get(`/search/${NOTHING}`);
    expect((await get("/no-such-page")).status).toBe(404);
    await get("/no-such-page?x=1");
    expect((await get("/english/feed.xml")).status).toBe(200);
    // The share image's address is on the post page.
    const html = await (
      await fetch(`${server.url}/english/${ENGLISH}`, { headers: { "User-Agent": BOT } })
    ).text();
    const image = /<meta property="og:image" content="[^"]*?(\/share\/[^"]+)"/.exec(html)?.[1];
    expect(image).toBeDefined();
    expect((await get(`${image}?download`)).status).toBe(200);
    const copy = JSON.stringify({ event: "copy-link", language: "english", slug: ENGLISH });
    expect((await beacon(copy)).status).toBe(204);
    expect((await beacon(copy, { Origin: server.url })).status).toBe(204);
    expect(
      (await beacon(JSON.stringify({ event: "share-whatsapp", language: "hindi", slug: HINDI }))).status,
    ).toBe(204);
    // A bot: counted apart (its post page above is one of these).
    await get(`/english/${ENGLISH}`, { "User-Agent": BOT });
    await get("/no-such-page", { "User-Agent": BOT });

    // A graceful stop: each worker writes what it still holds.
    expect(await server.stop()).toBe(0);
    const rows = readCounts(statsFile()).filter((row) => row.kind !== "page" || row.item !== "tags");
    const count = (bot: number, kind: string, language: string, item: string) =>
      rows
        .filter((r) => r.bot === bot && r.kind === kind && r.language === language && r.item === item)
        .reduce((sum, r) => sum + r.count, 0);
    expect(count(0, "post", "english", ENGLISH)).toBe(5);
    expect(count(0, "post", "hindi", HINDI)).toBe(1);
    expect(count(0, "page", "english", "post")).toBe(5);
    expect(count(0, "page", "hindi", "language-home")).toBe(0);
    expect(count(0, "page", "english", "page:privacy-policy")).toBe(1);
    expect(count(0, "page", "hindi", "post")).toBe(1);
    expect(count(0, "page", "english", "home")).toBe(2);
    expect(count(0, "page", "english", "language-home")).toBe(1);
    expect(count(0, "page", "english", "search")).toBe(3);
    expect(count(0, "search", "", "love")).toBe(2);
    expect(count(0, "search", "", NOTHING)).toBe(1);
    expect(rows.find((r) => r.kind === "search" && r.item === NOTHING)?.results).toBe(0);
    expect(rows.find((r) => r.kind === "search" && r.item === "love")?.results).toBeGreaterThan(0);
    expect(count(0, "not-found", "", "/no-such-page")).toBe(2);
    expect(count(1, "not-found", "", "/no-such-page")).toBe(1);
    expect(count(0, "feed", "english", "english")).toBe(1);
    expect(count(0, "download", "english", ENGLISH)).toBe(1);
    expect(count(0, "copy-link", "english", ENGLISH)).toBe(2);
    expect(count(0, "share-whatsapp", "hindi", HINDI)).toBe(1);
    // Only other sites, by host, lower case; the site's own links are not referrers.
    expect(rows.filter((r) => r.kind === "referrer").map((r) => [r.item, r.count])).toEqual([
      ["news.example.com", 2],
    ]);
    expect(count(1, "post", "english", ENGLISH)).toBe(2);
    expect(count(1, "page", "english", "post")).toBe(2);
    // Readers' page views by hour: 5 + 1 posts, a site page, 2 homes, 1 language home, 3 searches (404s, feeds, images are not pages).
    const hours = rows.filter((r) => r.kind === "hour" && r.bot === 0).reduce((sum, r) => sum + r.count, 0);
    expect(hours).toBe(13);

    // Nothing identifying: the columns, and no address, user agent or cookie in any value.
    const db = new Database(statsFile(), { readonly: true });
    try {
      const columns = (db.prepare("PRAGMA table_info(stats_counts)").all() as { name: string }[]).map(
        (c) => c.name,
      );
      expect(columns).toEqual(["period", "day", "bot", "kind", "language", "item", "count", "results"]);
      const tables = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .pluck()
        .all();
      expect(tables).toEqual(["schema_migrations", "stats_counts"]);
    } finally {
      db.close();
    }
    const everything = JSON.stringify(rows);
    for (const secret of ["127.0.0.1", "Mozilla", "Firefox", "Googlebot", "story?id", "x=1"])
      expect(everything).not.toContain(secret);
    expect(cookies).toEqual([]);

    // sukti stats, text and JSON, for this visit.
    const env = { DATABASE_URL: `file:${dbPath}`, STATS_DATABASE_URL: "" };
    const text = await runSukti(["stats", "--days", "2"], env);
    if (process.env.SHOW_STATS) console.log(text.stdout);
    expect(text.stderr).toBe("");
    expect(text.status).toBe(0);
    expect(text.stdout).toContain(`${ENGLISH_TITLE}  /english/${ENGLISH}`);
    expect(text.stdout).toMatch(/^ +5 {2}This is my prayer to thee/m);
    expect(text.stdout).toContain("words missing from concepts.json?");
    expect(text.stdout).toMatch(new RegExp(`^ +1 {2}${NOTHING}$`, "m"));
    expect(text.stdout).toMatch(/^ +2 {2}news\.example\.com$/m);
    expect(text.stdout).toMatch(/^ +2 {2}\/no-such-page$/m);
    expect(text.stdout).toContain("Copy and share clicks: copy-link 2, share-whatsapp 1");
    expect(text.stdout).toMatch(/^Bots \(by user agent; not in the counts above\): \d+ page views/m);
    const json = await runSukti(["stats", "--json"], env);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.readers.pageViews).toBe(13);
    expect(report.topPosts.english[0]).toEqual({
      slug: ENGLISH,
      count: 5,
      path: `/english/${ENGLISH}`,
      title: ENGLISH_TITLE,
    });
    expect(report.topPosts.hindi[0].count).toBe(1);
    expect(report.searches.nothingFound).toEqual([{ text: NOTHING, count: 1 }]);
    expect(report.referrers).toEqual([{ host: "news.example.com", count: 2 }]);
    expect(report.notFound).toEqual([{ path: "/no-such-page", count: 2 }]);
    expect(report.shareImages).toEqual({ viewed: 0, downloaded: 1 });
    expect(report.feeds).toEqual({ english: 1 });
    expect(report.bots.notFound).toBe(1);
    expect(report.busiestDays).toHaveLength(1);
    expect(report.busiestDays[0].count).toBe(13);
    const hindi = JSON.parse((await runSukti(["stats", "--json", "--language", "hindi"], env)).stdout);
    expect(Object.keys(hindi.topPosts)).toEqual(["hindi"]);
    // Old days roll up into monthly totals, the searched words dropped.
    const old = new Database(statsFile());
    old
      .prepare("INSERT INTO stats_counts VALUES ('day', '2020-01-02', 0, ?, '', ?, 4, NULL)")
      .run("search", "secret words");
    old
      .prepare("INSERT INTO stats_counts VALUES ('day', '2020-01-03', 0, 'post', 'english', ?, 2, NULL)")
      .run(ENGLISH);
    old.close();
    const rolled = await runSukti(["stats", "--roll-up"], env);
    expect(rolled.stdout).toMatch(/^rolled 2 daily rows older than 13 months into monthly totals in /);
    expect(
      readCounts(statsFile())
        .filter((r) => r.day < "2021")
        .map((r) => [r.period, r.day, r.kind, r.item, r.count]),
    ).toEqual(
      expect.arrayContaining([
        ["month", "2020-01-01", "search", "", 4],
        ["month", "2020-01-01", "post", ENGLISH, 2],
      ]),
    );
    expect(JSON.stringify(readCounts(statsFile()))).not.toContain("secret words");
    const bad = await runSukti(["stats", "--days", "zero"], env);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("--days must be a whole number");
  });
});

describe("stats that cannot be written", () => {
  test("pages are served, the counts kept in memory and said once, then written when the store is back", async () => {
    const where = mkdtempSync(path.join(tmpdir(), "sukti-stats-away-"));
    // A file where the stats file's folder should be: it cannot be created until the file goes.
    const blocker = path.join(where, "stats");
    writeFileSync(blocker, "not a folder");
    const away = await startServer({
      env: {
        STATS_FLUSH_MS: "200",
        STATS_DATABASE_URL: `file:${path.join(blocker, "stats.db")}`,
        LOG_LEVEL: "info",
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${away.url}/english/${ENGLISH}`, { headers: { "User-Agent": READER } });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      const failures = () =>
        away
          .output()
          .split("\n")
          .filter((line) => line.includes("cannot write stats"));
      await until(failures, (lines) => lines.length > 0);
      // Several flushes later, still one line.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(failures()).toHaveLength(1);
      expect(failures()[0]).toContain("counting in memory");
      rmSync(blocker);
      await until(
        () => away.output(),
        (output) => output.includes("stats written again"),
      );
      expect(await away.stop()).toBe(0);
      const rows = readCounts(path.join(blocker, "stats.db"));
      expect(rows.find((row) => row.kind === "post" && row.item === ENGLISH)?.count).toBe(3);
    } finally {
      await away.stop();
      rmSync(where, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgresAvailable())("stats on PostgreSQL", () => {
  test("two workers on PostgreSQL flush into the site's database; sukti stats reads it", async () => {
    const postgres = await sharedPostgres();
    try {
      const url = await postgres.createDatabase("stats_site");
      const site = await startServer({
        env: { DATABASE_URL: url, WEB_CONCURRENCY: "2", STATS_FLUSH_MS: "300" },
      });
      try {
        for (const [address, agent] of [
          [`/hindi/${encodeURIComponent(HINDI)}`, READER],
          [`/hindi/${encodeURIComponent(HINDI)}`, READER],
          [`/hindi/${encodeURIComponent(HINDI)}`, BOT],
          [`/search/${NOTHING}`, READER],
          ["/no-such-page", READER],
        ] as const) {
          const response = await fetch(`${site.url}${address}`, { headers: { "User-Agent": agent } });
          await response.arrayBuffer();
        }
      } finally {
        expect(await site.stop()).toBe(0);
      }
      const result = await runSukti(["stats", "--json", "--days", "1"], { DATABASE_URL: url });
      expect(result.stderr).toBe("");
      const report = JSON.parse(result.stdout);
      expect(report.topPosts.hindi).toEqual([
        {
          slug: HINDI,
          count: 2,
          path: `/hindi/${encodeURIComponent(HINDI)}`,
          title: "होइहि सोइ जो राम रचि राखा",
        },
      ]);
      expect(report.searches.nothingFound).toEqual([{ text: NOTHING, count: 1 }]);
      expect(report.notFound).toEqual([{ path: "/no-such-page", count: 1 }]);
      expect(report.bots.pageViews).toBe(1);
      expect(report.readers.pageViews).toBe(3);
    } finally {
      await postgres.stop();
    }
  });
});
