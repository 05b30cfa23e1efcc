// The store the server holds on PostgreSQL: prepared on open (migrated, the
// demo seeded once into an empty database), one clear line when the database
// cannot be reached at start, 503-then-recover when it goes away while
// serving. Real servers (tests/support/postgres.ts), one stopped and started
// again mid-test; no mocks.
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ContentFile } from "#app/content/schemas.ts";
import { incomingKeys } from "#app/data/content-writer.ts";
import { readDemoContent } from "#app/data/demo.server.ts";
import { openPostgresWrites } from "#app/data/postgres/content-writes.server.ts";
import { describePostgresUrl, openPostgresStore } from "#app/data/postgres/served-store.server.ts";
import { sanitizePostHtml } from "#app/data/sanitize.server.ts";
import type { ServedStore } from "#app/data/store.ts";
import { WritesRefusedError } from "#app/data/writes.ts";
import { READY_MS } from "#tests/support/limits.ts";
import { postgresAvailable, startPostgres, type TestPostgres } from "#tests/support/postgres.ts";

const available = postgresAvailable();

async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

function onePost(slug: string, idNum: number, word = "plain"): ContentFile {
  return {
    posts: [
      {
        language: "english",
        idNum,
        status: "publish",
        postTime: 1_700_000_000 + idNum,
        title: `Post ${slug}`,
        slug,
        featureImageUrl: "",
        content: `<p>${word} words of ${slug}</p>`,
        excerpt: "",
        tags: ["Testing"],
        categories: [],
      },
    ],
    pages: [],
  };
}

async function importThrough(url: string, content: ContentFile): Promise<void> {
  const writes = await openPostgresWrites(url);
  try {
    await writes.transaction({ incoming: incomingKeys(content) }, async (writer) => {
      for (const post of content.posts) await writer.writePost(post, sanitizePostHtml(post.content));
      for (const page of content.pages) await writer.writePage(page, sanitizePostHtml(page.content));
      await writer.finish();
    });
  } finally {
    await writes.close();
  }
}

async function scalar(url: string, sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(sql)).rows[0])[0];
  } finally {
    await client.end();
  }
}

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const demoPublished = () => readDemoContent().posts.filter((post) => post.status === "publish");

describe.skipIf(!available)("PostgreSQL served store: opening", () => {
  let server: TestPostgres;

  beforeAll(async () => {
    server = await startPostgres();
  });

  afterAll(async () => {
    await server?.stop();
  });

  test("an empty database is migrated and seeded on first open; `await store` resolves", async () => {
    const url = await server.createDatabase("first_open");
    const store = await openPostgresStore(url);
    try {
      expect("then" in store).toBe(false);
      expect(await Promise.resolve(store)).toBe(store);
      expect(await store.ping()).toBe(true);
      expect(store.readOnlyReason).toBeNull();
      expect(store.contentVersion()).toMatch(/^\d+$/);
      const demo = demoPublished();
      expect(await store.countPosts("english")).toBe(demo.filter((p) => p.language === "english").length);
      expect(await store.countPosts("hindi")).toBe(demo.filter((p) => p.language === "hindi").length);
      const first = demo[0]!;
      expect((await store.getPost(first.language, first.slug))?.title).toBe(first.title);
      expect((await store.searchPosts(first.title, 1, 10)).total).toBeGreaterThan(0);
      expect(Number(await scalar(url, "SELECT count(*) FROM schema_migrations"))).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  test("two stores opening together on an empty database seed it once", async () => {
    const url = await server.createDatabase("two_opens");
    const stores = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    try {
      expect(Number(await scalar(url, "SELECT count(*) FROM posts"))).toBe(readDemoContent().posts.length);
      // Version 1 at migration, bumped once by the one seed.
      expect(Number(await scalar(url, "SELECT version FROM content_version"))).toBe(2);
      expect(stores[0].contentVersion()).toBe("2");
      expect(stores[1].contentVersion()).toBe("2");
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  test("a database that holds posts is not reseeded", async () => {
    const url = await server.createDatabase("holds_posts");
    await importThrough(url, onePost("only-one", 1));
    const store = await openPostgresStore(url);
    try {
      expect(await store.countPosts("english")).toBe(1);
      expect(await store.countPosts("hindi")).toBe(0);
      expect(Number(await scalar(url, "SELECT count(*) FROM posts"))).toBe(1);
    } finally {
      await store.close();
    }
    // Nor on the next open.
    const again = await openPostgresStore(url);
    await again.close();
    expect(Number(await scalar(url, "SELECT count(*) FROM posts"))).toBe(1);
  });

  test("a database down at start fails with one line, without the password", async () => {
    const port = await closedPort();
    const started = Date.now();
    const refused = openPostgresStore(`postgres://sukti:s3cr%40t@127.0.0.1:${port}/site`);
    await expect(refused).rejects.toThrow(`connection refused at 127.0.0.1:${port}`);
    const message = await refused.catch((error: Error) => error.message);
    expect(message).not.toMatch(/s3cr|\n/);
    expect(Date.now() - started).toBeLessThan(6000);

    const missing = openPostgresStore(`postgres://postgres:hunter2@127.0.0.1:${server.port}/nope`);
    await expect(missing).rejects.toThrow('database "nope" does not exist');
    expect(await missing.catch((error: Error) => error.message)).not.toMatch(/hunter2|\n/);

    const writes = openPostgresWrites(`postgres://sukti:s3cr%40t@127.0.0.1:${port}/site`);
    await expect(writes).rejects.toThrow(
      `cannot open the database postgres://sukti@127.0.0.1:${port}/site: connection refused at 127.0.0.1:${port}`,
    );
    await expect(writes).rejects.toBeInstanceOf(WritesRefusedError);
  });

  test("a host that never answers fails start-up after about 5 s, in one line", async () => {
    const silent = net.createServer(() => {
      // Connections are accepted and never answered: that is the host under test.
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const started = Date.now();
      await expect(openPostgresStore(`postgres://sukti:s3cret@127.0.0.1:${port}/site`)).rejects.toThrow(
        `no answer from 127.0.0.1:${port} within 5 s`,
      );
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      silent.close();
    }
  });

  test("describePostgresUrl drops the password", () => {
    expect(describePostgresUrl("postgres://sukti:s3cret@db.example:5433/site")).toBe(
      "postgres://sukti@db.example:5433/site",
    );
    expect(describePostgresUrl("postgresql://db/site?password=s3cret&sslmode=require")).toBe(
      "postgresql://db/site?sslmode=require",
    );
    expect(describePostgresUrl("postgres://sukti@db/site")).toBe("postgres://sukti@db/site");
  });
});

describe.skipIf(!available)("PostgreSQL served store: the database goes away while serving", () => {
  let server: TestPostgres;
  let url: string;
  let a: ServedStore;
  let b: ServedStore;

  const listeners = async () =>
    Number(
      await scalar(
        server.url("postgres"),
        "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%' AND datname = 'outage'",
      ),
    );

  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase("outage");
    [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await server?.stop();
  });

  test("down: ping false, no content version, reads reject; back: all of it recovers by itself", async () => {
    expect(await a.ping()).toBe(true);
    expect(a.contentVersion()).toMatch(/^\d+$/);
    await within(READY_MS, async () => (await listeners()) === 2);

    const found = await a.searchPosts("love", 1, 10);
    expect(found.total).toBeGreaterThan(0);
    await server.pause();
    await within(READY_MS, async () => !(await a.ping()));
    const started = Date.now();
    expect(await a.ping()).toBe(false);
    // It does not hang (its own limit is a second; 10 s leaves room for a busy machine).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(a.contentVersion()).toBeNull();
    await expect(a.getWebsite()).rejects.toThrow("the database is unavailable");
    await expect(a.searchPosts("love", 1, 10)).rejects.toMatchObject({ name: "PostgresUnavailableError" });
    // A store nobody pings learns it from its reads (and its version poll).
    await expect(b.latestPost()).rejects.toThrow("the database is unavailable");
    await within(READY_MS, () => b.contentVersion() === null);

    await server.resume();
    await within(READY_MS, () => a.ping());
    expect(await a.getWebsite()).toMatchObject({ maxIdEng: expect.any(Number) });
    expect(await a.searchPosts("love", 1, 10)).toEqual(found);
    await within(READY_MS, async () => (await b.ping()) && b.contentVersion() !== null);
    await within(READY_MS, () => a.contentVersion() !== null);
    // Both LISTEN clients are back.
    await within(READY_MS, async () => (await listeners()) === 2);

    // An import is seen by every store (within a second on a quiet machine: the timed
    // postgres-nodes test holds that bound; here, only that it is seen).
    const before = b.contentVersion();
    await importThrough(url, onePost("after-the-outage", 990_001));
    await within(READY_MS, () => b.contentVersion() !== before);
    await within(READY_MS, () => a.contentVersion() !== before);
    expect((await b.getPost("english", "after-the-outage"))?.title).toBe("Post after-the-outage");
  });

  test("close() does not hang while the database is down", async () => {
    await server.pause();
    const started = Date.now();
    await Promise.all([a.close(), b.close()]);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await a.ping()).toBe(false);
    await server.resume();
  });
});
