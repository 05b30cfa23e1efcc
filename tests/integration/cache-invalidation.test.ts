// Decision 057: a write drops or refreshes only the cached
// pages that show what it changed. Per kind of write (edit, new, unpublish,
// person rename, tag change, translation link, delete), on the built server
// over HTTP with SQLite: which pages are dropped (MISS: rendered afresh),
// which are served while one background render replaces them (STALE), which
// stay as they were (HIT, same ETag); a removed post is on no page, feed or
// search result from the first answer after the write returns; the purge
// hook receives exactly the changed tags; cached pages carry their tags.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  contentFile,
  eventually,
  expectCache,
  look,
  PAGES,
  type PurgeReceiver,
  purgeReceiver,
  SITE,
  type SitePost,
  warm,
} from "#tests/support/cache-pages.ts";
import { runSukti } from "#tests/support/cli.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const post = (slug: string): SitePost => {
  const found = SITE.find((p) => p.slug === slug);
  if (!found) throw new Error(slug);
  return found;
};

describe("SQLite: a write drops or refreshes only the pages showing what it changed", () => {
  let dir: string;
  let dbUrl: string;
  let server: RunningServer;
  let purge: PurgeReceiver;
  let live = [...PAGES];
  const sukti = (...args: string[]) => runSukti(args, { DATABASE_URL: dbUrl, PURGE_URL: purge.url });
  const write = async (name: string, posts: SitePost[]) => {
    const result = await sukti("import", contentFile(dir, name, posts));
    expect(result.status, result.stderr).toBe(0);
  };
  /** The tags the purge hook received for the last write. */
  const purged = () => {
    const calls = purge.received.splice(0);
    expect(calls.length).toBeGreaterThan(0);
    const tags = new Set<string>();
    for (const { headers, body } of calls) {
      expect(headers["xkey-purge"]).toBe(headers["surrogate-key"]);
      const sent = (JSON.parse(body) as { tags: string[] }).tags;
      expect(sent.join(" ")).toBe(headers["xkey-purge"]);
      for (const tag of sent) tags.add(tag);
    }
    return [...tags].sort();
  };
  const showing = (seen: Map<string, { body: string }>, href: string) =>
    [...seen].filter(([, page]) => page.body.includes(href)).map(([url]) => url);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "sukti-cache-tags-"));
    dbUrl = `file:${path.join(dir, "site.db")}`;
    purge = await purgeReceiver();
    await write("site.json", SITE);
    purge.received.length = 0;
    server = await startServer({ dbPath: path.join(dir, "site.db") });
  });
  afterAll(async () => {
    await server?.stop();
    await purge?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("cached pages carry their tags and the shared Cache-Control, on the fast path as on the long one", async () => {
    const first = await look(server.url, "/english/bravo");
    const second = await look(server.url, "/english/bravo");
    expect([first.cache, second.cache]).toEqual(["MISS", "HIT"]);
    for (const seen of [first, second]) {
      const xkey = seen.headers.get("xkey")!.split(" ");
      expect(xkey[0]).toBe("all");
      expect(xkey).toEqual(
        expect.arrayContaining(["post-bravo", "post-alpha", "post-charlie", "byline-mirabai"]),
      );
      expect(seen.headers.get("surrogate-key")).toBe(seen.headers.get("xkey"));
      expect(seen.headers.get("cache-tag")).toBe(xkey.join(","));
      expect(seen.headers.get("cache-control")).toMatch(
        /^public, max-age=0, must-revalidate, s-maxage=\d+, stale-while-revalidate=\d+$/,
      );
    }
    // Devanagari slugs become short ASCII tags; the home (a gallery per visitor) is not shared.
    const hindi = await look(server.url, encodeURI("/tag/शांति"));
    expect(hindi.headers.get("xkey") ?? "").not.toMatch(/[^\x21-\x7e ]/);
    const home = await look(server.url, "/");
    expect(home.headers.get("cache-control")).toBe("no-store");
    expect(home.headers.get("xkey")).toBeNull();
  });

  test("edit: the pages showing the post are refreshed in the background, the rest stay", async () => {
    const before = await warm(server.url, live);
    const { openDatabase } = await import("#app/data/sqlite/database.server.ts");
    const lastRow = () => {
      const { db } = openDatabase(dbUrl, { readonly: true });
      try {
        return db
          .prepare("SELECT seq, tags, removal FROM content_changes ORDER BY seq DESC LIMIT 1")
          .get() as {
          seq: number;
          tags: string;
          removal: number;
        };
      } finally {
        db.close();
      }
    };
    const seq = lastRow().seq;
    await write("edit.json", [{ ...post("bravo"), title: "Bravo renamed" }]);
    // One row in the change log, in the write's transaction.
    expect(lastRow()).toEqual({ seq: seq + 1, tags: "post-bravo search sitemap-english", removal: 0 });
    expect(purged()).toEqual(["post-bravo", "search", "sitemap-english"]);
    const shows = showing(before, "/english/bravo");
    expect(shows).toEqual(expect.arrayContaining(["/english/alpha", "/english/charlie", "/english/home"]));
    const refreshed = [...new Set([...shows, "/search/words", "/search/peace", "/sitemaps/english-1.xml"])];
    await expectCache(server.url, before, {
      refreshed,
      kept: live.filter((page) => !refreshed.includes(page)),
    });
    for (const page of shows.filter((p) => before.get(p)?.body.includes("Bravo words")))
      await eventually(
        server.url,
        page,
        (seen) => seen.cache === "HIT" && seen.body.includes("Bravo renamed"),
      );
  });

  test("new post: its language's lists, its tag, its person and its neighbour, not the other posts' pages", async () => {
    const before = await warm(server.url, live);
    const foxtrot: SitePost = {
      language: "english",
      slug: "foxtrot",
      title: "Foxtrot words",
      postTime: 1_700_000_600,
      tags: ["Hope"],
      person: "Kabir",
    };
    await write("new.json", [foxtrot]);
    expect(purged()).toEqual(
      expect.arrayContaining(["post-foxtrot", "post-echo", "list-english", "tag-hope", "person-kabir"]),
    );
    await expectCache(server.url, before, {
      kept: [
        "/english/alpha",
        "/english/bravo",
        "/english/charlie",
        "/hindi/hindi-alpha",
        "/hindi/hindi-bravo",
        "/hindi/home",
        "/tag/peace",
        "/tag/courage",
        "/people/mirabai",
        "/hindi/feed.xml",
        "/sitemaps/hindi-1.xml",
      ],
      refreshed: ["/english/echo", "/english/home", "/tag/hope", "/people/kabir", "/english/feed.xml"],
    });
    for (const page of ["/english/home", "/english/echo", "/tag/hope", "/people/kabir", "/english/feed.xml"])
      await eventually(server.url, page, (seen) => seen.body.includes("/english/foxtrot"));
  });

  test("unpublish: every page that showed the post is dropped before the command returns; none shows it, even once", async () => {
    const before = await warm(server.url, live);
    const shows = showing(before, "/english/bravo");
    expect(shows.length).toBeGreaterThan(8);
    const result = await sukti("unpublish", "english", "bravo");
    expect(result.status, result.stderr).toBe(0);
    expect(purged()).toEqual([
      "list-english",
      "people",
      "person-mirabai",
      "post-bravo",
      "search",
      "sitemap-english",
      "tag-peace",
      "terms",
    ]);
    expect((await look(server.url, "/english/bravo")).status).toBe(404);
    expect((await look(server.url, "/people/mirabai")).status).toBe(404);
    live = live.filter((page) => page !== "/english/bravo" && page !== "/people/mirabai");
    await expectCache(server.url, before, {
      dropped: shows.filter((page) => live.includes(page)),
      kept: ["/hindi/hindi-alpha", "/hindi/hindi-bravo", "/hindi/home", "/tag/courage", "/hindi/feed.xml"],
    });
    for (const page of live)
      expect((await look(server.url, page)).body, page).not.toContain("/english/bravo");
  });

  test("person rename: the person's pages and the posts showing their name", async () => {
    const before = await warm(server.url, live);
    await write("rename.json", [
      { ...post("alpha"), person: { name: "Kabir", names: { english: "Kabir Das" } } },
    ]);
    expect(purged()).toEqual(expect.arrayContaining(["person-kabir", "byline-kabir", "people", "search"]));
    await expectCache(server.url, before, {
      refreshed: ["/english/alpha", "/english/charlie", "/people/kabir", "/people"],
      kept: ["/english/delta", "/hindi/hindi-bravo", "/tag/hope", "/tag/courage", "/hindi/home"],
    });
    await eventually(server.url, "/english/charlie", (seen) => seen.body.includes("Kabir Das"));
  });

  test("tag change: the term the post leaves is dropped, the one it joins refreshed", async () => {
    const before = await warm(server.url, live);
    await write("retag.json", [{ ...post("charlie"), tags: ["Hope"] }]);
    expect(purged()).toEqual(expect.arrayContaining(["tag-peace", "tag-hope", "terms", "post-charlie"]));
    await expectCache(server.url, before, {
      dropped: ["/tag/peace"],
      refreshed: ["/tag/hope", "/english/charlie", "/tags"],
      kept: ["/hindi/hindi-alpha", "/hindi/hindi-bravo", "/tag/courage", "/hindi/home"],
    });
    expect((await look(server.url, "/tag/peace")).status).toBe(404);
    live = live.filter((page) => page !== "/tag/peace");
    await eventually(server.url, "/tag/hope", (seen) => seen.body.includes("/english/charlie"));
  });

  test("translation link: both posts' pages, not their neighbours in other groups", async () => {
    const before = await warm(server.url, live);
    await write("link.json", [
      { ...post("delta"), translationKey: "g2" },
      { ...post("hindi-bravo"), translationKey: "g2" },
    ]);
    expect(purged()).toEqual(expect.arrayContaining(["post-delta", "post-hindi-bravo"]));
    await expectCache(server.url, before, {
      refreshed: ["/english/delta", "/hindi/hindi-bravo"],
      // hindi-alpha is hindi-bravo's neighbour (its next link shows it): refreshed too.
      kept: ["/english/alpha", "/tag/courage", "/people/kabir"],
    });
    await eventually(server.url, "/english/delta", (seen) => seen.body.includes("/hindi/hindi-bravo"));
    await eventually(server.url, "/hindi/hindi-bravo", (seen) => seen.body.includes("/english/delta"));
  });

  test("delete: the pages that showed it are dropped, the rest stay", async () => {
    const before = await warm(server.url, live);
    const shows = showing(before, "/english/echo");
    const result = await sukti("delete", "english", "echo");
    expect(result.status, result.stderr).toBe(0);
    expect(purged()).toEqual(expect.arrayContaining(["post-echo", "list-english", "tag-hope"]));
    live = live.filter((page) => page !== "/english/echo");
    await expectCache(server.url, before, {
      dropped: shows.filter((page) => live.includes(page)),
      kept: ["/hindi/hindi-alpha", "/tag/courage"],
    });
    for (const page of live) expect((await look(server.url, page)).body, page).not.toContain("/english/echo");
  });

  test("a purge that fails is one warning line and the write stands; PURGE_STRICT=on makes it exit 1", async () => {
    const refusing = await purgeReceiver(503);
    try {
      const env = {
        DATABASE_URL: dbUrl,
        PURGE_URL: refusing.url,
        PURGE_HEADERS: "Authorization: Bearer t0k3n",
      };
      const file = contentFile(dir, "strict.json", [{ ...post("alpha"), title: "Alpha again" }]);
      const lenient = await runSukti(["import", file], env);
      expect(lenient.status, lenient.stderr).toBe(0);
      expect(lenient.stderr).toMatch(
        /^sukti: warning: purging \d+ cache tag\(s\) at http:\/\/127\.0\.0\.1:\d+\/purge failed \(it answered 503\); the write is committed[^\n]*\n$/,
      );
      expect(refusing.received[0]?.headers.authorization).toBe("Bearer t0k3n");
      const strict = await runSukti(
        ["import", contentFile(dir, "strict2.json", [{ ...post("alpha"), title: "Alpha once more" }])],
        { ...env, PURGE_STRICT: "on" },
      );
      expect(strict.status).toBe(1);
      expect(strict.stderr).toContain("the write is committed but the shared cache was not purged");
      await eventually(server.url, "/english/alpha", (seen) => seen.body.includes("Alpha once more"));
    } finally {
      await refusing.close();
    }
  });

  test("a write from outside sukti (sqlite3 by hand) cannot say what it changed: every page is dropped", async () => {
    const before = await warm(server.url, live);
    const { openDatabase } = await import("#app/data/sqlite/database.server.ts");
    const { db } = openDatabase(dbUrl);
    db.prepare("UPDATE posts SET title = 'By hand' WHERE slug = 'alpha'").run();
    db.close();
    await expectCache(server.url, before, { dropped: ["/english/alpha", "/hindi/hindi-bravo", "/tags"] });
    expect((await look(server.url, "/english/alpha")).body).toContain("By hand");
  });
});
