// Decision 057 on PostgreSQL: the change log is written by the same rules in
// PostgreSQL's write transactions and reaches every node through the
// content-version channel. Two nodes on one database: an edit refreshes the
// pages showing the post on both and leaves the rest; an unpublish drops the
// pages showing it on both before any of them serves it again; the purge
// hook gets exactly the tags the write changed.
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
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

describe.skipIf(!postgresAvailable())(
  "PostgreSQL, two nodes: a write drops or refreshes the same pages on both",
  // Two nodes warmed page by page, then asked again: minutes on a busy machine, none of it timed.
  { timeout: 120_000 },
  () => {
    let postgres: TestPostgres;
    let dir: string;
    let url: string;
    let nodes: RunningServer[] = [];
    let purge: PurgeReceiver;
    const sukti = (...args: string[]) => runSukti(args, { DATABASE_URL: url, PURGE_URL: purge.url });
    const purged = () =>
      [
        ...new Set(
          purge.received.splice(0).flatMap(({ body }) => (JSON.parse(body) as { tags: string[] }).tags),
        ),
      ].sort();
    const bravo = SITE.find((p) => p.slug === "bravo") as SitePost;

    beforeAll(async () => {
      postgres = await sharedPostgres();
      dir = mkdtempSync(path.join(tmpdir(), "sukti-pg-cache-tags-"));
      url = await postgres.createDatabase("cache_tags");
      purge = await purgeReceiver();
      const imported = await sukti("import", contentFile(dir, "site.json", SITE));
      expect(imported.status, imported.stderr).toBe(0);
      purge.received.length = 0;
      nodes = await Promise.all([
        startServer({ env: { DATABASE_URL: url } }),
        startServer({ env: { DATABASE_URL: url } }),
      ]);
    });
    afterAll(async () => {
      await Promise.all(nodes.map((node) => node.stop()));
      await purge?.close();
      await postgres?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Until the node has taken in the write (the channel's notification, or its next poll). */
    const caughtUp = (node: RunningServer, page: string, done: (body: string) => boolean) =>
      eventually(node.url, page, (seen) => done(seen.body));

    test("edit: both nodes refresh the post's pages and keep the others", async () => {
      const before = await Promise.all(nodes.map((node) => warm(node.url)));
      const result = await sukti(
        "import",
        contentFile(dir, "edit.json", [{ ...bravo, title: "Bravo renamed" }]),
      );
      expect(result.status, result.stderr).toBe(0);
      // Purged twice: at once, and again once every node has seen the write (PURGE_REPEAT_MS).
      expect(purge.received.length).toBe(2);
      expect(purged()).toEqual(["post-bravo", "search", "sitemap-english"]);
      for (const [index, node] of nodes.entries()) {
        // A page that does not show bravo: the same cached page once the node has the change too.
        await caughtUp(node, "/english/bravo", (body) => body.includes("Bravo renamed"));
        await expectCache(node.url, before[index]!, {
          kept: [
            "/english/delta",
            "/english/echo",
            "/hindi/hindi-bravo",
            "/tag/hope",
            "/people/kabir",
            "/tags",
          ],
        });
        await caughtUp(node, "/english/home", (body) => body.includes("Bravo renamed"));
        await caughtUp(node, "/tag/peace", (body) => body.includes("Bravo renamed"));
      }
    });

    test("unpublish: both nodes drop every page that showed the post; none shows it again", async () => {
      const before = await Promise.all(nodes.map((node) => warm(node.url)));
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
      const live = PAGES.filter((page) => page !== "/english/bravo" && page !== "/people/mirabai");
      for (const [index, node] of nodes.entries()) {
        // The node's version moves with the channel: once /english/bravo is 404 there, every page showing it is gone.
        await eventually(node.url, "/english/bravo", (seen) => seen.status === 404);
        const shows = [...before[index]!]
          .filter(([page, seen]) => live.includes(page) && seen.body.includes("/english/bravo"))
          .map(([page]) => page);
        expect(shows.length).toBeGreaterThan(5);
        await expectCache(node.url, before[index]!, {
          dropped: shows,
          kept: ["/hindi/hindi-alpha", "/hindi/hindi-bravo", "/tag/courage"],
        });
        for (const page of live)
          expect((await look(node.url, page)).body, page).not.toContain("/english/bravo");
      }
    });
  },
);
