// Decision 080: a 404 page is kept too, in a cache of its own (an unpublished
// post's address is still shared; a crawler keeps its old links): the next
// visitor of the same address gets it without a render, it shows no one's
// request id, a write that publishes a post at that address drops it before
// any visitor sees it again, and made-up addresses cannot push pages out.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { contentFile, look, SITE, type SitePost } from "#tests/support/cache-pages.ts";
import { runSukti } from "#tests/support/cli.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let dir: string;
let dbUrl: string;
let server: RunningServer;
const sukti = (...args: string[]) => runSukti(args, { DATABASE_URL: dbUrl });
/** `sukti import` of these posts, published; it must succeed. */
const publish = async (name: string, posts: SitePost[]) => {
  const result = await sukti("import", contentFile(dir, name, posts));
  expect(result.status, result.stderr).toBe(0);
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-missing-"));
  dbUrl = `file:${path.join(dir, "site.db")}`;
  await publish("site.json", SITE);
  server = await startServer({ dbPath: path.join(dir, "site.db") });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("a 404 is kept for the next visitor, shows no request id, and publishing a post there drops it at once", async () => {
  const first = await look(server.url, "/english/zulu");
  const second = await look(server.url, "/english/zulu");
  expect([first.status, second.status]).toEqual([404, 404]);
  expect([first.cache, second.cache]).toEqual(["MISS", "HIT"]);
  expect(second.body).toBe(first.body);
  const firstId = first.headers.get("x-request-id");
  expect(firstId).toBeTruthy();
  expect(first.body).not.toContain(firstId);
  // Never shared with a cache in front.
  expect(second.headers.get("cache-control")).toBe("no-cache");
  expect(second.headers.get("xkey")).toBeNull();

  await publish("zulu.json", [
    { language: "english", slug: "zulu", title: "Zulu words", postTime: 1_700_000_900, tags: [] },
  ]);
  const published = await look(server.url, "/english/zulu");
  expect(published.status).toBe(200);
  expect(published.body).toContain("Zulu words");
});

test("an unpublished post's address: its 404 is kept, and publishing it again shows the post at once", async () => {
  expect((await look(server.url, "/english/bravo")).status).toBe(200);
  const unpublished = await sukti("unpublish", "english", "bravo");
  expect(unpublished.status, unpublished.stderr).toBe(0);
  const gone = [await look(server.url, "/english/bravo"), await look(server.url, "/english/bravo")];
  expect(gone.map((seen) => [seen.status, seen.cache])).toEqual([
    [404, "MISS"],
    [404, "HIT"],
  ]);
  expect(gone[1]?.body).not.toContain("Bravo words");
  await publish(
    "bravo.json",
    SITE.filter((post) => post.slug === "bravo"),
  );
  const back = await look(server.url, "/english/bravo");
  expect(back.status).toBe(200);
  expect(back.body).toContain("Bravo words");
});

test("a run of made-up addresses cannot push pages out of the cache", async () => {
  await look(server.url, "/english/alpha");
  expect((await look(server.url, "/english/alpha")).cache).toBe("HIT");
  // More 404s than their cache holds (500), four at a time.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < 520) {
        const seen = await look(server.url, `/english/no-such-quote-${next++}`);
        expect(seen.status).toBe(404);
      }
    }),
  );
  expect((await look(server.url, "/english/alpha")).cache).toBe("HIT");
  // The most recent ones are still kept; the first were pushed out of their own cache.
  expect((await look(server.url, "/english/no-such-quote-519")).cache).toBe("HIT");
  expect((await look(server.url, "/english/no-such-quote-0")).cache).toBe("MISS");
});
