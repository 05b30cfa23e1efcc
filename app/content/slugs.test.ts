import { expect, test } from "vitest";
import { slugify } from "#app/content/slugs.ts";

test("a name's slug: NFC, lower case, letters, marks and digits, the rest single hyphens", () => {
  expect(slugify("  Self Realisation! ")).toBe("self-realisation");
  expect(slugify("शान्ति")).toBe("शान्ति");
  expect(slugify("श\u093E\u0928\u094D\u0924\u093F")).toBe("शान्ति");
  expect(slugify("Café — Noir")).toBe("café-noir");
  expect(slugify("...")).toBe("");
});

test("slugs are remembered by name, and the same whatever came between (the memo empties when full)", () => {
  const first = ["Love", "प्रेम", "love ", "LOVE"].map(slugify);
  // More distinct names than the memo keeps, then the first ones again.
  for (let i = 0; i < 10_000; i++) expect(slugify(`Name ${i}`)).toBe(`name-${i}`);
  expect(["Love", "प्रेम", "love ", "LOVE"].map(slugify)).toEqual(first);
  expect(first).toEqual(["love", "प्रेम", "love", "love"]);
});
