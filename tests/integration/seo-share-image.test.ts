import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LANGUAGES, type Language, postPath } from "#app/content/languages.ts";
import { openDatabase } from "#app/data/sqlite/database.server.ts";
import { SHARE_IMAGE_MAX_BYTES } from "#app/share-image/content.ts";
import { openReadonly, POST_COLUMNS, type PostRow } from "#tests/support/db.ts";
import { getHtml } from "#tests/support/html.ts";
import { type RunningServer, startServer } from "#tests/support/server.ts";

const ORIGIN = "https://sukti.example";
let server: RunningServer;
let imageDir: string;
let published: PostRow[];

beforeAll(async () => {
  imageDir = mkdtempSync(path.join(tmpdir(), "sukti-share-"));
  server = await startServer({ env: { PUBLIC_URL: ORIGIN, SHARE_IMAGE_DIR: imageDir } });
  const db = openReadonly(server.dbPath);
  published = db
    .prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status = 'publish' ORDER BY post_time DESC, id DESC`)
    .all() as PostRow[];
  db.close();
});
afterAll(async () => {
  await server?.stop();
  rmSync(imageDir, { recursive: true, force: true });
});

/** The og:image address of a post page, as a path on the test server. */
async function shareImageOf(language: Language, slug: string): Promise<string> {
  const { doc } = await getHtml(`${server.url}${postPath(language, slug)}`);
  const url = doc.querySelector('meta[property="og:image"]')?.getAttribute("content") ?? "";
  expect(url.startsWith(`${ORIGIN}/share/${language}/`)).toBe(true);
  return url.slice(ORIGIN.length);
}

/** Width and height from a baseline or progressive JPEG's SOF segment. */
function jpegSize(bytes: Uint8Array): [number, number] {
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  let at = 2;
  while (at < bytes.length) {
    expect(bytes[at]).toBe(0xff);
    const marker = bytes[at + 1]!;
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [(bytes[at + 7]! << 8) | bytes[at + 8]!, (bytes[at + 5]! << 8) | bytes[at + 6]!];
    }
    at += 2 + length;
  }
  throw new Error("no SOF segment");
}

const cached = () => readdirSync(imageDir).filter((name) => name.endsWith(".jpg"));

test("each post's share image is a 1200×630 JPEG under 300 kB, cached on disk and for a year", async () => {
  for (const language of LANGUAGES) {
    // One post with its own image, one without (the site background).
    const withImage = published.find((p) => p.language === language && p.featureImageUrl !== "")!;
    const withoutImage = published.find((p) => p.language === language && p.featureImageUrl === "")!;
    for (const post of [withImage, withoutImage]) {
      const url = await shareImageOf(language, post.slug);
      const response = await fetch(`${server.url}${url}`);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/jpeg");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      // Opened on its own, the browser's image document styles itself inline (security.ts).
      expect(response.headers.get("content-security-policy")).toBeNull();
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(jpegSize(bytes)).toEqual([1200, 630]);
      expect(bytes.length).toBeLessThan(SHARE_IMAGE_MAX_BYTES);
      expect(bytes.length).toBeGreaterThan(10_000);
      const version = url.split("/")[3];
      expect(cached()).toContain(`${language}-${post.idNum}-${version}.jpg`);
    }
  }
});

test("a cached image is served from disk, not drawn again", async () => {
  const post = published.find((p) => p.language === "hindi")!;
  const url = await shareImageOf("hindi", post.slug);
  const first = new Uint8Array(await (await fetch(`${server.url}${url}`)).arrayBuffer());
  const name = cached().find((file) => file.startsWith(`hindi-${post.idNum}-`))!;
  const written = statSync(path.join(imageDir, name)).mtimeMs;
  const second = new Uint8Array(await (await fetch(`${server.url}${url}`)).arrayBuffer());
  expect(Buffer.from(second).equals(first)).toBe(true);
  expect(statSync(path.join(imageDir, name)).mtimeMs).toBe(written);
  const head = await fetch(`${server.url}${url}`, { method: "HEAD" });
  expect(head.status).toBe(200);
  expect(head.headers.get("content-type")).toBe("image/jpeg");
});

test("?download asks the browser to save the image under the post's name", async () => {
  const post = published.find((p) => p.language === "marathi")!;
  const url = await shareImageOf("marathi", post.slug);
  const response = await fetch(`${server.url}${url}?download`);
  expect(response.status).toBe(200);
  const disposition = response.headers.get("content-disposition") ?? "";
  expect(disposition).toMatch(/^attachment; filename="marathi-\d+\.jpg"; filename\*=UTF-8''/);
  expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(`${post.slug}.jpg`);
});

test("editing a post gives it a new image at a new address; the old address redirects and the old file goes", async () => {
  const post = published.find((p) => p.language === "marathi" && p.featureImageUrl !== "")!;
  const before = await shareImageOf("marathi", post.slug);
  expect((await fetch(`${server.url}${before}`)).status).toBe(200);
  const oldName = cached().find((file) => file.startsWith(`marathi-${post.idNum}-`))!;

  const { db } = openDatabase(`file:${server.dbPath}`);
  db.prepare(
    "UPDATE posts SET title = ?, updated_at = unixepoch() WHERE language = 'marathi' AND slug = ?",
  ).run(`${post.title} (सुधारित)`, post.slug);
  db.close();

  const after = await shareImageOf("marathi", post.slug);
  expect(after).not.toBe(before);
  const fresh = await fetch(`${server.url}${after}`);
  expect(fresh.status).toBe(200);
  expect(cached()).not.toContain(oldName);
  expect(cached().filter((file) => file.startsWith(`marathi-${post.idNum}-`))).toHaveLength(1);
  const stale = await fetch(`${server.url}${before}`, { redirect: "manual" });
  expect(stale.status).toBe(302);
  expect(stale.headers.get("location")).toBe(after);
  expect(stale.headers.get("cache-control")).not.toMatch(/immutable/);
});

test("drafts, other languages' slugs and unknown names have no share image", async () => {
  const db = openReadonly(server.dbPath);
  const hidden = db.prepare(`SELECT ${POST_COLUMNS} FROM posts WHERE status <> 'publish'`).all() as PostRow[];
  db.close();
  expect(hidden.length).toBeGreaterThan(0);
  const english = published.find((p) => p.language === "english")!;
  const paths = [
    ...hidden.map((p) => `/share/${p.language}/0/${encodeURIComponent(p.slug)}.jpg`),
    `/share/hindi/0/${encodeURIComponent(english.slug)}.jpg`,
    `/share/klingon/0/${encodeURIComponent(english.slug)}.jpg`,
    `/share/english/0/${encodeURIComponent(english.slug)}.png`,
  ];
  for (const url of paths) {
    expect((await fetch(`${server.url}${url}`, { redirect: "manual" })).status, url).toBe(404);
  }
});
