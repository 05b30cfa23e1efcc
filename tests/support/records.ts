// One post record for tests that write content through the importer's types:
// published, English, dated by its idNum, titled and filled by its slug.
// A test states only what it is about; a file whose posts need another
// default wraps this once (`const post = (o) => postRecord({ …, ...o })`).
import type { PostRecord } from "#app/content/schemas.ts";

export function postRecord(overrides: Partial<PostRecord> & Pick<PostRecord, "idNum" | "slug">): PostRecord {
  return {
    language: "english",
    status: "publish",
    postTime: 1_700_000_000 + overrides.idNum * 1000,
    title: `Title ${overrides.slug}`,
    featureImageUrl: "",
    content: `<p>Content of ${overrides.slug}</p>`,
    excerpt: "",
    tags: [],
    categories: [],
    ...overrides,
  };
}
