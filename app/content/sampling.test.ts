import { expect, test } from "vitest";
import { drawIds, GALLERY_DRAWS, seededRandom } from "#app/content/sampling.ts";

test("draws six ids per language", () => {
  expect(drawIds(50, Math.random)).toHaveLength(GALLERY_DRAWS);
  expect(GALLERY_DRAWS).toBe(6);
});

test("draws integers in [0, max], both ends included", () => {
  expect(drawIds(10, () => 0)).toEqual([0, 0, 0, 0, 0, 0]);
  expect(drawIds(10, () => 0.999999)).toEqual([10, 10, 10, 10, 10, 10]);
  const random = seededRandom(7);
  const seen = new Set<number>();
  for (let i = 0; i < 500; i++) {
    for (const id of drawIds(10, random)) {
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(0);
      expect(id).toBeLessThanOrEqual(10);
      seen.add(id);
    }
  }
  expect(seen.size).toBe(11);
});

test("keeps duplicate draws, as the spec allows", () => {
  const values = [0.5, 0.5, 0.1, 0.1, 0.9, 0.5];
  let i = 0;
  expect(drawIds(9, () => values[i++] ?? 0)).toEqual([5, 5, 1, 1, 9, 5]);
});

test("a language with no posts draws only 0", () => {
  expect(drawIds(0, Math.random)).toEqual([0, 0, 0, 0, 0, 0]);
});

test("the same seed gives the same draws, another seed others", () => {
  const a = drawIds(1000, seededRandom(42));
  expect(drawIds(1000, seededRandom(42))).toEqual(a);
  expect(drawIds(1000, seededRandom(43))).not.toEqual(a);
});
