// The counter map, the clock, what counts as a bot or a referrer, and the
// SQLite stats store's additive upserts and roll-up (decision 056).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, test } from "vitest";
import type { Logger } from "./logger.ts";
import type { RenderedPage } from "./page-cache.ts";
import {
  classify,
  externalHost,
  isBot,
  OTHER,
  retentionCutoff,
  Stats,
  StatsCounts,
  siteHourClock,
} from "./stats.ts";
import { openStatsStore, type StatRow, statsDatabaseUrl } from "./stats-store.ts";

function row(day: string, kind: string, item: string, count: number, results: number | null = null): StatRow {
  return { day, bot: 0, kind, language: kind === "post" ? "english" : "", item, count, results };
}

describe("the counter map", () => {
  test("past the cap on distinct keys, new items count as (other); a failed flush's rows come back", () => {
    const counts = new StatsCounts(3);
    counts.add("2026-11-26", false, "post", "english", "a");
    counts.add("2026-11-26", false, "post", "english", "a");
    counts.add("2026-11-26", true, "post", "english", "a");
    counts.add("2026-11-26", false, "search", "", "love", 1, 4);
    counts.add("2026-11-26", false, "post", "english", "b");
    counts.add("2026-11-26", false, "post", "english", "c");
    counts.add("2026-11-26", false, "post", "english", "a");
    const rows = counts.take();
    expect(rows).toEqual([
      { day: "2026-11-26", bot: 0, kind: "post", language: "english", item: "a", count: 3, results: null },
      { day: "2026-11-26", bot: 1, kind: "post", language: "english", item: "a", count: 1, results: null },
      { day: "2026-11-26", bot: 0, kind: "search", language: "", item: "love", count: 1, results: 4 },
      { day: "2026-11-26", bot: 0, kind: "post", language: "english", item: OTHER, count: 2, results: null },
    ]);
    expect(counts.size).toBe(0);
    counts.restore(rows);
    counts.add("2026-11-26", false, "post", "english", "a");
    expect(counts.take().find((r) => r.item === "a" && r.bot === 0)?.count).toBe(4);
  });

  test("the site's day and hour in its time zone; the retention's first kept day", () => {
    // 2026-11-25 20:00 UTC is 01:30 on the 26th in Kolkata.
    const clock = siteHourClock("Asia/Kolkata", () => Date.UTC(2026, 10, 25, 20, 0));
    expect(clock()).toEqual({ day: "2026-11-26", hour: "01" });
    expect(siteHourClock("UTC", () => Date.UTC(2026, 0, 1, 0, 0))()).toEqual({
      day: "2026-01-01",
      hour: "00",
    });
    expect(retentionCutoff("2026-11-26", 13)).toBe("2025-10-01");
    expect(retentionCutoff("2026-01-05", 1)).toBe("2025-12-01");
    expect(retentionCutoff("2026-12-31", 12)).toBe("2025-12-01");
  });

  test("referrers: another site's host only, bounded; bots by user agent", () => {
    expect(externalHost("https://News.Example.com/a?b=c", "127.0.0.1:3000")).toBe("news.example.com");
    expect(externalHost("https://user:pw@example.org:8443/x", "site.example")).toBe("example.org");
    expect(externalHost("http://site.example/english/home", "site.example:80")).toBe(null);
    expect(externalHost("android-app://com.google.android.gm/", "site.example")).toBe(null);
    expect(externalHost(`https://${"a".repeat(120)}.example/`, "site.example")).toBe(null);
    expect(externalHost("https://exa_mple.com/", "site.example")).toBe(null);
    expect(externalHost(undefined, "site.example")).toBe(null);
    expect(isBot("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isBot("facebookexternalhit/1.1")).toBe(true);
    expect(isBot("curl/8.5.0")).toBe(true);
    expect(isBot("")).toBe(true);
    expect(isBot(undefined)).toBe(true);
    expect(
      isBot("Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36"),
    ).toBe(false);
  });

  test("the stats database: beside a SQLite site's file, the site's own on PostgreSQL, or as set", () => {
    expect(statsDatabaseUrl("file:/srv/sukti/data/sukti.db")).toBe("file:/srv/sukti/data/sukti-stats.db");
    expect(statsDatabaseUrl("/srv/site")).toBe("file:/srv/site-stats.db");
    expect(statsDatabaseUrl("postgres://u@h/site")).toBe("postgres://u@h/site");
    expect(statsDatabaseUrl("file:/a.db", " file:/b.db ")).toBe("file:/b.db");
    expect(statsDatabaseUrl(":memory:")).toBe(":memory:");
  });
});

function page(status: number, type: string, body: string): RenderedPage {
  return {
    status,
    headers: [["content-type", type]],
    body: Buffer.from(body),
    size: Buffer.byteLength(body),
    etag: "",
    tags: [],
    csp: null,
    encoded: {},
  };
}
const html = (lang: string, rest = "") =>
  page(200, "text/html; charset=utf-8", `<!DOCTYPE html><html lang="${lang}"><head>${rest}`);
const data = (status: number, body: string) => page(status, "text/x-script", body);

describe("what a response counts as", () => {
  test("pages, posts, searches, feeds, share images and 404s, from the page or its data", () => {
    const hindi = "होइहि-सोइ";
    const encoded = encodeURIComponent(hindi);
    expect(classify(`/hindi/${encoded}`, "", html("hi"))).toEqual({
      kind: "page",
      pageKind: "post",
      language: "hindi",
      post: hindi,
      search: null,
    });
    // The same page followed by a link: its data.
    expect(
      classify(
        `/hindi/${encoded}.data`,
        "",
        data(200, '[{},"data",{},"kind","post","pageLanguage","hindi"]'),
      ),
    ).toEqual({ kind: "page", pageKind: "post", language: "hindi", post: hindi, search: null });
    expect(classify("/_root.data", "", data(200, '[{},"routes/home",{},"hero"]'))).toMatchObject({
      pageKind: "home",
      language: "english",
    });
    const canonical = `<link rel="canonical" href="https://site.example/hindi/${encoded}"/>`;
    expect(classify(`/post/${encoded}`, "", html("hi", canonical))).toMatchObject({
      pageKind: "post",
      language: "hindi",
      post: hindi,
    });
    expect(classify("/post/privacy-policy", "", html("en"))).toMatchObject({
      pageKind: "page:privacy-policy",
    });
    expect(
      classify("/post/privacy-policy.data", "", data(200, '["kind","page","pageLanguage","english"]')),
    ).toMatchObject({ pageKind: "page:privacy-policy", post: null });
    expect(
      classify(
        "/search/Love%20Truth",
        "",
        html("en", '<p class="search-count" data-total="1204">1,204 quotes found</p>'),
      ),
    ).toMatchObject({ pageKind: "search", search: { text: "love truth", results: 1204 } });
    // In Hindi (?lang=hi, decision 067) the count is the same number.
    expect(
      classify(
        "/search/Love%20Truth",
        "lang=hi",
        html("hi", '<p class="search-count" data-total="1204">1,204 सूक्तियाँ मिलीं</p>'),
      ),
    ).toMatchObject({ pageKind: "search", search: { text: "love truth", results: 1204 } });
    expect(
      classify("/search/zz", "", html("en", '<p class="search-count" data-total="0">No quotes found</p>')),
    ).toMatchObject({
      search: { text: "zz", results: 0 },
    });
    expect(
      classify("/search/love.data", "", data(200, '["text","love","page",1,"pageCount","total",14]')),
    ).toMatchObject({
      search: { text: "love", results: 14 },
    });
    // A later page of a search is the same search.
    expect(classify("/search/love", "page=2", html("en"))).toMatchObject({
      pageKind: "search",
      search: null,
    });
    // So are its results in one language (decision 065): one language's "none" is not a search that found nothing.
    expect(classify("/search/love", "language=marathi", html("en"))).toMatchObject({
      pageKind: "search",
      search: null,
    });
    expect(classify("/tag/faith", "", html("en"))).toMatchObject({ pageKind: "tag" });
    expect(classify("/people/kabir", "", html("en"))).toMatchObject({ pageKind: "person" });
    expect(classify("/saved/hindi", "", html("hi"))).toMatchObject({ pageKind: "saved", language: "hindi" });
    expect(classify("/marathi/feed.xml", "", page(200, "application/rss+xml", "<rss/>"))).toEqual({
      kind: "feed",
      language: "marathi",
      item: "marathi",
    });
    expect(classify("/people/kabir/feed.xml", "", page(200, "application/atom+xml", ""))).toMatchObject({
      item: "people/kabir",
    });
    expect(classify("/share/english/abc123/a-b.jpg", "download", page(200, "image/jpeg", ""))).toEqual({
      kind: "download",
      language: "english",
      item: "a-b",
    });
    expect(classify("/share/english/abc123/a-b.jpg", "", page(200, "image/jpeg", ""))).toMatchObject({
      kind: "share-image",
    });
    expect(classify("/wp-login.php", "", page(404, "text/html", ""))).toEqual({
      kind: "not-found",
      item: "/wp-login.php",
    });
    expect(classify("/no-such.data", "", data(404, ""))).toEqual({ kind: "not-found", item: "/no-such" });
    expect(classify(`/${"%0A".repeat(3)}${"x".repeat(300)}`, "", page(404, "text/html", ""))).toEqual({
      kind: "not-found",
      item: `/ ${"x".repeat(198)}`,
    });
    // Redirects, errors, other files: not counted.
    expect(classify("/english", "", page(301, "text/html", ""))).toBeNull();
    expect(classify("/robots.txt", "", page(200, "text/plain", ""))).toBeNull();
    expect(classify("/english/x", "", page(503, "text/html", ""))).toBeNull();
  });
});

describe("the SQLite stats store", () => {
  test("adds up; rolls old days into monthly totals without what readers typed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sukti-stats-unit-"));
    const url = `file:${path.join(dir, "stats.db")}`;
    try {
      expect(await openStatsStore(url, { create: false })).toBeNull();
      const one = await openStatsStore(url);
      const two = await openStatsStore(url);
      if (!one || !two) throw new Error("no store");
      await one.add([row("2025-09-30", "post", "a", 2), row("2025-09-30", "search", "prem", 1, 0)]);
      await two.add([row("2025-09-30", "post", "a", 3), row("2025-09-02", "search", "shanti", 2, 5)]);
      await two.add([row("2025-10-01", "post", "a", 1), row("2026-11-26", "search", "prem", 1, 2)]);
      const all = await one.read("2000-01-01");
      expect(all.find((r) => r.day === "2025-09-30" && r.kind === "post")?.count).toBe(5);
      expect(await one.rollUp("2025-10-01")).toBe(3);
      expect(await two.rollUp("2025-10-01")).toBe(0);
      const kept = await one.read("2000-01-01", { months: true });
      expect(kept.map((r) => [r.period, r.day, r.kind, r.item, r.count, r.results]).sort()).toEqual(
        [
          ["day", "2025-10-01", "post", "a", 1, null],
          ["day", "2026-11-26", "search", "prem", 1, 2],
          ["month", "2025-09-01", "post", "a", 5, null],
          ["month", "2025-09-01", "search", "", 3, null],
        ].sort(),
      );
      await one.close();
      await two.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("a batch cut short by another writer's lock keeps only what was not written, and says nothing", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sukti-stats-busy-"));
  const url = `file:${path.join(dir, "stats.db")}`;
  const said: string[] = [];
  const logger = {
    warn: (msg: string) => said.push(msg),
    info: (msg: string) => said.push(msg),
  } as unknown as Logger;
  const stats = new Stats({ store: () => openStatsStore(url), logger, timeZone: "UTC" });
  try {
    // Opened and migrated by a first, empty flush.
    await stats.flush();
    for (let i = 0; i < 600; i++) stats.counts.add("2026-11-26", false, "post", "english", `post-${i}`);
    // Another writer takes the file after the batch's first slice (250 rows).
    const other = new Database(path.join(dir, "stats.db"));
    setImmediate(() => other.exec("BEGIN IMMEDIATE"));
    await stats.flush();
    other.exec("COMMIT");
    const partial = other.prepare("SELECT count(*) FROM stats_counts").pluck().get();
    expect(partial).toBe(250);
    await stats.flush();
    const rows = other
      .prepare("SELECT count(*) AS n, sum(count) AS total, max(count) AS most FROM stats_counts")
      .get();
    expect(rows).toEqual({ n: 600, total: 600, most: 1 });
    other.close();
    expect(said).toEqual([]);
  } finally {
    await stats.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
