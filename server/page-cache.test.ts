import { expect, test } from "vitest";
import { PageCache, type RenderedPage } from "./page-cache.ts";

// Counted at 1.5 times the body: room for its compressed copies.
const page = (bodyBytes: number): RenderedPage => ({
  status: 200,
  headers: [],
  body: Buffer.alloc(bodyBytes, 97),
  etag: 'W/"x"',
  csp: null,
  encoded: {},
});

test("an entry serves only the content version it was made at", () => {
  const cache = new PageCache();
  cache.set("/a", "v1", page(100));
  expect(cache.get("/a", "v1")).not.toBeNull();
  expect(cache.get("/a", "v2")).toBeNull();
  expect(cache.size).toBe(0);
  expect(cache.bytes).toBe(0);
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
