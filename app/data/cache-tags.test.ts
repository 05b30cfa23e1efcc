import { expect, test } from "vitest";
import {
  ChangeSet,
  changesAfter,
  MAX_CHANGE_TAGS,
  MAX_CHANGES_READ,
  pageTags,
  postTag,
  termTag,
} from "#app/data/cache-tags.ts";

test("tags are short ASCII tokens: plain slugs as they are, others hashed", () => {
  expect(postTag("be-still")).toBe("post-be-still");
  expect(termTag("category", "daily-reflections")).toBe("category-daily-reflections");
  const hindi = termTag("tag", "शांति");
  expect(hindi).toMatch(/^tag_[0-9a-f]{12}$/);
  // The same slug in NFD is the same tag.
  expect(termTag("tag", "शांति".normalize("NFD"))).toBe(hindi);
  for (const odd of ["Caps", "with space", "a,b", "x".repeat(65)])
    expect(postTag(odd)).toMatch(/^post_[0-9a-f]{12}$/);
  expect(pageTags(["post-b", "list-english", "post-b", "all"])).toEqual(["all", "list-english", "post-b"]);
});

test("a change set: a tag both removed and changed is a removal; past the cap it names `all`", () => {
  const changes = new ChangeSet();
  expect(changes.records()).toEqual([]);
  changes.add(["post-a", "search"]);
  changes.add(["post-a", null, false], true);
  expect(changes.records()).toEqual([
    { tags: ["post-a"], removal: true },
    { tags: ["search"], removal: false },
  ]);
  const large = new ChangeSet();
  for (let i = 0; i <= MAX_CHANGE_TAGS; i++) large.add([`post-${i}`]);
  expect(large.full).toBe(true);
  expect(large.records()).toEqual([{ tags: ["all"], removal: false }]);
});

test("the log read back: rows missing after the cursor, or too many, cannot tell (null)", () => {
  const row = (seq: number, removal = false) => ({ seq, tags: "post-a search", removal });
  expect(changesAfter(4, [row(5), row(6, true)])).toEqual([
    { tags: ["post-a", "search"], removal: false },
    { tags: ["post-a", "search"], removal: true },
  ]);
  expect(changesAfter(4, [])).toEqual([]);
  expect(changesAfter(4, [row(7)])).toBeNull();
  expect(
    changesAfter(
      0,
      Array.from({ length: MAX_CHANGES_READ + 1 }, (_, i) => row(i + 1)),
    ),
  ).toBeNull();
});

test("a removal named past the cap still drops: the `all` row is a removal", () => {
  const large = new ChangeSet();
  for (let i = 0; i <= MAX_CHANGE_TAGS; i++) large.add([`post-${i}`]);
  large.add(["post-gone"], true);
  expect(large.records()).toEqual([{ tags: ["all"], removal: true }]);
});
