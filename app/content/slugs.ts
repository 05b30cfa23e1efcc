/**
 * URL slug for a tag or category name, in any script: NFC, lower case,
 * letters, marks (Devanagari vowel signs, virama, nukta) and digits kept,
 * everything else collapsed to single hyphens.
 */
export function slugify(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = name
      .normalize("NFC")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "");
    // A site's tag, category and person names come again and again (every record of an import
    // checks its names' slugs twice); a run of new names only empties the memo.
    if (slugs.size >= SLUGS_KEPT) slugs.clear();
    slugs.set(name, slug);
  }
  return slug;
}

/** Names whose slugs are kept (a site has hundreds of tags; an import's records check each name twice). */
const SLUGS_KEPT = 4096;
const slugs = new Map<string, string>();

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
