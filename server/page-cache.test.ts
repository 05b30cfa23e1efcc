import { expect, test } from "vitest";
import { MAX_STALE_MS, PageCache, type RenderedPage } from "./page-cache.ts";

// Counted at 1.5 times the body: room for its compressed copies.
const page = (bodyBytes: number, tags: string[] = ["all"]): RenderedPage => ({
  status: 200,
  headers: [],
  body: Buffer.alloc(bodyBytes, 97),
  etag: 'W/"x"',
  csp: null,
  encoded: {},
  tags,
});

test("a page made on an earlier site-day is served stale, then dropped past MAX_STALE_MS", () => {
  const cache = new PageCache();
  cache.set("/a", "d1", page(100));
  expect(cache.get("/a", "d1")?.stale).toBe(false);
  const now = Date.now();
  expect(cache.get("/a", "d2", now)?.stale).toBe(true);
  expect(cache.get("/a", "d2", now + MAX_STALE_MS + 1)).toBeNull();
  expect(cache.size).toBe(0);
  expect(cache.bytes).toBe(0);
});

test("a write's tags mark the pages showing them stale, or drop them for a removal; `all` names every page", () => {
  const cache = new PageCache();
  cache.set("/post/a", "d", page(10, ["all", "post-a", "list-english"]));
  cache.set("/post/b", "d", page(10, ["all", "post-b", "list-english"]));
  cache.set("/tags", "d", page(10, ["all", "terms"]));
  expect(cache.invalidate(new Set(["post-a"]), false)).toEqual(["/post/a"]);
  expect(cache.get("/post/a", "d")?.stale).toBe(true);
  expect(cache.get("/post/b", "d")?.stale).toBe(false);
  expect(cache.invalidate(new Set(["list-english"]), true).sort()).toEqual(["/post/a", "/post/b"]);
  expect(cache.get("/post/a", "d")).toBeNull();
  expect(cache.get("/tags", "d")?.stale).toBe(false);
  cache.invalidate(new Set(["all"]), false);
  expect(cache.get("/tags", "d")?.stale).toBe(true);
});

test("past its byte budget the least recently used pages leave first", () => {
  const cache = new PageCache({ maxBytes: 1000 });
  for (const key of ["/a", "/b", "/c"]) cache.set(key, "v", page(200)); // 300 bytes each
  expect(cache.bytes).toBe(900);
  cache.get("/a", "v"); // /b is now the oldest
  cache.set("/d", "v", page(200));
  expect(cache.get("/b", "v")).toBeNull();
  for (const key of ["/a", "/c", "/d"]) expect(cache.get(key, "v"), key).not.toBeNull();
  expect(cache.bytes).toBe(900);
  // Replacing an entry counts its bytes once.
  cache.set("/a", "v", page(100));
  expect(cache.bytes).toBe(750);
});

test("past its entry budget too", () => {
  const cache = new PageCache({ maxEntries: 2 });
  for (const key of ["/a", "/b", "/c"]) cache.set(key, "v", page(1));
  expect(cache.size).toBe(2);
  expect(cache.get("/a", "v")).toBeNull();
});
