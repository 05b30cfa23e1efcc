import { afterAll, beforeAll, expect, test } from "vitest";
import { postPath } from "#app/content/languages.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const MAX_PAGES = 600;
const CRAWLERS = 4;

test("every link reachable from / works, and no unpublished post shows anywhere", async () => {
  const db = openReadonly(server.dbPath);
  const hidden = db.prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status <> 'publish'`).all() as PostRow[];
  db.close();
  const hiddenPaths = new Set(
    hidden.flatMap((p) => [postPath(p.language, p.slug), `/post/${encodeURIComponent(p.slug)}`]),
  );

  const queue = ["/"];
  const seen = new Set(queue);
  const failures: string[] = [];
  const visit = async (path: string) => {
    const { status, text, doc } = await getHtml(`${server.url}${path}`);
    if (status !== 200) failures.push(`${status} ${path}`);
    for (const post of hidden) {
      if (text.includes(`>${post.title}<`) || text.includes(`alt="${post.title}"`)) {
        failures.push(`${path} shows unpublished "${post.title}"`);
      }
    }
    const assets: string[] = [];
    for (const element of doc.querySelectorAll("a[href], img[src], link[href]")) {
      const raw = element.getAttribute("href") ?? element.getAttribute("src") ?? "";
      if (!raw.startsWith("/") || raw.startsWith("//")) continue;
      const target = new URL(raw, server.url);
      const local = target.pathname + target.search;
      if (hiddenPaths.has(target.pathname)) failures.push(`${path} links to unpublished ${local}`);
      if (seen.has(local)) continue;
      seen.add(local);
      if (element.tagName === "A") queue.push(local);
      else assets.push(local);
    }
    await Promise.all(
      assets.map(async (local) => {
        const response = await fetch(`${server.url}${local}`, { method: "HEAD" });
        if (response.status !== 200) failures.push(`${response.status} ${local} (from ${path})`);
      }),
    );
  };
  // A few pages at a time: the test parses one page while the server renders the next.
  let crawled = 0;
  while (queue.length > 0 && crawled < MAX_PAGES) {
    const batch = queue.splice(0, Math.min(CRAWLERS, MAX_PAGES - crawled));
    crawled += batch.length;
    await Promise.all(batch.map(visit));
  }
  expect(failures).toEqual([]);
  expect(queue).toEqual([]); // the whole site fits in the bound
  expect(crawled).toBeGreaterThan(150);
});
