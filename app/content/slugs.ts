/**
 * URL slug for a tag or category name, in any script: NFC, lower case,
 * letters, marks (Devanagari vowel signs, virama, nukta) and digits kept,
 * everything else collapsed to single hyphens.
 */
export function slugify(name: string): string {
  return name
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}

/** Slugs the routes give a meaning of their own (e.g. /english/home). */
export const RESERVED_SLUGS = new Set([
  "home",
  "page",
  "feed.xml",
  "feed",
  "search",
  "tags",
  "tag",
  "category",
  "post",
  "sitemap.xml",
]);
