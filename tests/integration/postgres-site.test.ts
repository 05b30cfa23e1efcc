// Decision 035: `DATABASE_URL=postgres://… npm start` serves the same site as
// SQLite does, and a database outage is answered and recovered from. Several
// nodes on one database: postgres-nodes.test.ts (it asserts on time).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const available = postgresAvailable();

/** What differs between two servers of the same content: their port, nonces, request ids, write times. */
function normalize(body: string, origin: string): string {
  return body
    .replaceAll(origin, "ORIGIN")
    .replaceAll(encodeURIComponent(origin), "ORIGIN")
    .replace(/nonce="[^"]*"/g, 'nonce=""')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "REQUEST-ID")
    .replace(/<lastmod>[^<]*<\/lastmod>/g, "<lastmod/>")
    .replace(/<lastBuildDate>[^<]*<\/lastBuildDate>/g, "<lastBuildDate/>")
    .replace(/<updated>[^<]*<\/updated>/g, "<updated/>");
}

/** Every address of the site a crawler would find, plus lists, searches and misses. */
async function addresses(server: RunningServer): Promise<string[]> {
  const found = new Set<string>(["/", "/tags", "/sitemap.xml", "/robots.txt", "/manifest.webmanifest"]);
  const index = await (await fetch(`${server.url}/sitemap.xml`)).text();
  for (const [, sitemap] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const url = new URL(sitemap!);
    found.add(url.pathname);
    const xml = await (await fetch(`${server.url}${url.pathname}`)).text();
    for (const [, loc] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) found.add(new URL(loc!).pathname);
  }
  for (const language of ["english", "hindi", "marathi"]) {
    found.add(`/${language}/feed.xml`);
    found.add(`/${language}/home?page=2`);
    found.add(`/${language}/home?page=99`);
    found.add(`/${language}/no-such-post`);
  }
  for (const text of ["love", "prem", "प्रेम", "मन", "bhakti sant", "truth faith", "zzzz", "' OR 1=1 --"]) {
    found.add(`/search/${encodeURIComponent(text)}`);
  }
  return [...found];
}

describe.skipIf(!available)("PostgreSQL", () => {
  let postgres: TestPostgres;

  beforeAll(async () => {
    postgres = await startPostgres();
  });
  afterAll(async () => {
    await postgres?.stop();
  });

  test("an empty PostgreSQL database is seeded and serves the same site as SQLite, page for page", async () => {
    const url = await postgres.createDatabase("parity");
    const [sqlite, pg] = await Promise.all([startServer(), startServer({ env: { DATABASE_URL: url } })]);
    try {
      const paths = await addresses(sqlite);
      expect(paths.length).toBeGreaterThan(150);
      for (const pathname of paths) {
        const [a, b] = await Promise.all([fetch(`${sqlite.url}${pathname}`), fetch(`${pg.url}${pathname}`)]);
        expect(b.status, pathname).toBe(a.status);
        expect(b.headers.get("content-type"), pathname).toBe(a.headers.get("content-type"));
        expect(normalize(await b.text(), pg.url), pathname).toBe(normalize(await a.text(), sqlite.url));
      }
    } finally {
      await Promise.all([sqlite.stop(), pg.stop()]);
    }
  });

  test("a database down at start is one line without the password; one that goes away answers 503, then recovers", async () => {
    const dead = `postgres://sukti:hunter2@127.0.0.1:${postgres.port + 1}/nowhere`;
    const failed = await startServer({ env: { DATABASE_URL: dead } }).then(
      () => "started",
      (error: Error) => error.message,
    );
    expect(failed).toMatch(
      /sukti: cannot open database postgres:\/\/sukti:\*\*\*@127\.0\.0\.1:\d+\/nowhere: .+/,
    );
    expect(failed).not.toContain("hunter2");
    expect(failed).not.toMatch(/^\s+at /m);

    const url = await postgres.createDatabase("outage");
    const server = await startServer({ env: { DATABASE_URL: url } });
    try {
      expect((await fetch(`${server.url}/tags`)).status).toBe(200);
      const statusWithin = async (status: number, pathname: string, ms: number) => {
        const deadline = Date.now() + ms;
        for (;;) {
          const got = (await fetch(`${server.url}${pathname}`)).status;
          if (got === status || Date.now() > deadline) return got;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await postgres.restart(async () => {
        expect(await statusWithin(503, "/healthz", 5000)).toBe(503);
        const page = await fetch(`${server.url}/tags`);
        expect(page.status).toBe(503);
        expect(page.headers.get("retry-after")).toBe("10");
        expect(await page.text()).toContain("Back in a moment");
      });
      expect(await statusWithin(200, "/healthz", 15_000)).toBe(200);
      expect((await fetch(`${server.url}/tags`)).status).toBe(200);
      expect((await fetch(`${server.url}/search/love`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("/healthz reads every table the pages use: one gone turns it to 503 with Retry-After", async () => {
    const url = await postgres.createDatabase("health");
    const server = await startServer({ env: { DATABASE_URL: url } });
    const client = new pg.Client({ connectionString: url });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await client.connect();
      await client.query("ALTER TABLE people RENAME TO people_gone");
      await expect
        .poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: READY_MS })
        .toBe(503);
      expect((await fetch(`${server.url}/healthz`)).headers.get("retry-after")).toBe("10");
      await expect.poll(() => server.output()).toMatch(/"unhealthy".*people/);
      await client.query("ALTER TABLE people_gone RENAME TO people");
      await expect
        .poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: READY_MS })
        .toBe(200);
    } finally {
      await client.end();
      await server.stop();
    }
  });
});
