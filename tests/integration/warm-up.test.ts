// After a start the most visited pages are rendered ahead, in the
// background, while the server is quiet (server/cached-pages.ts warmUp,
// decisions 057 and 079): the first visitor of a language home, the sitemap or
// a newest post gets a page already kept (X-Cache: HIT), not a render.
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningServer, startServer } from "#tests/support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  // LOG_LEVEL=info: the warm-up says when it is done.
  server = await startServer({ env: { WARM_UP: "on", LOG_LEVEL: "info" } });
});
afterAll(async () => {
  await server?.stop();
});

test("a start renders the language homes, the sitemap and the newest posts ahead; their first visitor gets a HIT", async () => {
  // Without PUBLIC_URL the origin is the first visitor's: a page the warm-up does not render.
  const first = await fetch(`${server.url}/english/home?page=2`);
  expect(first.status).toBe(200);
  expect(first.headers.get("x-cache")).toBe("MISS");
  const deadline = Date.now() + 60_000;
  while (!/"msg":"warmed up"/.test(server.output())) {
    expect(server.output()).not.toMatch(/warm-up stopped|warm-up failed/);
    expect(Date.now(), "the warm-up's end is logged within a minute").toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A language's sitemap lists its posts newest first (and is rendered ahead itself).
  const sitemap = await (await fetch(`${server.url}/sitemaps/hindi-1.xml`)).text();
  const newest = /<loc>https?:\/\/[^/]+(\/hindi\/[^<]+)<\/loc>/.exec(sitemap)?.[1];
  expect(newest).toBeDefined();
  for (const path of ["/english/home", "/marathi/home", "/sitemap.xml", "/tags", newest]) {
    const response = await fetch(`${server.url}${path}`);
    await response.arrayBuffer();
    expect(response.status, path).toBe(200);
    expect(response.headers.get("x-cache"), path).toBe("HIT");
  }
});
