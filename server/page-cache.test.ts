import { brotliDecompressSync } from "node:zlib";
import { expect, test } from "vitest";
import { MAX_STALE_MS, PageCache, pageIdentity, type RenderedPage } from "./page-cache.ts";

// Pages too small to compress (under 1 kB) are held as they are, counted at their size.
const page = (bodyBytes: number, tags: string[] = ["all"]): RenderedPage => ({
  status: 200,
  headers: [],
  body: Buffer.alloc(bodyBytes, 97),
  size: bodyBytes,
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

test("a kept page shares its encodings with the page sent, and does not hold the maker of its gzip", () => {
  const cache = new PageCache();
  const sent: RenderedPage = { ...page(4000), gzip: () => Buffer.from("made from parts") };
  cache.set("/a", "d", sent);
  const held = cache.get("/a", "d")?.page;
  expect(held?.gzip).toBeUndefined();
  expect(held && pageIdentity(held)).toBe(pageIdentity(sent));
  // The gzip the page sent made (send-page.ts keeps it in the shared encodings) is the held page's.
  sent.encoded.gzip = sent.gzip?.();
  expect(held?.encoded.gzip?.toString()).toBe("made from parts");
});

test("past its byte budget the least recently used pages leave first", () => {
  const cache = new PageCache({ maxBytes: 650 });
  for (const key of ["/a", "/b", "/c"]) cache.set(key, "v", page(200));
  expect(cache.bytes).toBe(600);
  cache.get("/a", "v"); // /b is now the oldest
  cache.set("/d", "v", page(200));
  expect(cache.get("/b", "v")).toBeNull();
  for (const key of ["/a", "/c", "/d"]) expect(cache.get(key, "v"), key).not.toBeNull();
  expect(cache.bytes).toBe(600);
  // Replacing an entry counts its bytes once.
  cache.set("/a", "v", page(100));
  expect(cache.bytes).toBe(500);
});

test("past its entry budget too", () => {
  const cache = new PageCache({ maxEntries: 2 });
  for (const key of ["/a", "/b", "/c"]) cache.set(key, "v", page(1));
  expect(cache.size).toBe(2);
  expect(cache.get("/a", "v")).toBeNull();
});

test("a page is held compressed, counted at twice its brotli copy, and gives its body back whole", () => {
  const text = Array.from({ length: 2000 }, (_, i) => `<p class="quote">line ${i} of a long page</p>`).join(
    "\n",
  );
  const rendered: RenderedPage = { ...page(0), body: Buffer.from(text), size: Buffer.byteLength(text) };
  const cache = new PageCache();
  cache.set("/long", "d", rendered);
  const held = cache.get("/long", "d")?.page;
  const br = held?.encoded.br;
  expect(br).toBeInstanceOf(Buffer);
  // The render's own response shares the copy (no second compression).
  expect(rendered.encoded.br).toBe(br);
  expect(cache.bytes).toBe(2 * (br?.length ?? 0));
  expect(cache.bytes).toBeLessThan(rendered.size / 4);
  expect(brotliDecompressSync(br ?? Buffer.alloc(0)).toString()).toBe(text);
  expect(held?.body.toString()).toBe(text);
  expect(held?.size).toBe(rendered.size);
  // One identity for both: what was worked out from the render is found for the copy.
  expect(held).not.toBe(rendered);
  expect(held && pageIdentity(held)).toBe(pageIdentity(rendered));
});

test("a page asked for since the eviction hand last passed gets a second chance; a hit is the entry itself", () => {
  const cache = new PageCache({ maxEntries: 3 });
  for (const key of ["/a", "/b", "/c"]) cache.set(key, "v", page(1));
  const hit = cache.get("/a", "v");
  expect(cache.get("/a", "v")).toBe(hit);
  cache.get("/b", "v");
  cache.set("/d", "v", page(1));
  expect(cache.has("/c")).toBe(false);
  for (const key of ["/a", "/b", "/d"]) expect(cache.has(key), key).toBe(true);
  // The hand cleared /a's and /b's chances on its way: the oldest of the rest goes next.
  cache.set("/e", "v", page(1));
  expect(cache.has("/d")).toBe(false);
  expect(cache.size).toBe(3);
  // A write marks the same hit stale.
  cache.invalidate(new Set(["all"]), false);
  expect(hit?.stale).toBe(true);
});
