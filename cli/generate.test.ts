import { expect, test } from "vitest";
import { PostRecordSchema } from "#app/content/schemas.ts";
import { generateCorpus, generatePosts } from "#cli/generate.ts";

test("the same seed gives the same corpus; another seed another", () => {
  expect(generateCorpus({ count: 50, seed: 7 })).toEqual(generateCorpus({ count: 50, seed: 7 }));
  expect(generateCorpus({ count: 50, seed: 8 })).not.toEqual(generateCorpus({ count: 50, seed: 7 }));
});

test("a corpus is valid import records: three languages, unique ids and slugs, realistic sizes", () => {
  const posts = generateCorpus({ count: 3000, seed: 1 });
  for (const post of posts) expect(PostRecordSchema.parse(post)).toEqual(post);
  const byLanguage: Partial<Record<string, typeof posts>> = {};
  for (const p of posts) {
    byLanguage[p.language] ??= [];
    byLanguage[p.language]!.push(p);
  }
  expect(Object.keys(byLanguage).sort()).toEqual(["english", "hindi", "marathi"]);
  for (const list of Object.values(byLanguage)) {
    expect(list!.length).toBeGreaterThan(600);
    expect(new Set(list!.map((p) => p.idNum)).size).toBe(list!.length);
    expect(new Set(list!.map((p) => p.slug)).size).toBe(list!.length);
  }
  expect(byLanguage.hindi!.every((p) => /[\u0900-\u097F]/.test(p.title + p.content))).toBe(true);
  expect(byLanguage.marathi!.every((p) => /[\u0900-\u097F]/.test(p.title + p.content))).toBe(true);
  const lengths = posts.map((p) => p.content.length).sort((a, b) => a - b);
  expect(lengths[Math.floor(lengths.length / 2)]).toBeGreaterThan(150);
  expect(lengths.at(-1)).toBeLessThan(3000);
  const published = posts.filter((p) => p.status === "publish").length / posts.length;
  expect(published).toBeGreaterThan(0.88);
  expect(published).toBeLessThan(0.98);
  expect(posts.every((p) => p.tags.length >= 1 && p.tags.length <= 4)).toBe(true);
  const times = posts.map((p) => p.postTime);
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

test("generatePosts streams: it yields before the corpus is complete", () => {
  const iterator = generatePosts({ count: 1_000_000, seed: 3 });
  expect(iterator.next().value?.idNum).toBe(1);
});
