// `sukti unpublish` and `sukti delete` against a running server: the post is
// gone from every page at the next request (the content version changes).
import { afterAll, beforeAll, expect, test } from "vitest";
import { runSukti } from "#tests/support/cli.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** `sukti …` on the server's database, in this process (tests/support/cli.ts). */
const sukti = (...args: string[]) => runSukti(args, { DATABASE_URL: `file:${server.dbPath}` });
const text = async (pathname: string) => (await fetch(`${server.url}${pathname}`)).text();

test("an unpublished post leaves its page, lists, sitemap, feed and search; a deleted one too", async () => {
  const home = await text("/english/home");
  const [first, second] = [...home.matchAll(/class="post-card-link" href="\/english\/([^"]+)"/g)].map(
    (m) => m[1]!,
  );
  for (const slug of [first!, second!]) {
    expect((await fetch(`${server.url}/english/${slug}`)).status).toBe(200);
    expect(await text("/sitemaps/english-1.xml")).toContain(`/english/${slug}<`);
  }
  const unpublished = await sukti("unpublish", "english", first!);
  expect(unpublished.status, unpublished.stderr).toBe(0);
  expect(unpublished.stdout).toContain(`unpublished english "${first}"`);
  const deleted = await sukti("delete", "en", second!);
  expect(deleted.status, deleted.stderr).toBe(0);
  for (const slug of [first!, second!]) {
    expect((await fetch(`${server.url}/english/${slug}`)).status).toBe(404);
    expect((await fetch(`${server.url}/post/${slug}`)).status).toBe(404);
    expect(await text("/english/home")).not.toContain(`href="/english/${slug}"`);
    expect(await text("/sitemaps/english-1.xml")).not.toContain(`/english/${slug}<`);
    expect(await text("/english/feed.xml")).not.toContain(`/english/${slug}<`);
    expect(await text(`/search/${encodeURIComponent(slug.replaceAll("-", " "))}`)).not.toContain(
      `href="/english/${slug}"`,
    );
  }
  // Again: nothing to do, said in one line, exit 1.
  const again = await sukti("unpublish", "english", first!);
  expect(again.status).toBe(1);
  expect(again.stderr).toMatch(/^sukti: no published post english ".+" in .+; nothing was changed\n$/);
  expect((await sukti("delete", "english")).status).toBe(2);
  expect((await sukti("delete", "klingon", "x")).status).toBe(2);
});
