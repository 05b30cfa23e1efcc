// Decision 035: several nodes share one PostgreSQL database, and an import shows
// on every node within a second. It asserts on time, so it runs with the
// "timed" files, alone (vitest.config.ts); the rest of the PostgreSQL site:
// postgres-site.test.ts.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { postgresAvailable, sharedPostgres, type TestPostgres } from "#tests/support/postgres.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const available = postgresAvailable();

describe.skipIf(!available)("PostgreSQL nodes", () => {
  let postgres: TestPostgres;
  let dir: string;

  beforeAll(async () => {
    postgres = await sharedPostgres();
    dir = mkdtempSync(path.join(tmpdir(), "sukti-pg-nodes-"));
  });
  afterAll(async () => {
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("two nodes on one database: an import shows on both within a second; one killed, the other serves", async () => {
    const url = await postgres.createDatabase("nodes");
    // Started together on an empty database (it is seeded once); one node runs two workers.
    const [one, two] = await Promise.all([
      startServer({ env: { DATABASE_URL: url, WEB_CONCURRENCY: "2" } }),
      startServer({ env: { DATABASE_URL: url } }),
    ]);
    try {
      const count = async (server: RunningServer) =>
        [...(await (await fetch(`${server.url}/english/home`)).text()).matchAll(/class="post-card-link"/g)]
          .length;
      expect(await count(one)).toBe(await count(two));
      // Cached on both before the import.
      await fetch(`${one.url}/english/home`);
      await fetch(`${two.url}/english/home`);

      const file = path.join(dir, "new.json");
      const post = {
        idNum: 9001,
        language: "english",
        status: "publish",
        postTime: 4_102_444_800,
        title: "Written on one node, read on both",
        slug: "written-on-one-node",
        content: "<p>Seen everywhere within a second.</p>",
        tags: ["Unity"],
      };
      writeFileSync(file, JSON.stringify({ posts: [post] }));
      await run(process.execPath, ["bin/sukti.js", "import", file], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: url },
      });
      const importedAt = Date.now();
      for (const server of [one, two]) {
        for (;;) {
          const html = await (await fetch(`${server.url}/english/home`)).text();
          if (html.includes(post.title)) break;
          expect(Date.now() - importedAt, server.url).toBeLessThan(1000);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const search = await (await fetch(`${two.url}/search/${encodeURIComponent("written node")}`)).text();
      expect(search).toContain(`href="/english/${post.slug}"`);

      one.child.kill("SIGKILL");
      const page = await fetch(`${two.url}/english/${post.slug}`);
      expect(page.status).toBe(200);
      expect((await fetch(`${two.url}/healthz`)).status).toBe(200);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});
