import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { type Db, migrate, openDatabase } from "#app/data/sqlite/database.server.ts";
import { SqliteContentStore } from "#app/data/sqlite/reads.server.ts";
import { writeContent } from "#app/data/sqlite/transaction.server.ts";
import { postRecord } from "#tests/support/records.ts";

let dir: string;
let db: Db;
let store: SqliteContentStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "sukti-store-"));
  db = openDatabase(`file:${path.join(dir, "test.db")}`).db;
  migrate(db);
  store = new SqliteContentStore(db);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = postRecord;

test("migrations create the columns the adapter reads, and run once", () => {
  const columns = db.prepare("SELECT name FROM pragma_table_info('posts')").pluck().all();
  expect(columns).toEqual(
    expect.arrayContaining([
      "language",
      "id_num",
      "status",
      "post_time",
      "title",
      "slug",
      "feature_image_url",
      "content",
      "excerpt",
    ]),
  );
  expect(migrate(db)).toEqual([]);
});

test("website maxIds follow every change to the posts", async () => {
  expect(await store.getWebsite()).toEqual({ maxIdEng: 0, maxIdHin: 0, maxIdMr: 0 });
  writeContent(db, {
    posts: [
      post({ idNum: 3, slug: "a" }),
      post({ idNum: 17, slug: "b", status: "draft" }),
      post({ idNum: 5, slug: "c", language: "hindi" }),
      post({ idNum: 2, slug: "d", language: "marathi" }),
    ],
    pages: [],
  });
  // The draft at 17 is not counted (decision 003): the gallery draws among published idNums.
  expect(await store.getWebsite()).toEqual({ maxIdEng: 3, maxIdHin: 5, maxIdMr: 2 });
  writeContent(db, { posts: [post({ idNum: 40, slug: "c", language: "hindi" })], pages: [] });
  expect(await store.getWebsite()).toEqual({ maxIdEng: 3, maxIdHin: 40, maxIdMr: 2 });
  writeContent(db, { posts: [post({ idNum: 17, slug: "b" })], pages: [] });
  expect(await store.getWebsite()).toEqual({ maxIdEng: 17, maxIdHin: 40, maxIdMr: 2 });
  db.prepare("DELETE FROM posts WHERE language = 'english' AND id_num = 17").run();
  expect(await store.getWebsite()).toEqual({ maxIdEng: 3, maxIdHin: 40, maxIdMr: 2 });
});

test("sample returns only published posts among the ids, newest first, at most the limit", async () => {
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "one", postTime: 100 }),
      post({ idNum: 2, slug: "two", postTime: 400 }),
      post({ idNum: 3, slug: "three", postTime: 300, status: "draft" }),
      post({ idNum: 4, slug: "four", postTime: 200 }),
      post({ idNum: 5, slug: "five", postTime: 500 }),
      post({ idNum: 6, slug: "six", postTime: 900, language: "hindi" }),
    ],
    pages: [],
  });
  const slugs = async (ids: number[], limit = 3) =>
    (await store.samplePosts("english", ids, limit)).map((p) => p.slug);
  expect(await slugs([1, 2, 3, 4, 5, 6])).toEqual(["five", "two", "four"]);
  expect(await slugs([3, 3, 3])).toEqual([]);
  expect(await slugs([1, 1, 1, 4, 4, 0])).toEqual(["four", "one"]);
  expect(await slugs([6])).toEqual([]);
  expect(await slugs([1, 2, 4, 5], 2)).toEqual(["five", "two"]);
});

test("the latest post is the newest published one, never a newer draft", async () => {
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "old", postTime: 100, language: "marathi" }),
      post({ idNum: 2, slug: "new", postTime: 200, language: "hindi" }),
      post({ idNum: 3, slug: "draft", postTime: 300, status: "draft" }),
      post({ idNum: 4, slug: "trash", postTime: 400, status: "trash" }),
    ],
    pages: [],
  });
  expect((await store.latestPost())?.slug).toBe("new");
});

test("reads never return unpublished posts", async () => {
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "draft", status: "draft", tags: ["Secret"] }),
      post({ idNum: 2, slug: "private", status: "private", tags: ["Secret"] }),
      post({ idNum: 3, slug: "public", tags: ["Open"] }),
    ],
    pages: [],
  });
  expect(await store.getPost("english", "draft")).toBeNull();
  expect(await store.getPostAnyLanguage("private")).toBeNull();
  expect((await store.listPosts({ language: "english" }, 1, 10)).posts.map((p) => p.slug)).toEqual([
    "public",
  ]);
  expect(await store.listTags()).toEqual([
    { kind: "tag", name: "Open", slug: "open", language: "english", count: 1 },
  ]);
  expect(await store.getTerm("tag", "secret")).toBeNull();
  expect((await store.searchPosts("Content", 1, 10)).posts.map((p) => p.slug)).toEqual(["public"]);
});

test("writing the same content twice changes nothing", () => {
  const content = {
    posts: [post({ idNum: 1, slug: "a", tags: ["Love", "Truth"], categories: ["Poetry"] })],
    pages: [{ slug: "privacy-policy", title: "Privacy", content: "<p>x</p>" }],
  };
  expect(writeContent(db, content)).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
  expect(writeContent(db, content)).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  const changed = { ...content, posts: [{ ...content.posts[0]!, tags: ["Love"] }] };
  expect(writeContent(db, changed)).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
});

test("stored HTML is sanitized", async () => {
  writeContent(db, {
    posts: [
      post({
        idNum: 1,
        slug: "x",
        content: '<p onclick="alert(1)">Hi<script>alert(2)</script><a href="javascript:alert(3)">l</a></p>',
      }),
    ],
    pages: [],
  });
  const content = (await store.getPost("english", "x"))?.content ?? "";
  expect(content).toContain("Hi");
  expect(content).not.toMatch(/script|onclick|javascript:/i);
});

test("search counts matches up to 1,000 on the first pages, and all of them on a page past that", async () => {
  const posts = Array.from({ length: 1030 }, (_, i) =>
    post({ idNum: i + 1, slug: `p${i + 1}`, title: `Note ${i + 1}`, content: "<p>a common word: river</p>" }),
  );
  // Drafts never count, capped or not.
  posts.push(post({ idNum: 2000, slug: "draft", status: "draft", content: "<p>river</p>" }));
  writeContent(db, { posts, pages: [] });
  const first = await store.searchPosts("river", 1, 24);
  expect(first).toMatchObject({ total: 1000, totalCapped: true, hasNext: true });
  expect(first.posts).toHaveLength(24);
  // Page 41 ends at match 984: still counted up to the bound.
  expect(await store.searchPosts("river", 41, 24)).toMatchObject({ total: 1000, totalCapped: true });
  // Page 42 reaches past 1,000: every match counted, so the last page is known.
  expect(await store.searchPosts("river", 42, 24)).toMatchObject({
    total: 1030,
    totalCapped: false,
    hasNext: true,
  });
  const last = await store.searchPosts("river", 43, 24);
  expect(last).toMatchObject({ total: 1030, totalCapped: false, hasNext: false });
  expect(last.posts.map((p) => p.slug)).toEqual(Array.from({ length: 22 }, (_, i) => `p${22 - i}`));
  expect(await store.searchPosts("note", 1, 24)).toMatchObject({ total: 1000, totalCapped: true });
  // Below the bound the count is exact.
  expect(await store.searchPosts("1030", 1, 24)).toMatchObject({ total: 1, totalCapped: false });
});

test("search ranks a title match by the words of its text when its title holds only a longer word", async () => {
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "oldest", title: "Lovely morning", content: "<p>love is here</p>" }),
      post({ idNum: 2, slug: "middle", title: "Lovely noon", content: "<p>nothing else</p>" }),
      post({ idNum: 3, slug: "newest", title: "Lovely evening", content: "<p>nothing more</p>" }),
      post({ idNum: 4, slug: "text-only", title: "Evening", content: "<p>love</p>" }),
      post({ idNum: 5, slug: "tagged", title: "Lovely night", content: "<p>quiet</p>", tags: ["Love"] }),
    ],
    pages: [],
  });
  const found = await store.searchPosts("love", 1, 24);
  // Title matches first; among them the word itself (in the text, or a tag), then the newest.
  expect(found.posts.map((p) => p.slug)).toEqual(["tagged", "oldest", "newest", "middle", "text-only"]);
});

test("drafts between two published posts of a tag take no place among their related posts", async () => {
  const tag = "crowded-by-drafts";
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "first", tags: [tag] }),
      ...Array.from({ length: 70 }, (_, i) =>
        post({ idNum: 2 + i, slug: `draft-${i}`, status: "draft", tags: [tag] }),
      ),
      post({ idNum: 100, slug: "last", tags: [tag] }),
    ],
    pages: [],
  });
  expect((await store.relatedPosts("english", "last", 4)).map((p) => p.slug)).toEqual(["first"]);
  expect((await store.relatedPosts("english", "first", 4)).map((p) => p.slug)).toEqual(["last"]);
});

test("related posts are the best of the post's language, however many nearer candidates are of another", async () => {
  // Post ids follow the writing order: the Hindi posts of the shared tags are the
  // English post's nearest neighbours, and rank first until the language is asked.
  const tags = ["shared-one", "shared-two"];
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "far-both", tags }),
      post({ idNum: 2, slug: "far-one", tags: ["shared-one"] }),
      ...Array.from({ length: 30 }, (_, i) =>
        post({ idNum: 10 + i, slug: `hindi-${i}`, language: "hindi", tags }),
      ),
      post({ idNum: 50, slug: "here", tags }),
      ...Array.from({ length: 20 }, (_, i) =>
        post({ idNum: 60 + i, slug: `marathi-${i}`, language: "marathi", tags }),
      ),
      post({ idNum: 100, slug: "after-one", tags: ["shared-two"] }),
    ],
    pages: [],
  });
  // Both tags first, then one tag, nearest first (21 posts after it, 31 before).
  expect((await store.relatedPosts("english", "here", 3)).map((p) => p.slug)).toEqual([
    "far-both",
    "after-one",
    "far-one",
  ]);
  expect((await store.relatedPosts("english", "here", 1)).map((p) => p.slug)).toEqual(["far-both"]);
  expect(await store.relatedPosts("english", "here", 0)).toEqual([]);
});

test("two related posts as near the post, one before and one after: the one of its first tag comes first", async () => {
  // The seed makes the tags in this order (term ids); then, one apart in writing order (post ids):
  // before (second tag), here (both), after (first tag), and a pair both in one tag.
  writeContent(db, {
    posts: [
      post({ idNum: 1, slug: "seed", tags: ["tie-first", "tie-second"] }),
      post({ idNum: 2, slug: "before", tags: ["tie-second"] }),
      post({ idNum: 3, slug: "here", tags: ["tie-first", "tie-second"] }),
      post({ idNum: 4, slug: "after", tags: ["tie-first"] }),
      post({ idNum: 10, slug: "pair-before", tags: ["tie-pair"] }),
      post({ idNum: 11, slug: "pair-here", tags: ["tie-pair"] }),
      post({ idNum: 12, slug: "pair-after", tags: ["tie-pair"] }),
    ],
    pages: [],
  });
  expect((await store.relatedPosts("english", "here", 3)).map((p) => p.slug)).toEqual([
    "seed",
    "after",
    "before",
  ]);
  // In one tag, the post before it first.
  expect((await store.relatedPosts("english", "pair-here", 2)).map((p) => p.slug)).toEqual([
    "pair-before",
    "pair-after",
  ]);
});
